import type { DuckDBConnection } from '@duckdb/node-api';
import type { IngestResult, StoredAggregateBatch } from './analytics-store.js';
import { ROLLUP_COUNTERS } from './rollups.js';

/**
 * The DuckDB store's part of the nodes' aggregates (routes/analytics-aggregates.ts): a batch's
 * minute counters land in a temporary table, are summed into the time rollups as partial rows (as
 * a group of events is, duckdb-store.ts FROM_STAGING), and the batch goes into its ledger
 * `agg_batches`, all in one transaction on the writer connection: there whole or not at all, a
 * batch sent again found in the ledger.
 */

/** The ledger of aggregate batches taken (pruned with the events' ledger). */
export const AGGREGATE_DDL = [
  `CREATE TABLE IF NOT EXISTS agg_batches (batch_id VARCHAR PRIMARY KEY, node_id INTEGER NOT NULL,
     received_at BIGINT NOT NULL, dropped BIGINT NOT NULL, records INTEGER NOT NULL)`,
];

/** A batch's counters before they are summed (temporary: never in the write-ahead log). */
export const AGGREGATE_STAGING_DDL = `CREATE TEMP TABLE IF NOT EXISTS agg_staging (minute BIGINT NOT NULL,
  site_id INTEGER NOT NULL, domain_id INTEGER NOT NULL, zone_id INTEGER NOT NULL, ${ROLLUP_COUNTERS.map((c) => `${c} BIGINT NOT NULL`).join(', ')})`;

const SUMS = ROLLUP_COUNTERS.map((c) => `sum(${c})::BIGINT`).join(', ');
const ROLLUP_FROM_STAGING = (table: string, unit: number, site = false) =>
  `INSERT INTO ${table} SELECT (minute // ${unit}) * ${unit} AS b, site_id, ${site ? '0, 0' : 'domain_id, zone_id'}, ${SUMS}
   FROM agg_staging GROUP BY b, site_id${site ? '' : ', domain_id, zone_id'}`;
const FROM_STAGING = [
  ROLLUP_FROM_STAGING('rollup_1m', 60),
  ROLLUP_FROM_STAGING('rollup_5m', 300),
  ROLLUP_FROM_STAGING('rollup_1h', 3600),
  ROLLUP_FROM_STAGING('rollup_1d', 86_400),
  ROLLUP_FROM_STAGING('siterollup_5m', 300, true),
  'DELETE FROM agg_staging',
];

/** The ledger rows older than `before` (unix seconds), with the events' ledger. */
export const PRUNE_AGGREGATES = (before: number) => [`DELETE FROM agg_batches WHERE received_at < ${before}`];

/** Takes a batch once, on the writer connection (the store serialises the calls). */
export async function ingestAggregatesDuckDb(db: DuckDBConnection, batch: StoredAggregateBatch): Promise<IngestResult> {
  await db.run('BEGIN TRANSACTION');
  try {
    if (
      (await db.runAndReadAll('SELECT 1 FROM agg_batches WHERE batch_id = $1', [batch.batchId])).currentRowCount > 0
    ) {
      await db.run('ROLLBACK');
      return { stored: 0, duplicate: true };
    }
    if (batch.counters.length > 0) {
      const appender = await db.createAppender('agg_staging');
      for (const r of batch.counters) {
        appender.appendBigInt(BigInt(r.minute));
        appender.appendInteger(r.siteId);
        appender.appendInteger(r.domainId);
        appender.appendInteger(r.zoneId);
        for (let i = 0; i < ROLLUP_COUNTERS.length; i++) appender.appendBigInt(BigInt(r.counters[i] ?? 0));
        appender.endRow();
      }
      appender.closeSync();
      for (const statement of FROM_STAGING) await db.run(statement);
    }
    await db.run(
      'INSERT INTO agg_batches (batch_id, node_id, received_at, dropped, records) VALUES ($1, $2, $3, $4, $5)',
      [batch.batchId, batch.nodeId, BigInt(batch.receivedAt), BigInt(batch.dropped), batch.counters.length],
    );
    await db.run('COMMIT');
    return { stored: batch.counters.length, duplicate: false };
  } catch (error) {
    await db.run('ROLLBACK').catch(() => {});
    throw error;
  }
}
