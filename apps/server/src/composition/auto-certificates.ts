import { AcmeSettingsService, DEFAULT_POLLING } from '../modules/auto-certificates/acme-settings.service.js';
import { AutoCertificatesJob, DEFAULT_AUTO_CERT_TIMING } from '../modules/auto-certificates/auto-certificates.job.js';
import { bindAutoCertificateRoutes } from '../modules/auto-certificates/auto-certificates.routes.js';
import { AutoCertificatesService } from '../modules/auto-certificates/auto-certificates.service.js';
import type { DnsSettingsService } from '../modules/dns/dns-settings.service.js';
import type { Binder } from '../platform/http/bind-route.js';
import type { AppContext } from './context.js';

/**
 * Automatic certificates: the operator's ACME CA settings, the list and renew calls, and the job
 * that issues and renews (started here, stopped before the app closes).
 */
export function composeAutoCertificates(ctx: AppContext, binder: Binder, dnsSettings: DnsSettingsService) {
  const { app, config, repos, clock, box, transactions, changes } = ctx;
  const settings = new AcmeSettingsService(repos.settings, box, transactions, ctx.outgoing, {
    ...DEFAULT_POLLING,
    ...config.autoCert?.acmePolling,
  });
  const job = new AutoCertificatesJob(
    repos.autoCertificates,
    repos.certificates,
    settings,
    dnsSettings,
    transactions,
    box,
    changes,
    clock,
    { ...DEFAULT_AUTO_CERT_TIMING, ...config.autoCert?.timing },
    (err) => app.log.error({ err }, 'automatic certificates round failed'),
    // One alert per certificate and day to the operator and the site's customer (alerts.service.ts).
    async (row, reason, at) => {
      await ctx.alerts.emit({
        operatorId: row.operatorId,
        customerId: row.customerId,
        kind: 'certificateRenewalFailed',
        subject: `certificate:${row.id}`,
        dedupKey: `certificate:${row.id}:${at.toISOString().slice(0, 10)}`,
        params: { domain: row.name, reason: reason.slice(0, 500) },
      });
    },
  );
  bindAutoCertificateRoutes(
    binder,
    new AutoCertificatesService(repos.autoCertificates, transactions, job, clock),
    settings,
  );
  job.start();
  app.addHook('preClose', async () => job.stop());
  return job;
}
