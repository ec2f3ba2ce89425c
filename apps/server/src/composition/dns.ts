import { bindDnsPublishRoutes } from '../modules/dns/dns-publish.routes.js';
import { DNS_RECONCILER_DEFAULTS, DnsReconciler } from '../modules/dns/dns-reconciler.js';
import type { DnsSettingsService } from '../modules/dns/dns-settings.service.js';
import type { CnameSettingsService } from '../modules/domains/cname-settings.service.js';
import type { MonitorStatusService } from '../modules/monitoring/monitor-status.service.js';
import type { Binder } from '../platform/http/bind-route.js';
import type { AppContext } from './context.js';

/**
 * The publication of the operators' DNS records: the reconciler, its API (`dns/unprocessed`,
 * `dns/recovery`) and its background passes, woken by configuration changes and monitor transitions.
 */
export function composeDns(
  ctx: AppContext,
  binder: Binder,
  deps: { dnsSettings: DnsSettingsService; cnameSettings: CnameSettingsService; monitorStatus: MonitorStatusService },
): DnsReconciler {
  const repo = ctx.repos.dnsPublish;
  const configured = ctx.config.dnsPublish;
  const cnameDomainOf = (operatorId: number) => deps.cnameSettings.domainOf(operatorId);
  const reconciler = new DnsReconciler(
    repo,
    deps.dnsSettings,
    cnameDomainOf,
    async (operatorId, nodeIds) => {
      const states = await deps.monitorStatus.statesOf(operatorId, nodeIds);
      return new Set([...states].filter(([, s]) => s.state === 'down').map(([id]) => id));
    },
    ctx.clock,
    ctx.app.log,
    { ...DNS_RECONCILER_DEFAULTS, ...(configured || {}) },
  );
  bindDnsPublishRoutes(binder, { repo, reconciler, settings: deps.dnsSettings, cnameDomainOf, clock: ctx.clock });
  if (configured !== false) reconciler.start([ctx.changes, ctx.monitorTransitions]);
  ctx.app.addHook('preClose', async () => reconciler.stop());
  return reconciler;
}
