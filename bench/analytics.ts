/**
 * `npm run bench:analytics`: the analytics store under a realistic load. Generates BENCH_EVENTS
 * events (default 10 million) over BENCH_SITES sites (default 200) with 5 domains each, skewed
 * (Zipf-like) hosts, URLs, clients (BENCH_CLIENTS addresses, default 200,000) and countries, over
 * the last BENCH_DAYS days (default 7), and ingests them through the node API's own path: each
 * batch (5,000 events) is gzip of its JSON, and the timed part inflates it, parses it, checks it
 * as the route does and hands it to the ingest service, which places the events and stores them
 * (events, rollups, ledger); 20 nodes send at once, each its batches one after another. The
 * ingest's time ends after the upkeep of what was ingested, run hour by hour as the analytics job
 * runs it on a live store (compaction, DuckDB's dimensions and checkpoints). Then runs
 * each statistics and dashboard query 20 times for one busy site over 30 days (the queries taking
 * turns: one run of each per round) and prints one JSON object per store:
 *
 *   {"store", "events", "ingest_events_per_s", "ingest_cpu_s_per_million", "upkeep_cpu_s_per_million",
 *    "upkeep_s_per_million", "server_cpu_s_per_million", "disk_mb_per_million", "queries": {name: p95_ms},
 *    "queries_cpu_ms": {name: median CPU ms},
 *    "raw_floor": {"events", "events_per_s", "cpu_s_per_million", "server_cpu_s_per_million"},
 *    "path_alone": {the same}}
 *
 * The baselines, measured in the same run: `raw_floor`, the first BENCH_FLOOR_EVENTS events
 * (default a million) through the same path into a table of raw events alone of the same store
 * kind (rawFloor: no rollups, ledger or duplicate check) — the least storing an event costs here;
 * `path_alone`, the same path with nothing stored (the control plane's own share, on its one
 * JavaScript thread).
 *
 * `ingest_cpu_s_per_million`: the bench process's CPU (user and system, every thread: the parse,
 * the store's SQL) over the ingest, per million events; ClickHouse's own server is not in it, and
 * `server_cpu_s_per_million` is that server's CPU over the same time (null for DuckDB, which runs
 * in the process, and for a server named by BENCH_CLICKHOUSE_URL).
 * `upkeep_cpu_s_per_million`: the part of it the upkeep at the end took (the hourly dimensions,
 * the address table, compaction, the checkpoint), and `upkeep_s_per_million` its wall time (the rest of
 * the ingest's time is taking the batches in). `queries_cpu_ms`: the median of each query's
 * CPU (the process's, DuckDB's threads included; on a shared machine the figure that compares).
 *
 * BENCH_KEEP=<dir> keeps the DuckDB store in <dir> after the run.
 *
 * DuckDB always; ClickHouse too when `/usr/sbin/clickhouse-server` is installed (started on
 * loopback in a temporary directory, stopped at the end) or BENCH_CLICKHOUSE_URL names a server.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { STATISTICS_SERIES } from '@rampart/contract';
import type { AnalyticsStore } from '../apps/server/src/modules/analytics/analytics-store.js';
import { ClickHouseStore } from '../apps/server/src/modules/analytics/clickhouse-store.js';
import { DuckDbStore } from '../apps/server/src/modules/analytics/duckdb-store.js';
import { StatisticsReads } from '../apps/server/src/modules/analytics/store/statistics-reads.js';
import { startClickHouse } from '../apps/server/test/helpers/clickhouse-server.js';
import { benchIngest, DAYS, EVENTS, feed, log, makeBatches, round, SITES } from './analytics/events.js';
import { processCpuSeconds, rawFloor } from './analytics/floor.js';

const RUNS = 20;

const p95 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length * 0.95) - 1] ?? Number.NaN;
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

function duSize(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}

/** Waits until the ClickHouse server merges nothing of the store's database; its active parts then. */
async function settled(store: AnalyticsStore): Promise<{ seconds: number; parts: number }> {
  const t0 = performance.now();
  let quiet = 0;
  while (quiet < 3 && performance.now() - t0 < 15 * 60_000) {
    const [row] = await store.query('SELECT count() AS n FROM system.merges WHERE database = currentDatabase()');
    quiet = Number(row?.n ?? 0) === 0 ? quiet + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const seconds = round((performance.now() - t0) / 1000);
  const [row] = await store.query(
    'SELECT count() AS n FROM system.parts WHERE active AND database = currentDatabase()',
  );
  const parts = Number(row?.n ?? 0);
  log(`clickhouse: merges settled after ${seconds} s, ${parts} active parts`);
  return { seconds, parts };
}

async function run(
  store: AnalyticsStore,
  dir: string | null,
  batches: { node: number; body: Buffer }[],
  now: number,
  serverPid: number | null = null,
) {
  await store.open();
  const ingest = benchIngest(store, now);
  log(`${store.kind}: ingesting ${EVENTS} events in ${batches.length} batches`);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const server0 = serverPid === null ? Number.NaN : processCpuSeconds(serverPid);
  await feed(ingest, batches, store.kind);
  // The upkeep of what was ingested (compaction, and DuckDB's checkpoint) counts in the ingest's
  // time. It runs as the analytics job runs it on a live store (analytics.job.ts): each hour once
  // it ended, the range reaching an hour back, up to the last whole hour 15 minutes ago — not one
  // range over the week, which wrote every rollup ordered by site from end to end (a layout no live
  // store has: there each hour's merged rows lie together).
  const upkeep0 = process.cpuUsage();
  const upkeepT0 = performance.now();
  const nowSeconds = Math.floor(now / 1000);
  const lastHour = nowSeconds - 900 - ((nowSeconds - 900) % 3600);
  const firstHour = nowSeconds - DAYS * 86_400 - ((nowSeconds - DAYS * 86_400) % 3600);
  for (let to = firstHour + 3600; to <= lastHour; to += 3600) await store.compact(to - 7200, to);
  const seconds = (performance.now() - t0) / 1000;
  const upkeepSeconds = (performance.now() - upkeepT0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const upkeep = process.cpuUsage(upkeep0);
  const serverCpu = serverPid === null ? null : processCpuSeconds(serverPid) - server0;
  // ClickHouse merges the parts of a week's inserts in the background for minutes after a bulk
  // load of it; a live store, whose week came over a week, has them merged. The queries wait for
  // the merges to end (three quiet readings a second apart, at most 15 minutes), as a live store is.
  const settle = store.kind === 'clickhouse' ? await settled(store) : null;
  const queries = new StatisticsReads(store);
  const end = Math.floor(now / 1000);
  const month = { start: end - 30 * 86_400, end };
  const day = { start: end - 86_400, end };
  const hour = { start: end - 3600, end };
  const busy = { siteIds: [1], zoneIds: null, domainIds: null };
  // A small site (one of the many with a few thousand events): what most customers see.
  const small = { siteIds: [Math.ceil(SITES * 0.75)], zoneIds: null, domainIds: null };
  const all = { siteIds: Array.from({ length: SITES }, (_, i) => i + 1), zoneIds: null, domainIds: null };
  const cases: Record<string, () => Promise<unknown>> = {
    card_requests_30d: () => queries.totals(busy, month),
    card_requests_30d_all_sites: () => queries.totals(all, month),
    card_unique_ips_30d: () => queries.distinct(busy, month, 'ip'),
    card_status_30d: () => queries.top(busy, month, 'status', 'requests', 1000),
    series_traffic_24h_5m: () => queries.series(busy, day, STATISTICS_SERIES.traffic, 5),
    series_requests_30d_1d: () => queries.series(busy, month, STATISTICS_SERIES.requests, 1440),
    series_qps_6h_5m: () => queries.series(busy, { start: end - 6 * 3600, end }, STATISTICS_SERIES.qps, 5),
    top_urls_1h_raw: () => queries.top(busy, hour, 'url', 'requests', 10),
    top_urls_30d: () => queries.top(busy, month, 'url', 'requests', 10),
    top_ips_30d: () => queries.top(busy, month, 'ip', 'requests', 10),
    top_countries_30d: () => queries.top(busy, month, 'country', 'requests', 30),
    top_blacklist_30d: () => queries.top(busy, month, 'ip', 'blacklisted', 10),
    top_urls_24h_small_site: () => queries.top(small, day, 'url', 'requests', 10),
    top_ips_30d_small_site: () => queries.top(small, month, 'ip', 'requests', 10),
    card_status_24h_small_site: () => queries.top(small, day, 'status', 'requests', 1000),
    domains_30d_all_sites: () =>
      queries.perDomain(all, month, { by: 'requests', desc: true }, { offset: 0, limit: 25 }),
  };
  const results: Record<string, number> = {};
  const cpuResults: Record<string, number> = {};
  // The queries take turns, a run of each in every round: a slow spell of the machine (another
  // guest's, on a shared host) falls on several queries' runs rather than on all of one query's.
  const runs = Object.entries(cases).map(([name, fn]) => ({ name, fn, times: [] as number[], cpus: [] as number[] }));
  for (let i = 0; i < RUNS; i++) {
    for (const { fn, times, cpus } of runs) {
      const t = performance.now();
      const c = process.cpuUsage();
      await fn();
      times.push(performance.now() - t);
      const used = process.cpuUsage(c);
      cpus.push((used.user + used.system) / 1000);
    }
  }
  for (const { name, times, cpus } of runs) {
    results[name] = round(p95(times));
    cpuResults[name] = round(median(cpus));
  }
  await store.close();
  const disk = dir ? duSize(dir) : Number.NaN;
  return {
    store: store.kind,
    events: EVENTS,
    ingest_events_per_s: Math.round(EVENTS / seconds),
    ingest_cpu_s_per_million: round((cpu.user + cpu.system) / 1e6 / (EVENTS / 1e6), 2),
    upkeep_cpu_s_per_million: round((upkeep.user + upkeep.system) / 1e6 / (EVENTS / 1e6), 2),
    server_cpu_s_per_million: serverCpu === null ? null : round(serverCpu / (EVENTS / 1e6), 2),
    upkeep_s_per_million: round(upkeepSeconds / (EVENTS / 1e6), 2),
    ...(settle ? { merges_settled_s: settle.seconds, parts: settle.parts } : {}),
    disk_mb_per_million: dir ? round(disk / 1e6 / (EVENTS / 1e6), 2) : null,
    queries: results,
    queries_cpu_ms: cpuResults,
  };
}

const now = Date.now();
log(`generating ${EVENTS} events`);
const batches = makeBatches(now);
const dir = mkdtempSync(path.join(tmpdir(), 'rampart-bench-analytics-'));
try {
  const stores = (process.env.BENCH_STORES ?? 'duckdb,clickhouse').split(',');
  // The node API's path with nothing stored: what the control plane's one JavaScript thread spends per event before any store.
  const alone = await rawFloor(null, batches, now);
  if (stores.includes('duckdb')) {
    const floor = await rawFloor({ dir }, batches, now);
    const threads = process.env.BENCH_THREADS ? Number(process.env.BENCH_THREADS) : undefined;
    const duck = await run(
      new DuckDbStore(path.join(dir, 'duckdb'), undefined, threads),
      path.join(dir, 'duckdb'),
      batches,
      now,
    );
    process.stdout.write(`${JSON.stringify({ ...duck, raw_floor: floor, path_alone: alone })}\n`);
  }
  const external = process.env.BENCH_CLICKHOUSE_URL;
  if (stores.includes('clickhouse') && (external || existsSync('/usr/sbin/clickhouse-server'))) {
    const server = external ? null : await startClickHouse();
    try {
      const url = new URL(external ?? (server as { url: string }).url);
      url.pathname = '/rampart_bench';
      const floor = await rawFloor({ url, pid: server?.pid ?? null }, batches, now);
      const result = await run(new ClickHouseStore(url.toString()), null, batches, now, server?.pid ?? null);
      process.stdout.write(`${JSON.stringify({ ...result, raw_floor: floor, path_alone: alone })}\n`);
    } finally {
      await server?.stop();
    }
  }
} finally {
  // BENCH_KEEP=<dir>: the DuckDB store is kept there (moved) to look into after the run.
  const keep = process.env.BENCH_KEEP;
  if (keep && existsSync(path.join(dir, 'duckdb'))) {
    execFileSync('mv', [path.join(dir, 'duckdb'), keep]);
    log(`store kept in ${keep}; the queries' end was ${Math.floor(now / 1000)}`);
  }
  rmSync(dir, { recursive: true, force: true });
}
