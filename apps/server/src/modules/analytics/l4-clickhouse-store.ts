import { addByDay, type ClickHouseIo, insertByDay, sitePart, storedParts } from './aggregate-clickhouse-store.js';
import type { IngestResult, StoredL4Batch } from './analytics-store.js';

/**
 * A layer-4 counter batch into the ClickHouse store exactly once without a transaction (`key`: its
 * batch id's batchKey): taken when its ledger row is there; otherwise its rows go in with one
 * INSERT per UTC day (one part per server: all or nothing there) except those of the parts (site
 * and day) an attempt cut short left there already (looked up by the batch's key within its
 * minutes; on a cluster a site's rows are on one shard, clickhouse-layout-store.ts), then the
 * ledger row.
 */
export async function ingestL4ClickHouse(io: ClickHouseIo, batch: StoredL4Batch, key: string): Promise<IngestResult> {
  for (const n of [batch.nodeId, batch.receivedAt]) {
    if (!Number.isSafeInteger(n)) throw new Error('ingest: node and time must be integers');
  }
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const r of batch.rows) {
    for (const n of [r.bucket, r.siteId, r.nodeId, r.portId, r.packets, r.bytes]) {
      if (!Number.isSafeInteger(n)) throw new Error('ingest: counter rows hold integers');
    }
    from = Math.min(from, r.bucket);
    to = Math.max(to, r.bucket);
  }
  const taken = await io.select(`SELECT batch_id FROM l4_batches WHERE batch_key = ${key}`);
  if (taken.some((r) => r.batch_id === batch.batchId)) return { stored: 0, duplicate: true };
  const there = batch.rows.length > 0 ? await storedParts(io, 'l4_counters', 'bucket', from, to, key) : new Set();
  const rows = batch.rows.filter((r) => !there.has(sitePart(r.siteId, r.bucket)));
  const byDay = new Map<number, string[]>();
  for (const r of rows)
    addByDay(
      byDay,
      r.bucket,
      JSON.stringify({
        bucket: r.bucket,
        site_id: r.siteId,
        node_id: r.nodeId,
        port_id: r.portId,
        outcome: r.outcome,
        dim: r.dim,
        value: r.value,
        packets: r.packets,
        bytes: r.bytes,
        batch_key: key,
      }),
    );
  await insertByDay(io, 'l4_counters', byDay);
  await io.insert('l4_batches', [
    JSON.stringify({
      batch_key: key,
      batch_id: batch.batchId,
      node_id: batch.nodeId,
      received_at: batch.receivedAt,
      records: batch.rows.length,
    }),
  ]);
  return { stored: rows.length, duplicate: false };
}
