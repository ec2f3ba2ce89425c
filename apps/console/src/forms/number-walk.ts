import {
  type AnyRoute,
  abuseIPRoutes,
  accountRoutes,
  apiTokenRoutes,
  authCredentialRoutes,
  authGroupRoutes,
  clientSiteRoutes,
  corsRoutes,
  dbBackupRoutes,
  dnsSettingRoutes,
  domainRoutes,
  firewallReputationRoutes,
  L4_RULE_KINDS,
  licenseRoutes,
  logPushRoutes,
  logRoutes,
  logSettingRoutes,
  luaAclRoutes,
  monitoringRoutes,
  nodeExporterRoutes,
  notificationRoutes,
  productRoutes,
  SITE_RULE_KINDS,
  siteCacheRoutes,
  sitePortRoutes,
  siteSettingRoutes,
  tokenAuthRoutes,
  trafficRoutes,
  wafRoutes,
  ZONE_NGINX_SECTION_ROUTES,
  zoneL4ProtectionRoutes,
  zoneRoutes,
  zoneSettingRoutes,
} from '@rampart/contract';
import { gbToBytes } from '../features/traffic/traffic-units';

/**
 * Every number box of the console, by form: the route its form calls and the body field each box
 * fills. The browser walk (e2e/tests/number-fields.spec.ts) opens each form, types a value just
 * outside the field's bounds (read from the contract's schema, number-bounds.ts) into each box,
 * submits, and checks that the box shows the refusal, keeps what was typed, and that no request
 * of the route left the browser. number-walk.test.ts fails when a source file with a number box is
 * not here (a new box joins the walk) or a box names a field its route does not have.
 */
export interface NumberBox {
  /** The box's label (its accessible name): an en_US text key `namespace:path`, with its parameters. */
  label: string;
  labelParams?: Record<string, string | number>;
  /** The route body's field the box fills: `a.b` (a list on the way is stepped into). */
  field: string;
  /**
   * Where the box holds another unit than the field: the form's own conversion of the box's value
   * into the field's (`gbToBytes`). The walk derives the box's bounds through it.
   */
  toField?: (box: number) => number;
  unit?: string;
}

export interface NumberForm {
  /** The form's name in the walk. */
  form: string;
  /** The console source (under apps/console/src) holding the form's number boxes. */
  source: string;
  route: AnyRoute;
  /** Where the route takes the boxes' fields: its body (default) or its query (a list's filters). */
  part?: 'body' | 'query';
  boxes: NumberBox[];
}

const kind = SITE_RULE_KINDS;
const nginx = ZONE_NGINX_SECTION_ROUTES;

export const NUMBER_FORMS: readonly NumberForm[] = [
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
    route: abuseIPRoutes.updateAbuseIP,
    boxes: [{ label: 'abuseIPs:score', field: 'score' }],
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
      { label: 'zoneSettings:l4.burstOf', labelParams: { name: 'SYN flood' }, field: 'synFlood.burst' },
      { label: 'zoneSettings:l4.rateOf', labelParams: { name: 'SYN flood' }, field: 'synFlood.rate' },
    ],
  },
  // Customer console: a site's settings.
  {
    form: 'domain upstreams',
    source: 'pages/user/site-setting/domains/UpstreamsList.tsx',
    route: domainRoutes.createDomains,
    boxes: [
      { label: 'domains:upstream.portOf', labelParams: { row: 1 }, field: 'domains.upstreams.port' },
      { label: 'domains:upstream.weightOf', labelParams: { row: 1 }, field: 'domains.upstreams.weight' },
    ],
  },
  {
    form: 'site port',
    source: 'pages/user/site-setting/ports/PortFormModal.tsx',
    route: sitePortRoutes.addSitePorts,
    boxes: [{ label: 'ports:port', field: 'ports.port' }],
  },
  {
    form: 'site port upstreams',
    source: 'pages/user/site-setting/ports/PortUpstreamsModal.tsx',
    route: sitePortRoutes.addSitePortUpstreams,
    boxes: [
      { label: 'ports:upstream.newPort', field: 'upstreams.port' },
      { label: 'ports:upstream.newWeight', field: 'upstreams.weight' },
    ],
  },
  {
    form: 'site port batch',
    source: 'pages/user/site-setting/ports/PortBatchModal.tsx',
    route: sitePortRoutes.batchCreateSitePorts,
    boxes: [
      { label: 'ports:batch.from', labelParams: { what: 'Listen ports' }, field: 'portFrom' },
      { label: 'ports:batch.to', labelParams: { what: 'Listen ports' }, field: 'portTo' },
    ],
  },
  {
    form: 'cache rule',
    source: 'pages/user/site-setting/cache/CacheRuleFormModal.tsx',
    route: siteCacheRoutes.addCacheRules,
    boxes: [{ label: 'cache:priority', field: 'data.priority' }],
  },
  {
    form: 'rate limit',
    source: 'pages/user/site-setting/options/RateLimitsCard.tsx',
    route: siteSettingRoutes.addRateRules,
    boxes: [{ label: 'siteSettings:rates.rate', field: 'data.rate' }],
  },
  {
    form: 'site abuse ip',
    source: 'pages/user/site-setting/firewall/AbuseIPPanel.tsx',
    route: firewallReputationRoutes.updateAbuseIPSetting,
    boxes: [{ label: 'firewall:abuseIP.threshold', field: 'threshold' }],
  },
  {
    form: 'interval limit',
    source: 'pages/user/site-setting/firewall/FirewallFields.tsx',
    route: kind.intervalLimit.routes.add,
    boxes: [
      { label: 'firewall:priority', field: 'data.priority' },
      { label: 'firewall:seconds', field: 'data.seconds' },
      { label: 'firewall:times', field: 'data.times' },
    ],
  },
  {
    form: 'second limit',
    source: 'pages/user/site-setting/firewall/FirewallFields.tsx',
    route: kind.secondLimit.routes.add,
    boxes: [
      { label: 'firewall:rate', field: 'data.rate' },
      { label: 'firewall:burst', field: 'data.burst' },
      { label: 'firewall:blockSeconds', field: 'data.blockSeconds' },
    ],
  },
  {
    form: 'anti cc',
    source: 'pages/user/site-setting/firewall/FirewallFields.tsx',
    route: kind.antiCC.routes.add,
    boxes: [
      { label: 'firewall:seconds', field: 'data.seconds' },
      { label: 'firewall:times', field: 'data.times' },
      { label: 'firewall:errorSeconds', field: 'data.errorSeconds' },
      { label: 'firewall:errorTimes', field: 'data.errorTimes' },
    ],
  },
  {
    form: 'l4 connection limit',
    source: 'pages/user/site-setting/firewall/FirewallFields.tsx',
    route: L4_RULE_KINDS.limitConn.routes.update,
    boxes: [
      { label: 'firewall:l4.max', field: 'max' },
      { label: 'firewall:rate', field: 'rate' },
      { label: 'firewall:burst', field: 'burst' },
      { label: 'firewall:l4.delay', field: 'delay' },
    ],
  },
  {
    form: 'auth rule',
    source: 'pages/user/site-setting/auth/AuthRuleFormModal.tsx',
    route: authGroupRoutes.createRule,
    boxes: [{ label: 'authGroups:rule.priority', field: 'priority' }],
  },
  {
    form: 'jwt credential',
    source: 'pages/user/site-setting/auth/CredentialsDrawer.tsx',
    route: authCredentialRoutes.createJwtAuth,
    boxes: [{ label: 'authGroups:jwt.leeway', field: 'leeway' }],
  },
  {
    form: 'cors module',
    source: 'pages/user/site-setting/modules/ModuleFields.tsx',
    route: corsRoutes.create,
    boxes: [{ label: 'modules:cors.maxAge', field: 'modules.maxAge' }],
  },
  {
    form: 'waf exclusion',
    source: 'pages/user/site-setting/modules/WafFields.tsx',
    route: wafRoutes.update,
    boxes: [{ label: 'modules:waf.exclusion.ruleId', field: 'exclusions.ruleId' }],
  },
  {
    form: 'acl rule',
    source: 'pages/user/site-setting/modules/AclRuleFormModal.tsx',
    route: luaAclRoutes.addRule,
    boxes: [
      { label: 'modules:acl.priority', field: 'priority' },
      { label: 'modules:acl.condition.count', field: 'conditions.count' },
      { label: 'modules:acl.condition.seconds', field: 'conditions.seconds' },
    ],
  },
  {
    form: 'token auth',
    source: 'pages/user/site-setting/modules/TokenAuthFormModal.tsx',
    route: tokenAuthRoutes.addRules,
    boxes: [{ label: 'modules:token.expireSeconds', field: 'items.expire' }],
  },
  // Both consoles: analytics.
  {
    form: 'log push destination',
    source: 'pages/analytics/LogPushEventModal.tsx',
    route: logPushRoutes.userCreateLogPushEvent,
    boxes: [{ label: 'logPush:fields.port', field: 'destination.port' }],
  },
  {
    form: 'access log search',
    source: 'pages/analytics/LoggerSearchRow.tsx',
    route: logRoutes.userAccessLogs,
    boxes: [{ label: 'logs:filters.status', field: 'status' }],
  },
  {
    form: 'waf log search',
    source: 'pages/analytics/LoggerSearchRow.tsx',
    route: logRoutes.userWafLogs,
    boxes: [{ label: 'logs:filters.ruleId', field: 'ruleId' }],
  },
  {
    form: 'log push log search',
    source: 'pages/analytics/LogPushLogsTab.tsx',
    route: logPushRoutes.userLogPushLogs,
    part: 'query',
    boxes: [{ label: 'logPush:filters.id', field: 'ID' }],
  },
];

/** Number boxes the walk does not type into, by source file: how many, and why. */
export const NOT_WALKED: Readonly<Record<string, { boxes: number; why: string }>> = {
  'pages/user/site-setting/domains/UpstreamsList.tsx': {
    boxes: 1,
    why: "an upstream's status: a hidden field that carries the stored value back, never shown",
  },
};

/** The en_US text of a box's label, from the console's catalogue (undefined when it has none). */
export function walkLabel(texts: object, box: NumberBox): string | undefined {
  const [namespace = '', key = ''] = box.label.split(':');
  let text: unknown = (texts as Record<string, unknown>)[namespace];
  for (const part of key.split('.')) {
    text = text && typeof text === 'object' ? (text as Record<string, unknown>)[part] : undefined;
  }
  if (typeof text !== 'string') return undefined;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => String(box.labelParams?.[name] ?? whole));
}
