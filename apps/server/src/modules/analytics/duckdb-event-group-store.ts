import type { DuckDBConnection } from '@duckdb/node-api';
import type { IngestResult, StoredBatch } from './analytics-store.js';
import { appendEvent } from './duckdb-events.js';
import { appendLedger, ledgerCheck } from './duckdb-ledger-store.js';
import { FROM_STAGING, LATE_DIMS } from './duckdb-rollup-store.js';
import { DUCKDB_DIALECT } from './duckdb-schema-store.js';
import { SITE_IP_DECISIONS, SITE_IP_ROWS } from './duckdb-site-ips-store.js';

/** The store's marks a group of events is written against (duckdb-store.ts). */
export interface EventGroupMarks {
  /** The dimension tables hold the events before this (the store's dimsRolledTo). */
  readonly rolledTo: number;
  /** siteips holds the hours before this (0: nothing), its masks the days from `siteIpsFrom`. */
  readonly siteIpsTo: number;
  readonly siteIpsFrom: number;
  /** Hour and day buckets given late partial dimension rows, added to once the group is written. */
  readonly lateHours: Set<number>;
  readonly lateDays: Set<number>;
}

/**
 * One transaction: the group's batches not in the ledger yet (a batch sent twice, even within the
 * group, is stored once), their events, their rollups and their ledger rows — all or nothing.
 */
export async function writeEventGroup(
  db: DuckDBConnection,
  batches: readonly StoredBatch[],
  marks: EventGroupMarks,
): Promise<{ results: IngestResult[]; siteIpsPartial: boolean }> {
  await db.run('BEGIN TRANSACTION');
  try {
    // The ledger's entries of the group's batch ids, in one statement.
    const { results, fresh } = await ledgerCheck(db, 'batches', batches, (b) => b.events.length);
    if (fresh.length === 0) {
      await db.run('ROLLBACK');
      return { results, siteIpsPartial: false };
    }
    const staging = await db.createAppender('ingest_staging', null, 'temp');
    let first = Number.MAX_SAFE_INTEGER;
    for (const batch of fresh) {
      for (const e of batch.events) {
        appendEvent(staging, e);
        if (e.ts < first) first = e.ts;
      }
    }
    staging.closeSync();
    // Events of hours whose dimensions are built already (a node that was away, a clock behind).
    const hours = marks.rolledTo;
    const days = hours - (hours % 86_400);
    const late = first < hours;
    const statements: string[] = [];
    if (late) {
      statements.push(...LATE_DIMS(hours, first < days ? days : 0));
      // Their addresses as partial rows of siteips (of the days its masks hold), merged in compact.
      if (marks.siteIpsTo > 0 && first < marks.siteIpsTo) {
        const ips = `(SELECT site_id, ip AS value, ${DUCKDB_DIALECT.ip4?.of('ip')} AS ip4, ts AS bucket, 1 AS requests, ${SITE_IP_DECISIONS.join(', ')},
          bytes_out FROM ingest_staging WHERE counted = 1 AND ts < ${marks.siteIpsTo} AND ts >= ${marks.siteIpsFrom})`;
        statements.push(
          `INSERT INTO siteips ${SITE_IP_ROWS(ips)}`,
          `INSERT OR REPLACE INTO rolled VALUES ('siteips', 1)`,
        );
      }
    }
    // One call for all of them (no value in them but integers checked here).
    await db.run([...statements, ...FROM_STAGING].join(';\n'));
    await appendLedger(db, 'batches', fresh, (b) => b.events.length);
    await db.run('COMMIT');
    let siteIpsPartial = false;
    if (late) {
      siteIpsPartial = marks.siteIpsTo > 0 && first < marks.siteIpsTo;
      for (const batch of fresh) {
        for (const e of batch.events) {
          if (e.ts >= hours) continue;
          marks.lateHours.add(e.ts - (e.ts % 3600));
          if (e.ts < days) marks.lateDays.add(e.ts - (e.ts % 86_400));
        }
      }
    }
    return { results, siteIpsPartial };
  } catch (error) {
    await db.run('ROLLBACK').catch(() => {});
    // The staging table is temporary and emptied in the transaction; a rollback empties it too.
    throw error;
  }
}
