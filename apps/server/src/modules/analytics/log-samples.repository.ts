import { and, asc, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { logSamples } from '../../platform/db/schema.js';

/** A sampled minute of a site: how many passed requests arrived and how many were kept for the logs. */
export interface LogSampleRow {
  siteId: number;
  /** The minute's start, unix seconds. */
  minute: number;
  seen: number;
  kept: number;
}

/**
 * The sampled minutes of the sites' logs (schema `log_samples`; log-sampler.ts writes them, the log
 * search reads them). Every read is limited to the caller's sites.
 */
export class LogSamplesRepository {
  constructor(private readonly db: Db) {}

  /** Adds a stored batch's sampled counts to their minutes (several control planes sum theirs). */
  async add(rows: readonly LogSampleRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insert(logSamples)
      .values([...rows])
      .onConflictDoUpdate({
        target: [logSamples.siteId, logSamples.minute],
        set: { seen: sql`${logSamples.seen} + excluded.seen`, kept: sql`${logSamples.kept} + excluded.kept` },
      });
  }

  /** The sampled minutes of these sites from `start` (unix seconds, a minute's start) to `end`, by site and minute. */
  async inRange(siteIds: readonly number[], start: number, end: number): Promise<LogSampleRow[]> {
    if (siteIds.length === 0) return [];
    return this.db
      .select({ siteId: logSamples.siteId, minute: logSamples.minute, seen: logSamples.seen, kept: logSamples.kept })
      .from(logSamples)
      .where(and(inArray(logSamples.siteId, [...siteIds]), gte(logSamples.minute, start), lt(logSamples.minute, end)))
      .orderBy(asc(logSamples.siteId), asc(logSamples.minute));
  }

  /** Deletes the minutes before `before` (unix seconds): the raw events' retention. */
  async prune(before: number): Promise<void> {
    await this.db.delete(logSamples).where(lt(logSamples.minute, before));
  }
}
