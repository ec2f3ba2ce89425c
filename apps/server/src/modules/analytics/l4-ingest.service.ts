import type { L4CounterBatch } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { AnalyticsRepository } from './analytics.repository.js';
import type { AnalyticsStore, IngestResult, L4CounterRow } from './analytics-store.js';

/**
 * Takes the nodes' layer-4 counter batches (contract routes/l4-counters.ts) into the analytics
 * store (docs/decisions.md "Layer-4 counters"). The control plane places every record itself: a
 * port id belongs to the site that owns the port when that site is the node's operator's, else the
 * record belongs to no site (site 0, as an event of a domain the node does not serve); the node's
 * own counts (port 0: ICMP, GRE) belong to no site either. A source address record is stored with
 * two more rows, both looked up in the databases of the node's operator (never another's): its
 * country, from the geo database as the access events get theirs, and its ASN as a decimal number,
 * from the ASN database (docs/decisions.md "ASN database") — "0" when the operator has none or it
 * does not know the address. Both lookups are remembered per address (GeoDatabaseService).
 */
export class L4IngestService {
  constructor(
    private readonly store: AnalyticsStore,
    private readonly repo: AnalyticsRepository,
    private readonly locator: (operatorId: number) => Promise<(ip: string) => { country: string; city: number }>,
    private readonly asnLocator: (operatorId: number) => Promise<(ip: string) => string>,
    private readonly clock: Clock,
  ) {}

  async ingest(nodeId: number, batch: L4CounterBatch): Promise<IngestResult> {
    const node = await this.repo.nodePlace(nodeId);
    if (!node) throw new AppError(101013);
    const portIds = [...new Set(batch.records.map((r) => r.portId).filter((id) => id > 0))];
    const sites = new Map<number, number>();
    for (const p of await this.repo.portPlaces(portIds)) if (p.ownerId === node.ownerId) sites.set(p.portId, p.siteId);
    const locate = await this.locator(node.ownerId);
    const asnOf = await this.asnLocator(node.ownerId);
    const rows: L4CounterRow[] = [];
    for (const r of batch.records) {
      const siteId = sites.get(r.portId) ?? 0;
      const row = {
        bucket: r.minute,
        nodeId,
        siteId,
        portId: r.portId,
        outcome: r.outcome,
        packets: r.packets,
        bytes: r.bytes,
      };
      rows.push({ ...row, dim: r.dimension, value: r.key });
      if (r.dimension === 'source') {
        rows.push({ ...row, dim: 'country', value: locate(r.key).country });
        rows.push({ ...row, dim: 'asn', value: asnOf(r.key) });
      }
    }
    const result = await this.store.ingestL4({
      batchId: `${nodeId}-${batch.batchId}`,
      nodeId,
      receivedAt: Math.floor(this.clock() / 1000),
      rows,
    });
    // The node counts records, not the rows a source record became.
    return result.stored > 0 ? { stored: batch.records.length, duplicate: false } : result;
  }
}
