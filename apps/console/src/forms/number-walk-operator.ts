import {
  abuseIPRoutes,
  accountRoutes,
  apiTokenRoutes,
  clientSiteRoutes,
  dbBackupRoutes,
  dnsSettingRoutes,
  licenseRoutes,
  logSettingRoutes,
  monitoringRoutes,
  nodeExporterRoutes,
  notificationRoutes,
  productRoutes,
  siteSettingRoutes,
  trafficRoutes,
  ZONE_NGINX_SECTION_ROUTES,
  zoneL4ProtectionRoutes,
  zoneRoutes,
  zoneSettingRoutes,
} from '@rampart/contract';
import { gbToBytes } from '../features/traffic/traffic-units';
import type { NumberForm } from './number-walk-types';

const nginx = ZONE_NGINX_SECTION_ROUTES;
const SYN = 'TCP handshakes (SYN) per source address';

/** The operator console's number boxes (number-walk.ts says what the walk does with them). */
export const OPERATOR_NUMBER_FORMS: readonly NumberForm[] = [
  // Operator console: settings pages.
  {
    form: 'db backup',
    source: 'pages/client/settings/DbBackupPage.tsx',
    route: dbBackupRoutes.putDbBackupSetting,
    boxes: [
      { label: 'dbBackup:intervalHours', field: 'intervalHours' },
      { label: 'dbBackup:keep', field: 'keep' },
    ],
  },
  {
    form: 'log retention',
    source: 'pages/client/settings/LogSettingPage.tsx',
    route: logSettingRoutes.putLogSetting,
    boxes: [
      { label: 'logSetting:rawRetentionDays', field: 'rawRetentionDays' },
      { label: 'logSetting:rollupRetentionDays', field: 'rollupRetentionDays' },
    ],
  },
  {
    form: 'log export setting',
    source: 'pages/client/settings/LogExportSettingForm.tsx',
    route: logSettingRoutes.putLogExportSetting,
    boxes: [
      { label: 'logSetting:exports.retentionDays', field: 'retentionDays' },
      { label: 'logSetting:exports.spaceMB', field: 'spaceMB' },
    ],
  },
  {
    form: 'frequency',
    source: 'pages/client/system/FrequencyTab.tsx',
    route: notificationRoutes.saveFrequencySetting,
    boxes: [
      { label: 'systemSettings:frequency.spikeThreshold', field: 'spikeThreshold' },
      { label: 'systemSettings:frequency.spikeWindowMinutes', field: 'spikeWindowMinutes' },
    ],
  },
  {
    form: 'node exporter',
    source: 'pages/client/system/NodeExporterPage.tsx',
    route: nodeExporterRoutes.saveNodeExporter,
    boxes: [
      { label: 'systemSettings:nodeExporter.limitCountTimes', field: 'limitCountTimes' },
      { label: 'systemSettings:nodeExporter.limitCountSec', field: 'limitCountSec' },
    ],
  },
  {
    form: 'dns setting',
    source: 'pages/client/settings/DnsSettingPage.tsx',
    route: dnsSettingRoutes.saveDnsSetting,
    boxes: [{ label: 'dnsSetting:fields.ttl', field: 'ttl' }],
  },
  {
    form: 'email setting',
    source: 'pages/client/notifications/EmailSettingForm.tsx',
    route: notificationRoutes.saveEmailSetting,
    boxes: [{ label: 'notifications:email.port', field: 'port' }],
  },
  {
    form: 'abuse ip',
    source: 'pages/client/settings/AbuseIPsPage.tsx',
    // The Add dialog (editing an entry sends the same box through updateAbuseIP).
    route: abuseIPRoutes.addAbuseIPs,
    boxes: [{ label: 'abuseIPs:score', field: 'data.score' }],
  },
  {
    form: 'abuse ip import',
    source: 'pages/client/settings/AbuseIPsPage.tsx',
    route: abuseIPRoutes.importAbuseIPs,
    boxes: [{ label: 'abuseIPs:defaultScore', field: 'defaultScore' }],
  },
  {
    form: 'compression defaults',
    source: 'pages/user/site-setting/options/CompressionCard.tsx',
    route: siteSettingRoutes.setGzipSetting,
    boxes: [{ label: 'siteSettings:gzip.minLength', field: 'minLength' }],
  },
  // Operator console: accounts, products, sites, traffic, monitoring, licences.
  {
    form: 'account',
    source: 'pages/account/accounts/AccountFormModal.tsx',
    route: accountRoutes.createAccount,
    boxes: [{ label: 'accounts:maxLogExportTimes', field: 'maxLogExportTimes' }],
  },
  {
    // The same dialog in the platform console, creating an operator.
    form: 'operator account',
    source: 'pages/account/accounts/AccountFormModal.tsx',
    route: accountRoutes.createAccount,
    boxes: [{ label: 'accounts:zoneLimit', field: 'zoneLimit' }],
  },
  {
    form: 'api token',
    source: 'pages/account/api-tokens/ApiTokenModals.tsx',
    route: apiTokenRoutes.createApiToken,
    boxes: [{ label: 'apiTokens:lifetime', field: 'lifetime' }],
  },
  {
    form: 'product',
    source: 'pages/client/products/ProductFormModal.tsx',
    route: productRoutes.createProduct,
    boxes: [
      { label: 'products:siteLimit', field: 'siteLimit' },
      { label: 'products:monthlyTraffic', field: 'monthlyTraffic', toField: gbToBytes, unit: 'GB' },
      { label: 'products:throttleKbps', field: 'throttleKbps' },
    ],
  },
  {
    form: 'site limits',
    source: 'pages/client/sites/SiteActionModal.tsx',
    route: clientSiteRoutes.setSitesLimitations,
    boxes: [
      { label: 'siteActions:maxDomains', field: 'limitations.maxDomains' },
      { label: 'siteActions:maxPorts', field: 'limitations.maxPorts' },
    ],
  },
  {
    form: 'traffic plan',
    source: 'pages/client/traffic/TrafficPlanFormModal.tsx',
    route: trafficRoutes.createTrafficPlan,
    boxes: [{ label: 'traffic:gigabytes', field: 'bytes', toField: gbToBytes, unit: 'GB' }],
  },
  {
    form: 'monitor group',
    source: 'pages/client/monitor/MonitorGroupFormModal.tsx',
    route: monitoringRoutes.createMonitorGroup,
    boxes: [
      { label: 'monitoring:intervalSeconds', field: 'intervalSeconds' },
      { label: 'monitoring:timeoutSeconds', field: 'timeoutSeconds' },
      { label: 'monitoring:failureThreshold', field: 'failureThreshold' },
    ],
  },
  {
    form: 'licence',
    source: 'pages/admin/licenses/license-setting.tsx',
    route: licenseRoutes.createLicense,
    boxes: ['nodes', 'sites', 'domains', 'autoSSLDomains', 'ports', 'zones'].map((k) => ({
      label: `licenses:kinds.${k}`,
      field: `licenseSetting.${k}`,
    })),
  },
  // Operator console: a zone's settings.
  {
    form: 'zone ports',
    source: 'pages/client/zones/ZonePortsPanel.tsx',
    route: zoneSettingRoutes.createZonePorts,
    boxes: [{ label: 'zoneSettings:ports.port', field: 'ports.port' }],
  },
  {
    form: 'zone limits',
    source: 'pages/client/zones/ZoneLimitsPanel.tsx',
    route: zoneRoutes.setZoneTlsLimitCount,
    boxes: [{ label: 'zoneSettings:limits.tlsLimitCount', field: 'count' }],
  },
  {
    form: 'zone invalid-domain limit',
    source: 'pages/client/zones/ZoneLimitsPanel.tsx',
    route: zoneRoutes.setZoneInvalidDomainLimitCount,
    boxes: [{ label: 'zoneSettings:limits.invalidDomainLimitCount', field: 'count' }],
  },
  {
    form: 'zone challenge work',
    source: 'pages/client/zones/ZoneChallengeWorkPanel.tsx',
    route: zoneRoutes.setZoneChallengeWorkBits,
    boxes: [{ label: 'zoneSettings:challengeWork.bits', field: 'bits' }],
  },
  {
    form: 'zone nginx worker',
    source: 'pages/client/zones/NginxNumbersForm.tsx',
    route: nginx.worker.put,
    boxes: ['workerConnections', 'workerShutdownTimeoutSeconds'].map((k) => ({
      label: `zoneSettings:nginx.fields.${k}`,
      field: `value.${k}`,
    })),
  },
  {
    form: 'zone nginx http',
    source: 'pages/client/zones/NginxNumbersForm.tsx',
    route: nginx.http.put,
    boxes: ['keepaliveTimeoutSeconds', 'clientMaxBodyMegabytes', 'proxyConnectTimeoutSeconds'].map((k) => ({
      label: `zoneSettings:nginx.fields.${k}`,
      field: `value.${k}`,
    })),
  },
  {
    form: 'zone nginx stream',
    source: 'pages/client/zones/NginxNumbersForm.tsx',
    route: nginx.stream.put,
    boxes: ['proxyConnectTimeoutSeconds', 'proxyTimeoutSeconds'].map((k) => ({
      label: `zoneSettings:nginx.fields.${k}`,
      field: `value.${k}`,
    })),
  },
  {
    form: 'zone l4 protection',
    source: 'pages/client/zones/ZoneL4ProtectionPanel.tsx',
    route: zoneL4ProtectionRoutes.setZoneL4Protection,
    boxes: [
      { label: 'zoneSettings:l4.refusals', field: 'escalation.refusals' },
      { label: 'zoneSettings:l4.window', field: 'escalation.seconds' },
      // The SYN rate's boxes, named after it (zoneSettings:l4.synFlood's en_US text).
      { label: 'zoneSettings:l4.burstOf', labelParams: { name: SYN }, field: 'synFlood.burst' },
      { label: 'zoneSettings:l4.rateOf', labelParams: { name: SYN }, field: 'synFlood.rate' },
    ],
  },
];
