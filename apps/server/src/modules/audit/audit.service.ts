import type { AnyRoute, auditQuery } from '@rampart/contract';
import { errorStatus, isErrorCode, networkStatisticsRoutes } from '@rampart/contract';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../../platform/errors/app-error.js';
import type { AuditHook, Caller } from '../../platform/http/bind-route.js';
import { presentAuditRecord } from './audit.presenter.js';
import type { AuditRepository, AuditRowChangeRow } from './audit.repository.js';
import { redactBody } from './redact.js';

/**
 * Calls that change nothing although they are not GETs: queries sent as POST because their
 * filters are long. They are left out of the audit log so it lists changes only.
 */
export const READ_ONLY_ROUTES: ReadonlySet<string> = new Set([
  'auth.auditLogs.search',
  'client.domains.meta',
  'user.domains.acrossMeta',
  'user.domains.acrossTags',
  'user.domains.export',
  ...['user', 'client'].flatMap((tier) =>
    ['info', 'top', 'timeSeries', 'list', 'export'].map((call) => `${tier}.statistics.${call}`),
  ),
  // The network-attack statistics read as the statistics do.
  ...Object.values(networkStatisticsRoutes).map((route) => route.id),
]);

/**
 * Which calls are audited: every console call of a signed-in account that is not a GET and not
 * in {@link READ_ONLY_ROUTES}. Public calls (sign-in, refresh, logout, set-password links) have
 * no signed-in actor and are in the request log; node-API calls are the agents' own polling and
 * reporting, thousands a day per node, and change nothing an account did.
 */
export function isAudited(route: AnyRoute): boolean {
  return (
    route.access.kind === 'tiers' && route.method !== 'GET' && route.api !== 'edge' && !READ_ONLY_ROUTES.has(route.id)
  );
}

/**
 * Writes the audit log. The binder runs each audited call in one transaction: the record is
 * inserted first, the handler runs, the record is completed, and all of it commits together — a
 * change never commits without its record, and a call that fails leaves no change and a record of
 * its refusal (written after the rollback). The few calls that wait on the outside world
 * (`OUTSIDE_TRANSACTION_ROUTES` in bind-route.ts) write the record `pending` before the handler
 * and complete it after, so a process that dies in between leaves `pending`, never nothing.
 */
export class AuditService implements AuditHook {
  constructor(private readonly repo: AuditRepository) {}

  audits(route: AnyRoute): boolean {
    return isAudited(route);
  }

  /**
   * Inserts the record. `inTransaction`: the call runs in its own transaction (the binder's), so
   * the record notes the transaction and the row changes it makes are captured (`audit_row_changes`).
   */
  async begin(
    route: AnyRoute,
    caller: Caller,
    input: { params: unknown; body: unknown },
    request: FastifyRequest,
    inTransaction = false,
  ) {
    const txId = inTransaction ? await this.repo.captureRowChanges() : null;
    const chain = await this.repo.chainOf(caller.accountId);
    const real = caller.realAccountId ? await this.repo.accountName(caller.realAccountId) : null;
    const { auth: _tier, ...target } = (input.params ?? {}) as Record<string, unknown>;
    const id = await this.repo.insert({
      accountId: caller.accountId,
      accountName: caller.account.account,
      tier: caller.tier,
      realAccountId: caller.realAccountId ?? null,
      realAccountName: real,
      visibleTo: chain,
      action: route.id,
      method: route.method,
      url: request.url.split('?')[0] ?? '',
      target,
      changes: redactBody(input.body),
      ip: request.ip,
      reqId: request.id,
      txId,
    });
    return {
      finish: async (error: unknown, status: number) => {
        const code = error instanceof AppError ? error.code : error === null ? 0 : 101002;
        const answered =
          error === null ? status : error instanceof AppError ? (error.status ?? errorStatus(error.code)) : 500;
        await this.repo.complete(id, answered, isErrorCode(code) || code === 0 ? code : 101002);
      },
    };
  }

  async list(viewer: Caller, query: z.output<typeof auditQuery>) {
    const { rows, total } = await this.repo.list(viewer.accountId, query);
    const changes = await this.repo.rowChanges(rows.flatMap((row) => (row.txId === null ? [] : [row.txId])));
    const byTx = new Map<number, AuditRowChangeRow[]>();
    for (const change of changes) byTx.set(change.txId, [...(byTx.get(change.txId) ?? []), change]);
    return {
      data: rows.map((row) => presentAuditRecord(row, row.txId === null ? [] : (byTx.get(row.txId) ?? []))),
      total,
    };
  }
}
