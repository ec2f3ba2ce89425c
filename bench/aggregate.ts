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
import { AGGREGATE_TOP_K } from '@rampart/contract';
import { aggregateCost } from './aggregate-cost.js';

const env = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(v) || v < 0) throw new Error(`${name} must be a non-negative number`);
  return v;
};

console.log(
  JSON.stringify(
    aggregateCost({
      seconds: env('BENCH_SECONDS', 60),
      rps: env('BENCH_RPS', 8000),
      floodRps: env('BENCH_FLOOD_RPS', 2000),
      sites: env('BENCH_SITES', 1000),
      topK: env('BENCH_TOP_K', AGGREGATE_TOP_K),
    }),
  ),
);
