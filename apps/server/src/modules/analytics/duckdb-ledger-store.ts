import type { DuckDBConnection } from '@duckdb/node-api';
import type { IngestResult } from './analytics-store.js';

/**
 * The DuckDB store's ledgers of batches taken (`batches` of the events, `agg_batches` of the
 * nodes' aggregates: batch_id, node_id, received_at, dropped, records, ingested_at), one way for
 * both: which of a group's batches are taken already, and their rows once written.
 */

interface Ledgered {
  readonly batchId: string;
  readonly nodeId: number;
  readonly receivedAt: number;
  readonly dropped: number;
}

/**
 * The group's batches in `table` already, or twice in the group (the second), answered as
 * duplicates; the others answered `stored` (`records` of each) and returned as `fresh`, in order.
 */
export async function ledgerCheck<B extends Ledgered>(
  db: DuckDBConnection,
  table: 'batches' | 'agg_batches',
  batches: readonly B[],
  records: (batch: B) => number,
): Promise<{ results: IngestResult[]; fresh: B[] }> {
  const ids = [...new Set(batches.map((b) => b.batchId))];
  const taken = new Set(
    (
      await db.runAndReadAll(
        `SELECT batch_id FROM ${table} WHERE batch_id IN (${ids.map((_, i) => `$${i + 1}`).join(', ')})`,
        ids,
      )
    )
      .getRows()
      .map(([id]) => String(id)),
  );
  const results: IngestResult[] = [];
  const fresh: B[] = [];
  for (const batch of batches) {
    const seen = taken.has(batch.batchId);
    taken.add(batch.batchId);
    results.push(seen ? { stored: 0, duplicate: true } : { stored: records(batch), duplicate: false });
    if (!seen) fresh.push(batch);
  }
  return { results, fresh };
}

/**
 * The ledger rows of the batches written, stamped now (unix ms, just before the commit: writes are
 * serialised, so a later stamp commits later; log push reads in that order).
 */
export async function appendLedger<B extends Ledgered>(
  db: DuckDBConnection,
  table: 'batches' | 'agg_batches',
  batches: readonly B[],
  records: (batch: B) => number,
): Promise<void> {
  const ingestedAt = BigInt(Date.now());
  const ledger = await db.createAppender(table);
  for (const b of batches) {
    ledger.appendVarchar(b.batchId);
    ledger.appendInteger(b.nodeId);
    ledger.appendBigInt(BigInt(b.receivedAt));
    ledger.appendBigInt(BigInt(b.dropped));
    ledger.appendInteger(records(b));
    ledger.appendBigInt(ingestedAt);
    ledger.endRow();
  }
  ledger.closeSync();
}
