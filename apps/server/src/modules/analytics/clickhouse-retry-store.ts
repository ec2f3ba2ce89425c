import type { ClickHouseIo } from './aggregate-clickhouse-store.js';
import type { EventRow, StoredBatch } from './analytics-store.js';

/**
 * The events of a batch cut short that are not in `events` yet (clickhouse-store.ts): what is there
 * is read by request id within the batch's sites, nodes and seconds (the primary key and the day
 * partitions bound the read), and taken off as a multiset (a request id twice in a batch is stored
 * twice). On a cluster the read goes through the Distributed table: every shard's part of the batch.
 */
export async function eventsNotYetStored(io: ClickHouseIo, batch: StoredBatch, key: string): Promise<EventRow[]> {
  if (batch.events.length === 0) return [];
  const sites = [...new Set(batch.events.map((e) => e.siteId))];
  const nodes = [...new Set(batch.events.map((e) => e.nodeId))];
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const e of batch.events) {
    from = Math.min(from, e.ts);
    to = Math.max(to, e.ts);
  }
  const stored = await io.select(
    `SELECT request_id, batch_id FROM events WHERE site_id IN (${sites.join(', ')}) AND node_id IN (${nodes.join(', ')}) ` +
      `AND ts >= ${from} AND ts <= ${to} AND halfMD5(batch_id) = ${key}`,
  );
  const count = new Map<string, number>();
  for (const r of stored) {
    if (r.batch_id !== batch.batchId) continue;
    const id = String(r.request_id);
    count.set(id, (count.get(id) ?? 0) + 1);
  }
  return batch.events.filter((e) => {
    const n = count.get(e.requestId) ?? 0;
    if (n === 0) return true;
    count.set(e.requestId, n - 1);
    return false;
  });
}
