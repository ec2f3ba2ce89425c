import {
  LOG_EXPORT_ACTIVE_MAX,
  type LogExport,
  type LogExportCreate,
  type LogExportFilter,
  type LogExportType,
} from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import type { AccountRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Caller } from '../../platform/http/bind-route.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { LogExportFiles } from './log-export-files.js';
import { exportContentType, exportFileName, presentLogExport } from './log-exports.presenter.js';
import type { LogExportRow, LogExportSort, LogExportsRepository } from './log-exports.repository.js';

/** What a create reads of the caller: the account it acts for and that account's daily quota. */
export type CreatingCaller = Pick<Caller, 'accountId'> & { account: Pick<AccountRow, 'maxLogExportTimes'> };

/**
 * Log export files (routes/log-exports.ts; docs/decisions.md "Log export files"): the calls, each
 * on the caller's own exports only (another account's id is 101018, as an unknown one, before
 * anything else is looked at). The job (log-exports.job.ts) writes what these queue.
 */
export class LogExportsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly exports: LogExportsRepository,
    private readonly files: LogExportFiles,
    private readonly clock: Clock,
  ) {}

  /**
   * Queues an export. Both quotas are checked in the transaction that inserts it: the day's count
   * row is taken first (locked, so an account's creates are counted one after another), then the
   * exports queued or running.
   */
  create(caller: CreatingCaller, input: LogExportCreate): Promise<LogExport> {
    const owner = { accountId: caller.accountId, maxLogExportTimes: caller.account.maxLogExportTimes };
    const { type, format, gzip, ...rest } = input;
    const filter: LogExportFilter = type === 'waf' ? rest : { ...rest, ruleId: undefined, action: undefined };
    return this.transactions.run(async () => {
      const day = new Date(this.clock()).toISOString().slice(0, 10);
      const today = await this.exports.countDay(owner.accountId, day);
      if ((await this.exports.activeCount(owner.accountId)) >= LOG_EXPORT_ACTIVE_MAX) {
        throw new AppError(601001, { params: { num: LOG_EXPORT_ACTIVE_MAX }, extra: { num: LOG_EXPORT_ACTIVE_MAX } });
      }
      if (today > owner.maxLogExportTimes) {
        const num = owner.maxLogExportTimes;
        throw new AppError(601002, { params: { num }, extra: { num } });
      }
      const row = await this.exports.insert({
        accountId: owner.accountId,
        type,
        format,
        gzip,
        filter: JSON.parse(JSON.stringify(filter)) as LogExportFilter,
        fileName: exportFileName(type, filter.startTime, filter.endTime, format, gzip),
        createdAt: new Date(this.clock()),
      });
      return presentLogExport(row);
    });
  }

  async list(
    accountId: number,
    query: { page: number; pageSize: number; sortBy: LogExportSort; orderBy: 'asc' | 'desc'; type?: LogExportType },
  ) {
    const { rows, total } = await this.exports.page(accountId, query);
    return { data: rows.map(presentLogExport), total };
  }

  async get(accountId: number, id: number): Promise<LogExport> {
    return presentLogExport(await this.own(accountId, id));
  }

  /** A finished export's file as a stream, with its name and content type. */
  async download(accountId: number, id: number) {
    const row = await this.own(accountId, id);
    if (row.status !== 'done') throw invalidFields([{ in: 'params', field: 'id', key: 'exportNotReady' }]);
    const stream = await this.files.open(row.id);
    // A file removed under the row (expired a moment ago) is the same "not ready" answer.
    if (!stream) throw invalidFields([{ in: 'params', field: 'id', key: 'exportNotReady' }]);
    return {
      stream,
      fileName: row.fileName,
      contentType: exportContentType(row.format, row.gzip),
      bytes: row.bytes,
    };
  }

  /** Deletes exports and their files, all or none; a running one stops at its next chunk. */
  async delete(accountId: number, ids: number[]): Promise<void> {
    await this.transactions.run(async () => {
      await this.ownAll(accountId, ids);
      await this.exports.delete(ids);
    });
    for (const id of ids) await this.files.remove(id);
  }

  /**
   * Queues the failed exports among `ids` again (the others are left as they are). A retry is the
   * same export: it does not count against the day, but it does against the exports queued or
   * running (601001).
   */
  retry(accountId: number, ids: number[]): Promise<LogExport[]> {
    return this.transactions.run(async () => {
      const rows = await this.ownAll(accountId, ids);
      const failed = rows.filter((r) => r.status === 'failed').map((r) => r.id);
      if (failed.length === 0) return [];
      const active = await this.exports.activeCount(accountId);
      if (active + failed.length > LOG_EXPORT_ACTIVE_MAX) {
        throw new AppError(601001, { params: { num: LOG_EXPORT_ACTIVE_MAX }, extra: { num: LOG_EXPORT_ACTIVE_MAX } });
      }
      const queued = await this.exports.requeue(failed, 'failed');
      return queued.sort((a, b) => a.id - b.id).map(presentLogExport);
    });
  }

  private async own(accountId: number, id: number): Promise<LogExportRow> {
    const row = await this.exports.find(id);
    if (!row || row.accountId !== accountId) throw new AppError(101018);
    return row;
  }

  /** Every id is the account's (101018 otherwise, naming none). */
  private async ownAll(accountId: number, ids: number[]): Promise<LogExportRow[]> {
    const rows = await this.exports.owned(accountId, ids);
    if (rows.length !== new Set(ids).size) throw new AppError(101018);
    return rows;
  }
}
