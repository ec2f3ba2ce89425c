import { type EdgeEvent, type EdgeEventBatch, eventFlags, pathOf } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { AnalyticsRepository, DomainPlace } from './analytics.repository.js';
import type { AnalyticsStore, EventRow, IngestResult } from './analytics-store.js';
import { type LogSampler, sampleRows } from './log-sampler.js';
import type { LogSamplesRepository } from './log-samples.repository.js';

/** How long a domain's place (site, owner) is remembered between batches. */
const PLACE_TTL_MS = 60_000;

/**
 * Takes the nodes' event batches (routes/analytics-events.ts) into the analytics store: each event
 * is placed (its domain's site, the node's zone) and located (country and city from the node
 * operator's geo database), then the batch is stored exactly once. An event naming a domain of
 * another operator's site, or one that no longer exists, is kept for the node but belongs to no
 * site (site 0): a node cannot put numbers into a site it does not serve.
 */
/** A batch taken in (its events, the events its node dropped, its oldest event's unix second) or refused. */
export type IngestOutcome = { events: number; dropped: number; oldestSeconds: number | null } | 'failed';

export class IngestService {
  private readonly places = new Map<number, { place: DomainPlace | null; until: number }>();

  constructor(
    /** Only its ingest: the bench's raw floor hands a plain events table in its place. */
    private readonly store: Pick<AnalyticsStore, 'ingest'>,
    private readonly repo: AnalyticsRepository,
    private readonly locator: (operatorId: number) => Promise<(ip: string) => { country: string; city: number }>,
    private readonly clock: Clock,
    /** Told of each batch taken in or refused (the control plane's metrics). */
    private readonly onBatch: (outcome: IngestOutcome) => void = () => {},
    /**
     * Log sampling beyond the log store's capacity (log-sampler.ts), of the batches that feed the
     * logs only; absent (the benches): every event kept.
     */
    private readonly logs?: { sampler: LogSampler; samples: Pick<LogSamplesRepository, 'add'> },
  ) {}

  /** The geo lookup of a node's operator (the aggregates' ingest locates its collapsed samples with it). */
  locatorOf(operatorId: number): Promise<(ip: string) => { country: string; city: number }> {
    return this.locator(operatorId);
  }

  /** Where each domain is (null: gone), remembered PLACE_TTL_MS; the aggregates' ingest places with it too. */
  async placesOf(events: readonly Pick<EdgeEvent, 'domainId'>[]): Promise<Map<number, DomainPlace | null>> {
    const now = this.clock();
    const out = new Map<number, DomainPlace | null>();
    const missing = new Set<number>();
    for (const e of events) {
      if (e.domainId === 0 || out.has(e.domainId)) continue;
      const hit = this.places.get(e.domainId);
      if (hit && hit.until > now) out.set(e.domainId, hit.place);
      else missing.add(e.domainId);
    }
    if (missing.size > 0) {
      const found = new Map((await this.repo.domainPlaces([...missing])).map((p) => [p.domainId, p]));
      if (this.places.size > 200_000) this.places.clear();
      for (const id of missing) {
        const place = found.get(id) ?? null;
        this.places.set(id, { place, until: now + PLACE_TTL_MS });
        out.set(id, place);
      }
    }
    return out;
  }

  async ingest(nodeId: number, batch: EdgeEventBatch): Promise<IngestResult> {
    const node = await this.repo.nodePlace(nodeId);
    // The authenticator found the node a moment ago; it may have been deleted since.
    if (!node) throw new AppError(101013);
    const places = await this.placesOf(batch.events);
    // A batch id is the node's own: two nodes cannot take each other's ledger entries.
    const batchId = `${nodeId}-${batch.batchId}`;
    const locate = await this.locator(node.ownerId);
    // An agent that ships aggregates marks its batches: their events feed the logs only.
    const counted = batch.statistics === false ? 0 : 1;
    const rows: EventRow[] = batch.events.map((e) => {
      const place = e.domainId === 0 ? null : (places.get(e.domainId) ?? null);
      const owned = place !== null && place.ownerId === node.ownerId;
      const at: EventPlace = {
        nodeId,
        zoneId: node.zoneId,
        siteId: owned ? place.siteId : 0,
        domainId: owned ? e.domainId : 0,
        batchId,
        counted,
      };
      return eventRowOf(e, at, locate(e.ip));
    });
    // Statistics never depend on the sampling: only batches whose statistics came as aggregates are sampled.
    const sampled = this.logs && counted === 0 ? sampleRows(this.logs.sampler, rows) : { kept: rows, samples: [] };
    try {
      const result = await this.store.ingest({
        batchId,
        nodeId,
        // The spool dropped its events just before these: they count at the batch's first event.
        receivedAt: rows.reduce((min, r) => Math.min(min, r.ts), Math.floor(this.clock() / 1000)),
        dropped: batch.dropped,
        events: sampled.kept,
      });
      // A batch sent again (its acknowledgement lost) was counted the first time.
      if (!result.duplicate && sampled.samples.length > 0) await this.logs?.samples.add(sampled.samples);
      this.onBatch({
        events: rows.length,
        dropped: batch.dropped,
        oldestSeconds: rows.length === 0 ? null : rows.reduce((min, r) => Math.min(min, r.ts), rows[0]?.ts ?? 0),
      });
      return result;
    } catch (error) {
      this.onBatch('failed');
      throw error;
    }
  }
}

/** Where an event was stored: its node, zone, site and domain as placed, its batch, whether it counts. */
export interface EventPlace {
  nodeId: number;
  zoneId: number;
  siteId: number;
  domainId: number;
  batchId: string;
  counted: number;
}

/** An event's address and decision (a collapsed record's own, which its sample's may not be). */
type EventDecision = Pick<EdgeEvent, 'ip' | 'fwKind' | 'fwRule' | 'fwAction'>;

/**
 * A shipped event as the stores keep it, placed and located; `d`: its address and decision when
 * they are not the event's own (a collapsed record's sample: no copy of the sample made for them).
 */
export function eventRowOf(
  e: EdgeEvent,
  at: EventPlace,
  where: { country: string; city: number },
  d: EventDecision = e,
): EventRow {
  const { path, fileType } = pathOf(e.path);
  const flags = eventFlags(e.cacheStatus, d.fwKind, d.fwAction);
  return {
    ts: Math.floor(e.time / 1000),
    ms: e.time % 1000,
    nodeId: at.nodeId,
    zoneId: at.zoneId,
    siteId: at.siteId,
    domainId: at.domainId,
    requestId: e.id,
    batchId: at.batchId,
    ip: d.ip,
    country: where.country,
    city: where.city,
    method: e.method,
    scheme: e.scheme,
    httpVersion: e.httpVersion,
    host: e.host,
    uri: e.path,
    path,
    fileType,
    status: e.status,
    bytesIn: e.bytesIn,
    bytesOut: e.bytesOut,
    requestMs: e.requestMs,
    upstreamMs: e.upstreamMs,
    upstreamStatus: e.upstreamStatus,
    cacheStatus: e.cacheStatus,
    userAgent: e.userAgent,
    referer: e.referer,
    fwKind: d.fwKind,
    fwRule: d.fwRule,
    fwAction: d.fwAction,
    // An agent from before the WAF sends neither (the schema's default, skipped by the plain check).
    wafPart: e.wafPart ?? '',
    wafExcerpt: e.wafExcerpt ?? '',
    wafName: e.wafName ?? '',
    ...flags,
    counted: at.counted,
  };
}
