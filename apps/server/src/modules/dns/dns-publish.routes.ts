import { dnsPublishRoutes } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import type { Binder } from '../../platform/http/bind-route.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { DnsPublishRepository, UnprocessedRow } from './dns-publish.repository.js';
import type { DnsReconciler } from './dns-reconciler.js';

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

export function bindDnsPublishRoutes(
  binder: Binder,
  repo: DnsPublishRepository,
  reconciler: DnsReconciler,
  clock: Clock,
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
}
