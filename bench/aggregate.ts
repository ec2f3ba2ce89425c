/**
 * `npx tsx bench/aggregate.ts`: what the edge's minute aggregates (contract aggregates/) cost and
 * weigh against today's per-event batches, for one node. Generates BENCH_SECONDS (default 60, one
 * UTC minute) of traffic at BENCH_RPS browsing requests per second (default 8,000) over
 * BENCH_SITES domains (default 1,000, one per site) plus a flood of BENCH_FLOOD_RPS (default 2,000)
 * blacklisted requests from 500 addresses on three sites (generateTraffic: Zipf-like addresses,
 * URLs, agents, referers; every status, method and decision), in chunks of 5 s so the events
 * need not all be in memory. BENCH_TOP_K: the heavy hitters' capacity (default AGGREGATE_TOP_K).
 * Then:
 *
 * - the aggregator: MinuteAggregator.add over every event (events per CPU second of this process,
 *   one JavaScript thread, and per wall second), and closing the minute (take) with cutting its
 *   batches (packAggregates) and their gzip (level 1, as the agent's spool writes event batches);
 * - today: the same events in batches of EVENT_BATCH_MAX as the agent ships them (JSON, gzip level 1).
 *
 * Prints one JSON object: sizes per minute of traffic and the CPU of each side per 1,000 requests.
 * The generator's own time is in neither. The machine's load average is printed with it: on a
 * shared machine the CPU figures compare, the wall ones less so.
 */
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { AGGREGATE_TOP_K, type EdgeEvent, EVENT_BATCH_MAX, MinuteAggregator, packAggregates } from '@rampart/contract';
import { generateTraffic } from '@rampart/contract/testing';

const env = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(v) || v < 0) throw new Error(`${name} must be a non-negative number`);
  return v;
};
const SECONDS = env('BENCH_SECONDS', 60);
const RPS = env('BENCH_RPS', 8000);
const FLOOD_RPS = env('BENCH_FLOOD_RPS', 2000);
const SITES = env('BENCH_SITES', 1000);
const TOP_K = env('BENCH_TOP_K', AGGREGATE_TOP_K);
const CHUNK = 5;
const START = Date.UTC(2026, 10, 28, 12, 0);

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

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

// Closing the minute: its records, their batches, JSON and gzip as the spool would write them.
cpu = cpuMs();
const wall = performance.now();
aggregator.closeAll();
const taken = aggregator.take();
const batches = packAggregates(taken);
let json = 0;
let gzip = 0;
for (const [i, body] of batches.entries()) {
  const text = JSON.stringify({ batchId: `spool-${i + 1}`, dropped: 0, ...body });
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
console.log(
  JSON.stringify({
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
  }),
);
