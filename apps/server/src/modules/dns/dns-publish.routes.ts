import { dnsCnameRoutes, dnsPublishRoutes } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import type { Binder } from '../../platform/http/bind-route.js';
import { invalidFields } from '../../platform/http/validation.js';
import { publishedLines } from './desired-records.js';
import type { DnsPublishRepository, UnprocessedRow } from './dns-publish.repository.js';
import type { DnsReconciler } from './dns-reconciler.js';
import type { DnsSettingsService } from './dns-settings.service.js';

const present = (row: UnprocessedRow) => ({
  id: row.id,
  name: row.name,
  type: row.type,
  line: row.line,
  action: row.action,
  ttl: row.ttl,
  values: row.values,
  error: row.error,
  attempts: row.attempts,
  nextAttemptAt: row.nextAttemptAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export interface DnsPublishDeps {
  readonly repo: DnsPublishRepository;
  readonly reconciler: DnsReconciler;
  readonly settings: DnsSettingsService;
  readonly cnameDomainOf: (operatorId: number) => Promise<string>;
  readonly clock: Clock;
}

export function bindDnsPublishRoutes(
  binder: Binder,
  { repo, reconciler, settings, cnameDomainOf, clock }: DnsPublishDeps,
): void {
  binder.bind(dnsPublishRoutes.listDnsUnprocessed, async ({ query }, { caller }) => {
    const { rows, total } = await repo.listUnprocessed(caller.operatorId, query.page, query.pageSize);
    return { data: rows.map(present), total };
  });
  binder.bind(dnsPublishRoutes.retryDnsUnprocessed, async ({ body }, { caller }) => {
    const owned = new Set(await repo.idsOf(caller.operatorId, body.ids));
    if (body.ids.some((id) => !owned.has(id))) throw invalidFields([{ field: 'ids', key: 'invalidValue' }]);
    await repo.makeDue(caller.operatorId, body.ids, new Date(clock()));
    return { data: await reconciler.reconcile(caller.operatorId) };
  });
  binder.bind(dnsPublishRoutes.recoverDns, async (_i, { caller }) => ({
    data: await reconciler.reconcile(caller.operatorId, true),
  }));
  binder.bind(dnsCnameRoutes.listDnsCnames, async ({ query }, { caller }) => {
    const cnameDomain = await cnameDomainOf(caller.operatorId);
    const { rows, total } = await repo.listCnames(caller.operatorId, query.keyword, query.page, query.pageSize);
    return {
      data: rows.map(({ label, ...row }) => ({ ...row, target: `${label}.${cnameDomain}` })),
      total,
    };
  });
  binder.bind(dnsCnameRoutes.setDnsCnames, async ({ body }, { caller }) => {
    const owned = new Set(await repo.domainIdsOf(caller.operatorId, body.ids));
    if (body.ids.some((id) => !owned.has(id))) throw invalidFields([{ field: 'ids', key: 'invalidValue' }]);
    await repo.setCnameDisabled(body.ids, body.disabled);
    return { data: true as const };
  });
  binder.bind(dnsCnameRoutes.getCnameMeta, async (_i, { caller }) => {
    const setting = await settings.get(caller.operatorId);
    const cnameDomain = await cnameDomainOf(caller.operatorId);
    if (!setting) return { data: { cnameDomain, providerType: null, zone: null, ttl: null, lines: [] } };
    const provider = await settings.providerOf(caller.operatorId);
    return {
      data: {
        cnameDomain,
        providerType: setting.type,
        zone: setting.zone,
        ttl: setting.ttl,
        lines: publishedLines(provider.lines),
      },
    };
  });
}
