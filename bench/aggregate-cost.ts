/**
 * What one node's minute aggregates cost against today's per-event batches, over generated
 * traffic (see bench/aggregate.ts, which prints it; bench/ingest.ts reports it beside the control
 * plane's figures, measured in the same run).
 */
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import {
  AGGREGATE_TOP_K,
  type EdgeEvent,
  EVENT_BATCH_MAX,
  encodeAggregateBatch,
  MinuteAggregator,
  packAggregates,
} from '@rampart/contract';
import { generateTraffic } from '@rampart/contract/testing';

export interface AggregateCostOptions {
  /** Seconds of traffic (60: one UTC minute). */
  seconds: number;
  /** Browsing requests per second. */
  rps: number;
  /** Blacklisted flood requests per second (0: none). */
  floodRps: number;
  /** Domains, one per site. */
  sites: number;
  /** The heavy hitters' capacity. */
  topK?: number;
}

const CHUNK = 5;
const START = Date.UTC(2026, 10, 28, 12, 0);

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export function aggregateCost(o: AggregateCostOptions) {
  const { seconds: SECONDS, rps: RPS, floodRps: FLOOD_RPS, sites: SITES } = o;
  const TOP_K = o.topK ?? AGGREGATE_TOP_K;
  const aggregator = new MinuteAggregator({ topK: TOP_K });
  let events = 0;
  let aggregateCpu = 0;
  let aggregateWall = 0;
  let todayCpu = 0;
  let todayJson = 0;
  let todayGzip = 0;
  let todayBatches = 0;
  let carry: EdgeEvent[] = [];

  /** Today's shipping of a run of events: batches of EVENT_BATCH_MAX, JSON and gzip level 1. */
  const shipToday = (batch: EdgeEvent[]) => {
    const json = JSON.stringify({ batchId: `spool-${todayBatches + 1}`, dropped: 0, events: batch });
    todayJson += Buffer.byteLength(json);
    todayGzip += gzipSync(json, { level: 1 }).length;
    todayBatches++;
  };

  for (let s = 0; s < SECONDS; s += CHUNK) {
    const chunk = generateTraffic({
      seed: 1000 + s,
      start: START + s * 1000,
      seconds: Math.min(CHUNK, SECONDS - s),
      rps: RPS,
      domains: SITES,
      addresses: 200_000,
      // No disorder: a minute's records are then the minute's own (with it, a 60 s run also makes
      // records of the seconds just before and after it, which steady traffic would count there).
      jitterMs: 0,
      flood: FLOOD_RPS > 0 ? { domains: [3, 17, 250], addresses: 500, rps: FLOOD_RPS } : undefined,
    });
    events += chunk.length;
    let cpu = cpuMs();
    const wall = performance.now();
    for (const e of chunk) aggregator.add(e);
    aggregateCpu += cpuMs() - cpu;
    aggregateWall += performance.now() - wall;

    cpu = cpuMs();
    carry = carry.concat(chunk);
    while (carry.length >= EVENT_BATCH_MAX) {
      shipToday(carry.slice(0, EVENT_BATCH_MAX));
      carry = carry.slice(EVENT_BATCH_MAX);
    }
    todayCpu += cpuMs() - cpu;
  }
  let cpu = cpuMs();
  if (carry.length > 0) shipToday(carry);
  todayCpu += cpuMs() - cpu;

  // Closing the minute: its records, their batches, compact JSON and gzip as the spool would write them.
  cpu = cpuMs();
  const wall = performance.now();
  aggregator.closeAll();
  const taken = aggregator.take();
  const batches = packAggregates(taken);
  let json = 0;
  let gzip = 0;
  for (const [i, body] of batches.entries()) {
    const text = JSON.stringify(encodeAggregateBatch({ batchId: `spool-${i + 1}`, dropped: 0, ...body }));
    json += Buffer.byteLength(text);
    gzip += gzipSync(text, { level: 1 }).length;
  }
  const closeCpu = cpuMs() - cpu;
  const closeWall = performance.now() - wall;
  // The two parts apart (not timed): the statistics (minute records) and the logs' collapsed blocks.
  const gzipOf = (value: unknown) => gzipSync(JSON.stringify(value), { level: 1 }).length;
  const partsGzip = {
    minutes: batches.reduce((n, b) => n + gzipOf(b.minutes), 0),
    collapsed: batches.reduce((n, b) => n + gzipOf(b.collapsed), 0),
  };
  const blocked = taken.collapsed.reduce((n, c) => n + c.count, 0);

  const minutes = SECONDS / 60;
  const perThousand = (ms: number) => Number(((ms / events) * 1000).toFixed(3));
  const round = (n: number) => Math.round(n);
  return {
    seconds: SECONDS,
    offered_rps: RPS + FLOOD_RPS,
    flood_rps: FLOOD_RPS,
    sites: SITES,
    top_k: TOP_K,
    events,
    aggregator: {
      events_per_cpu_s: round(events / (aggregateCpu / 1000)),
      events_per_wall_s: round(events / (aggregateWall / 1000)),
      close_cpu_ms: round(closeCpu),
      close_wall_ms: round(closeWall),
      cpu_ms_per_1000_requests: perThousand(aggregateCpu + closeCpu),
    },
    aggregates_per_minute: {
      records: round(taken.minutes.length / minutes),
      collapsed: round(taken.collapsed.length / minutes),
      batches: round(batches.length / minutes),
      json_bytes: round(json / minutes),
      gzip_bytes: round(gzip / minutes),
      minutes_gzip_bytes: round(partsGzip.minutes / minutes),
      collapsed_gzip_bytes: round(partsGzip.collapsed / minutes),
      blocked_requests: round(blocked / minutes),
    },
    events_per_minute_today: {
      batches: round(todayBatches / minutes),
      json_bytes: round(todayJson / minutes),
      gzip_bytes: round(todayGzip / minutes),
      cpu_ms_per_1000_requests: perThousand(todayCpu),
    },
    gzip_ratio_today_to_aggregates: Number((todayGzip / gzip).toFixed(1)),
    load_average: loadavg().map((l) => Number(l.toFixed(1))),
  };
}
