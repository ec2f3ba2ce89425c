import {
  LOG_TABLES,
  type LogExportSetting,
  type LogPart,
  type LogPartRef,
  type LogPartsQuery,
  type LogRetention,
  logExportSettingSchema,
  logRetentionSchema,
} from '@rampart/contract';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { ClientCaller } from '../../platform/http/bind-route.js';
import type { SettingsRepository } from '../../platform/settings/settings.repository.js';
import { DEFAULT_RETENTION } from './analytics.job.js';
import type { AnalyticsStore } from './analytics-store.js';

/** Where the retention is kept in the installation's settings. */
const KEY = 'analyticsRetention';
/** Where the log export files' retention and space are kept. */
const EXPORT_KEY = 'logExportFiles';
const MIB = 1024 * 1024;

/** What the log export job keeps files by: days and bytes. */
export interface LogExportLimitsInForce {
  retentionDays: number;
  maxBytes: number;
}

const tableOrder = (part: LogPart) => LOG_TABLES.indexOf(part.table);
const partKey = (p: LogPartRef) => `${p.table}/${p.part}`;

/**
 * The log setting (contract routes/log-settings.ts; docs/decisions.md "The log setting"): the
 * retention the analytics job prunes by, and the store's parts listed and deleted by hand. The
 * store holds every operator's traffic, so only the installation's operator (the first one, the
 * seeded `client`) and its sub-accounts reach it; another operator is answered 101018.
 */
export class LogSettingsService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly store: AnalyticsStore,
    /** The installation's operator: the first operator account. */
    private readonly installationOperator: () => Promise<number | undefined>,
    /** The install's export limits (config), in force until the operator sets them. */
    private readonly exportDefaults: LogExportLimitsInForce,
    /** Applies new export limits to the files already written (their expiry, the space bound). */
    private readonly onExportLimits: (limits: LogExportLimitsInForce) => Promise<void>,
  ) {}

  private async checkCaller(caller: ClientCaller): Promise<void> {
    if (caller.operatorId !== (await this.installationOperator())) {
      throw new AppError(101018, { extra: { reason: "the analytics store is the installation's operator's" } });
    }
  }

  /** The stored retention; none stored, or one that no longer fits the contract, reads as the defaults. */
  async retention(): Promise<LogRetention> {
    const stored = logRetentionSchema.safeParse(await this.settings.get(KEY));
    return stored.success ? stored.data : DEFAULT_RETENTION;
  }

  async get(caller: ClientCaller): Promise<LogRetention> {
    await this.checkCaller(caller);
    return this.retention();
  }

  /** Stores the retention; the analytics job prunes by it from its next run. */
  async put(caller: ClientCaller, retention: LogRetention): Promise<LogRetention> {
    await this.checkCaller(caller);
    const value = { rawRetentionDays: retention.rawRetentionDays, rollupRetentionDays: retention.rollupRetentionDays };
    await this.settings.put(KEY, value);
    return value;
  }

  /** The export limits in force: the operator's, else the install's defaults (bytes exactly as configured). */
  async exportLimits(): Promise<LogExportLimitsInForce> {
    const stored = logExportSettingSchema.safeParse(await this.settings.get(EXPORT_KEY));
    if (!stored.success) return this.exportDefaults;
    return { retentionDays: stored.data.retentionDays, maxBytes: stored.data.spaceMB * MIB };
  }

  async getExport(caller: ClientCaller): Promise<LogExportSetting> {
    await this.checkCaller(caller);
    const { retentionDays, maxBytes } = await this.exportLimits();
    return { retentionDays, spaceMB: Math.max(1, Math.ceil(maxBytes / MIB)) };
  }

  /** Stores the export limits and applies them at once: finished files' expiry moves, the space bound holds. */
  async putExport(caller: ClientCaller, setting: LogExportSetting): Promise<LogExportSetting> {
    await this.checkCaller(caller);
    const value = { retentionDays: setting.retentionDays, spaceMB: setting.spaceMB };
    await this.settings.put(EXPORT_KEY, value);
    await this.onExportLimits({ retentionDays: value.retentionDays, maxBytes: value.spaceMB * MIB });
    return value;
  }

  /** The store's parts, newest day first and in LOG_TABLES order within a day, paged here (a few thousand at most). */
  async parts(caller: ClientCaller, query: LogPartsQuery): Promise<{ data: LogPart[]; total: number }> {
    await this.checkCaller(caller);
    const all = (await this.store.parts())
      .filter((p) => query.table === undefined || p.table === query.table)
      .sort((a, b) => (a.part === b.part ? tableOrder(a) - tableOrder(b) : a.part < b.part ? 1 : -1));
    const from = (query.page - 1) * query.pageSize;
    return { data: all.slice(from, from + query.pageSize), total: all.length };
  }

  /**
   * Deletes the parts' rows. Every part must be stored (101018 and nothing deleted otherwise), so a
   * stale list cannot be mistaken for a deletion. A rollup part deleted takes that day out of the
   * statistics read from that table; an events part leaves the statistics as they are.
   */
  async drop(caller: ClientCaller, items: readonly LogPartRef[]): Promise<void> {
    await this.checkCaller(caller);
    const stored = new Set((await this.store.parts()).map(partKey));
    requireEvery(
      items.filter((item) => stored.has(partKey(item))),
      items,
      'not every part is stored',
    );
    await this.store.dropParts(items);
  }
}
