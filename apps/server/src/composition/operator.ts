import { bindAnnouncementRoutes } from '../modules/announcements/announcements.routes.js';
import { AnnouncementsService } from '../modules/announcements/announcements.service.js';
import { bindDnsSettingRoutes } from '../modules/dns/dns-settings.routes.js';
import { DnsSettingsService } from '../modules/dns/dns-settings.service.js';
import { bindZoneL4ProtectionRoutes } from '../modules/firewall/firewall-l4.routes.js';
import { ZoneL4ProtectionService } from '../modules/firewall/zone-l4-protection.service.js';
import { bindGroupLineRoutes } from '../modules/group-lines/group-lines.routes.js';
import { GroupLinesService } from '../modules/group-lines/group-lines.service.js';
import { bindGroupRoutes } from '../modules/groups/groups.routes.js';
import { GroupsService } from '../modules/groups/groups.service.js';
import { LICENCE_EXPIRY_TICK_MS, LicenceExpiryCheck } from '../modules/licenses/licence-expiry.js';
import { bindLicenseRoutes } from '../modules/licenses/licenses.routes.js';
import { LicensesService } from '../modules/licenses/licenses.service.js';
import { bindLogoRoutes } from '../modules/logos/logos.routes.js';
import { LogosService } from '../modules/logos/logos.service.js';
import type { MonitorStatusService } from '../modules/monitoring/monitor-status.service.js';
import { bindMonitoringRoutes } from '../modules/monitoring/monitoring.routes.js';
import { MonitoringService } from '../modules/monitoring/monitoring.service.js';
import { ProbesService } from '../modules/monitoring/probes.service.js';
import { bindProductRoutes } from '../modules/products/products.routes.js';
import { ProductsService } from '../modules/products/products.service.js';
import { bindVirtualNodeRoutes } from '../modules/virtual-nodes/virtual-nodes.routes.js';
import { VirtualNodesService } from '../modules/virtual-nodes/virtual-nodes.service.js';
import { bindOperatorNginxRoutes } from '../modules/zones/operator-nginx.routes.js';
import { OperatorNginxService } from '../modules/zones/operator-nginx.service.js';
import { bindZoneSettingRoutes } from '../modules/zones/zone-settings.routes.js';
import { ZoneSettingsService } from '../modules/zones/zone-settings.service.js';
import { bindZoneTrustRoutes } from '../modules/zones/zone-trust.routes.js';
import { ZoneTrustService } from '../modules/zones/zone-trust.service.js';
import { bindZoneRoutes } from '../modules/zones/zones.routes.js';
import { ZonesService } from '../modules/zones/zones.service.js';
import type { Binder } from '../platform/http/bind-route.js';
import type { AppContext } from './context.js';

/**
 * The operator's network and its own settings: zones and their nginx settings, groups, DNS lines,
 * virtual nodes, products, monitoring, announcements, the console's logos, the DNS provider and
 * licences (the vendor's side and the operator's) and the check that warns of their expiry.
 */
export function composeOperator(
  ctx: AppContext,
  binder: Binder,
  monitorStatus: MonitorStatusService,
): { dnsSettings: DnsSettingsService; licenceExpiry: LicenceExpiryCheck } {
  const { app, repos, clock, transactions, capacity } = ctx;
  const zones = new ZonesService(repos.zones, {
    zoneSettings: repos.zoneSettings,
    accountZones: repos.accountZones,
    nodes: repos.nodes,
    groupLines: repos.groupLines,
    transactions,
    capacity,
    licenseLimits: ctx.licenseLimits,
  });
  bindZoneRoutes(binder, zones);
  bindZoneTrustRoutes(binder, new ZoneTrustService(repos.zones));
  bindZoneL4ProtectionRoutes(binder, new ZoneL4ProtectionService(repos.zones));
  bindZoneSettingRoutes(
    binder,
    new ZoneSettingsService(repos.zoneSettings, repos.sitePorts, zones, transactions, clock),
  );
  bindOperatorNginxRoutes(binder, new OperatorNginxService(repos.settings, transactions));
  bindGroupRoutes(binder, new GroupsService(repos.groups, repos.zones));
  bindGroupLineRoutes(binder, new GroupLinesService(repos.groupLines, transactions, capacity));
  bindVirtualNodeRoutes(
    binder,
    new VirtualNodesService(repos.virtualNodes, repos.zones, repos.groupLines, capacity, transactions),
  );
  bindProductRoutes(binder, new ProductsService(repos.products, transactions, capacity));
  bindMonitoringRoutes(
    binder,
    new MonitoringService(repos.monitorNodes, repos.monitorGroups, transactions, clock),
    monitorStatus,
    new ProbesService(
      repos.probes,
      transactions,
      clock,
      (operatorId, nodeId, at, reason) => ctx.alerts.nodeStateChanged(operatorId, nodeId, at, reason),
      ctx.monitorTransitions,
    ),
  );
  bindAnnouncementRoutes(binder, new AnnouncementsService(repos.announcements, transactions));
  bindLogoRoutes(binder, new LogosService(repos.logos, transactions, ctx.system));
  const dnsSettings = new DnsSettingsService(repos.settings, repos.accounts, ctx.box, transactions, ctx.outgoing, {
    userAgent: `Rampart/${ctx.config.version} (dns provider)`,
  });
  bindDnsSettingRoutes(binder, dnsSettings);
  bindLicenseRoutes(
    binder,
    new LicensesService(
      transactions,
      repos.licenses,
      repos.accounts,
      ctx.licenseLimits,
      ctx.licenseKeys,
      () => ctx.system.instanceId(),
      clock,
    ),
  );
  const licenceExpiry = new LicenceExpiryCheck(
    repos.licenses,
    (alert) => ctx.alerts.emit(alert),
    clock,
    (error) => app.log.error({ err: error }, 'licence expiry check failed'),
  );
  const expiryTick = ctx.config.licenceExpiryTickMs ?? LICENCE_EXPIRY_TICK_MS;
  app.addHook('onReady', async () => licenceExpiry.start(expiryTick));
  app.addHook('preClose', async () => licenceExpiry.stop());
  return { dnsSettings, licenceExpiry };
}
