import {
  type AggregateBatch,
  decodeAggregateBatch,
  LOW_DIM_NAMES,
  type ShippedAggregateBatch,
} from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors/app-error.js';
import { highRowsOf, sketchRowOf } from './aggregate-sketch-rows.js';
import type { AnalyticsRepository } from './analytics.repository.js';
import type {
  AggregateCounterRow,
  AggregateDimRow,
  AggregateHighRow,
  AggregateSketchRow,
  AnalyticsStore,
  CollapsedRow,
  IngestResult,
} from './analytics-store.js';
import { eventRowOf, type IngestService } from './ingest.service.js';

/**
 * Takes the nodes' aggregate batches (contract routes/analytics-aggregates.ts) into the analytics
 * store: each minute record is placed as an event is (ingest.service.ts) — its domain's site when
 * that site is the node's operator's, else no site (site and domain 0: a node cannot put numbers
 * into a site it does not serve); the node's zone — and the batch is merged into the rollups
 * exactly once (the store's ledger `agg_batches`, keyed by node and the node's batch id), with its
 * refused floods collapsed for the logs (placed so too, their sample located as an event).
 */
export class AggregateIngestService {
  constructor(
    private readonly store: Pick<AnalyticsStore, 'ingestAggregates'>,
    private readonly repo: AnalyticsRepository,
    /** The event ingest, for its domain places (one cache for both). */
    private readonly events: Pick<IngestService, 'placesOf' | 'locatorOf'>,
    private readonly clock: Clock,
  ) {}

  /** A batch as shipped: its compact form (decoded here; the node API checked it) or the object form of older agents. */
  /** `signal`: the request's (its sender gone, a batch still waiting is not written). */
  async ingest(nodeId: number, shipped: ShippedAggregateBatch, signal?: AbortSignal): Promise<IngestResult> {
    const batch = 'format' in shipped ? decodeAggregateBatch(shipped) : shipped;
    if (batch === null) throw new AppError(101003);
    return this.ingestBatch(nodeId, batch, signal);
  }

  private async ingestBatch(nodeId: number, batch: AggregateBatch, signal?: AbortSignal): Promise<IngestResult> {
    const node = await this.repo.nodePlace(nodeId);
    // The authenticator found the node a moment ago; it may have been deleted since.
    if (!node) throw new AppError(101013);
    const places = await this.events.placesOf(batch.minutes);
    const lowDims: AggregateDimRow[] = [];
    const highDims: AggregateHighRow[] = [];
    const sketches: AggregateSketchRow[] = [];
    const counters: AggregateCounterRow[] = batch.minutes.map((m) => {
      const place = m.domainId === 0 ? null : (places.get(m.domainId) ?? null);
      const owned = place !== null && place.ownerId === node.ownerId;
      const at = {
        minute: m.minute / 1000,
        siteId: owned ? place.siteId : 0,
        domainId: owned ? m.domainId : 0,
        zoneId: node.zoneId,
      };
      // Rows of one literal shape each (no spread): a node-minute is ~150,000 low and ~430,000 high rows.
      for (const dim of LOW_DIM_NAMES) {
        for (const entry of m.low[dim]) {
          lowDims.push({
            minute: at.minute,
            siteId: at.siteId,
            domainId: at.domainId,
            zoneId: at.zoneId,
            dim,
            value: entry[0],
            counts: [entry[1], entry[2], entry[3], entry[4], entry[5]],
          });
        }
      }
      highRowsOf(m, at, highDims);
      sketches.push(sketchRowOf(m, at));
      return { ...at, counters: m.counters };
    });
    // A batch id is the node's own: two nodes cannot take each other's ledger entries.
    const batchId = `${nodeId}-${batch.batchId}`;
    const collapsedPlaces = await this.events.placesOf(batch.collapsed);
    const locate = batch.collapsed.length > 0 ? await this.events.locatorOf(node.ownerId) : null;
    const collapsed: CollapsedRow[] = batch.collapsed.map((c) => {
      const place = c.domainId === 0 ? null : (collapsedPlaces.get(c.domainId) ?? null);
      const owned = place !== null && place.ownerId === node.ownerId;
      const at = {
        nodeId,
        zoneId: node.zoneId,
        siteId: owned ? place.siteId : 0,
        domainId: owned ? c.domainId : 0,
        batchId,
        counted: 0,
      };
      // The record's own decision and address (the sample's may be a tally's made-up request),
      // then the record's own fields on the fresh row (no copies of these ~40-field objects: a
      // node-minute of a flood is ~30,000 records).
      const row = eventRowOf(
        c.sample,
        at,
        (locate as NonNullable<typeof locate>)(c.ip || c.sample.ip),
        c,
      ) as CollapsedRow;
      row.ts = Math.floor(c.last / 1000);
      row.ms = c.last % 1000;
      row.bytesIn = c.bytesIn;
      row.bytesOut = c.bytesOut;
      row.minute = c.minute / 1000;
      row.count = c.count;
      row.firstMs = c.first;
      row.lastMs = c.last;
      return row;
    });
    return this.store.ingestAggregates(
      {
        batchId,
        nodeId,
        receivedAt: Math.floor(this.clock() / 1000),
        dropped: batch.dropped,
        counters,
        lowDims,
        highDims,
        sketches,
        collapsed,
      },
      signal,
    );
  }
}
