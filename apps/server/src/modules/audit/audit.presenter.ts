import type { AuditRecord } from '@rampart/contract';
import type { AuditLogRow, AuditRowChangeRow } from './audit.repository.js';

/** An audit record as the API shows it, with the row changes its call made. */
export function presentAuditRecord(row: AuditLogRow, changes: AuditRowChangeRow[]): AuditRecord {
  return {
    id: row.id,
    accountID: row.accountId,
    accountName: row.accountName,
    tier: row.tier,
    realAccountID: row.realAccountId,
    realAccountName: row.realAccountName,
    action: row.action,
    method: row.method as AuditRecord['method'],
    url: row.url,
    target: row.target,
    changes: row.changes ?? null,
    rowChanges: changes.map((change) => ({
      table: change.tableName,
      op: change.op,
      id: change.rowId,
      before: change.before ?? null,
      after: change.after ?? null,
    })),
    ip: row.ip,
    reqID: row.reqId,
    status: row.status,
    code: row.code,
    pending: row.pending,
    createdAt: row.createdAt.toISOString(),
  };
}
