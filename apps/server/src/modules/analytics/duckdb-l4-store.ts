import type { DuckDBConnection } from '@duckdb/node-api';
import type { IngestResult, StoredL4Batch } from './analytics-store.js';

/**
 * A node's layer-4 counters batch into l4_counters (duckdb-store.ts, on its writer), once: with its
 * ledger row in l4_batches, in one transaction; a batch in the ledger already is a duplicate.
 */
export async function ingestL4DuckDb(db: DuckDBConnection, batch: StoredL4Batch): Promise<IngestResult> {
  await db.run('BEGIN TRANSACTION');
  try {
    if ((await db.runAndReadAll('SELECT 1 FROM l4_batches WHERE batch_id = $1', [batch.batchId])).currentRowCount > 0) {
      await db.run('ROLLBACK');
      return { stored: 0, duplicate: true };
    }
    const appender = await db.createAppender('l4_counters');
    for (const r of batch.rows) {
      appender.appendBigInt(BigInt(r.bucket));
      appender.appendInteger(r.siteId);
      appender.appendInteger(r.nodeId);
      appender.appendInteger(r.portId);
      appender.appendVarchar(r.outcome);
      appender.appendVarchar(r.dim);
      appender.appendVarchar(r.value);
      appender.appendBigInt(BigInt(r.packets));
      appender.appendBigInt(BigInt(r.bytes));
      appender.endRow();
    }
    appender.closeSync();
    await db.run('INSERT INTO l4_batches (batch_id, node_id, received_at, records) VALUES ($1, $2, $3, $4)', [
      batch.batchId,
      batch.nodeId,
      BigInt(batch.receivedAt),
      batch.rows.length,
    ]);
    await db.run('COMMIT');
    return { stored: batch.rows.length, duplicate: false };
  } catch (error) {
    await db.run('ROLLBACK').catch(() => {});
    throw error;
  }
}
