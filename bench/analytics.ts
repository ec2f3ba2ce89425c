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
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { type EdgeEvent, edgeEventBatchSchema, isEdgeEventBatch, STATISTICS_SERIES } from '@rampart/contract';
import type { AnalyticsRepository } from '../apps/server/src/modules/analytics/analytics.repository.js';
import type { AnalyticsStore, EventRow } from '../apps/server/src/modules/analytics/analytics-store.js';
import { BatchGroups } from '../apps/server/src/modules/analytics/batch-groups.js';
import {
  EVENTS_DDL as CH_EVENTS_DDL,
  GROUP_MAX_EVENTS as CH_GROUP_MAX_EVENTS,
  ClickHouseStore,
  EVENT_TSV_COLUMNS,
  eventTsv,
} from '../apps/server/src/modules/analytics/clickhouse-store.js';
import {
  appendEvent,
  EVENTS_DDL as DUCK_EVENTS_DDL,
  GROUP_MAX_EVENTS as DUCK_GROUP_MAX_EVENTS,
  DuckDbStore,
} from '../apps/server/src/modules/analytics/duckdb-store.js';
import { IngestService } from '../apps/server/src/modules/analytics/ingest.service.js';
import { StatisticsReads } from '../apps/server/src/modules/analytics/store/statistics-reads.js';
import { startClickHouse } from '../apps/server/test/helpers/clickhouse-server.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const SITES = Number(process.env.BENCH_SITES ?? 200);
const DAYS = Number(process.env.BENCH_DAYS ?? 7);
const RUNS = 20;
/** Events of the raw floor (rawFloor): the first batches' up to this many. */
const FLOOR_EVENTS = Number(process.env.BENCH_FLOOR_EVENTS ?? 1_000_000);
const BATCH = 5000;
const DOMAINS_PER_SITE = 5;
/** Clients: each request comes from one of these addresses, a few of them far busier (crawlers, offices). */
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200_000);

/** Client `c`'s address: a different one for each (its low 24 bits in the middle octets). */
const addressOf = (c: number) => `${11 + ((c >>> 16) & 127)}.${(c >>> 8) & 255}.${c & 255}.${1 + (c % 250)}`;

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** A deterministic generator (xorshift32) so both stores get the same events. */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x1_0000_0000;
  };
}
/** Index 0..n-1, the low ones far likelier (a power law, roughly Zipf's). */
const skewed = (r: () => number, n: number) => Math.min(n - 1, Math.floor(n * r() ** 3));

const COUNTRIES = ['US', 'CN', 'DE', 'JP', 'GB', 'FR', 'BR', 'IN', 'TW', 'SG', 'NL', 'RU', 'KR', 'CA', 'AU'];
const METHODS = ['GET', 'GET', 'GET', 'GET', 'POST', 'HEAD', 'PUT', 'OPTIONS', 'PROPFIND'];
const STATUSES = [200, 200, 200, 200, 200, 206, 301, 304, 404, 403, 444, 500, 502, 929];
const PATHS = Array.from({ length: 5000 }, (_, i) =>
  i % 7 === 0 ? `/static/img/${i}.png` : i % 5 === 0 ? `/assets/app.${i}.js` : `/page/${i}`,
);
const AGENTS = Array.from({ length: 300 }, (_, i) => `Mozilla/5.0 (bench ${i}) Chrome/${100 + (i % 40)}`);

/** The ingest service's view of the configuration database: the generated domains and one node. */
function benchRepository(): AnalyticsRepository {
  return {
    domainPlaces: async (ids: readonly number[]) =>
      ids.map((domainId) => ({ domainId, siteId: Math.ceil(domainId / DOMAINS_PER_SITE), ownerId: 1 })),
    nodePlace: async (nodeId: number) => ({ zoneId: 1 + (nodeId % 3), ownerId: 1 }),
  } as unknown as AnalyticsRepository;
}

/** The gzip bodies of every batch, made before timing (what nodes would send). */
function makeBatches(now: number): { node: number; body: Buffer }[] {
  const r = rng(42);
  const batches: { node: number; body: Buffer }[] = [];
  const start = now - DAYS * 86_400_000;
  const span = DAYS * 86_400_000;
  let made = 0;
  let seq = 0;
  while (made < EVENTS) {
    const n = Math.min(BATCH, EVENTS - made);
    // Events of a batch are close in time, as a node's are: batches advance through the range.
    const base = start + Math.floor((made / EVENTS) * span);
    const events: EdgeEvent[] = [];
    for (let i = 0; i < n; i++) {
      const site = 1 + skewed(r, SITES);
      const domainId = (site - 1) * DOMAINS_PER_SITE + 1 + skewed(r, DOMAINS_PER_SITE);
      const status = STATUSES[Math.floor(r() * STATUSES.length)] as number;
      const blocked = status === 403 || status === 444 || status === 929;
      events.push({
        id: `bench-${seq}-${i}`,
        time: base + Math.floor(r() * 60_000),
        domainId,
        ip: addressOf(skewed(r, CLIENTS)),
        method: METHODS[Math.floor(r() * METHODS.length)] as string,
        scheme: r() < 0.8 ? 'https' : 'http',
        httpVersion: r() < 0.6 ? '2' : '1.1',
        host: `d${domainId}.bench.example`,
        path: `${PATHS[skewed(r, PATHS.length)]}${r() < 0.3 ? '?v=1' : ''}`,
        status,
        bytesIn: 200 + Math.floor(r() * 800),
        bytesOut: Math.floor(r() * 200_000),
        requestMs: Math.floor(r() * 300),
        upstreamMs: blocked ? -1 : Math.floor(r() * 200),
        upstreamStatus: blocked ? 0 : status,
        cacheStatus: blocked ? '' : r() < 0.6 ? 'HIT' : 'MISS',
        userAgent: AGENTS[skewed(r, AGENTS.length)] as string,
        referer: r() < 0.3 ? `https://ref${skewed(r, 50)}.example/` : '',
        fwKind: status === 403 ? 'blacklist' : status === 929 ? 'intervalLimit' : status === 444 ? 'blockList' : '',
        fwRule: blocked ? 1 + skewed(r, 20) : 0,
        fwAction: status === 403 ? 'deny' : status === 929 ? 'deny' : status === 444 ? 'drop' : '',
        wafPart: '',
        wafExcerpt: '',
        wafName: '',
      });
    }
    seq++;
    batches.push({
      node: 1 + (seq % 20),
      body: gzipSync(JSON.stringify({ batchId: `bench-${seq}`, dropped: 0, events })),
    });
    made += n;
  }
  return batches;
}

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

/** Clock ticks per second of /proc's CPU times. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU seconds a process used so far (user + system, from /proc), or NaN where it cannot be read. */
function processCpuSeconds(pid: number): number {
  try {
    // The fields after the command's closing parenthesis (the last one: the command may hold one):
    // utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
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

/**
 * Hands the batches to the ingest service as the node API does: each node sends its batches one
 * after another, and the nodes at the same time (one request per batch, each inflated, parsed and
 * checked on arrival).
 */
async function feed(ingest: IngestService, batches: readonly { node: number; body: Buffer }[], label: string) {
  const byNode = new Map<number, Buffer[]>();
  for (const batch of batches) byNode.set(batch.node, [...(byNode.get(batch.node) ?? []), batch.body]);
  let done = 0;
  let logged = 0;
  await Promise.all(
    [...byNode].map(async ([node, bodies]) => {
      for (const body of bodies) {
        // As the node API's route: the contract's plain check, its schema only for a batch that fails it.
        const raw: unknown = JSON.parse(gunzipSync(body).toString('utf8'));
        const parsed = isEdgeEventBatch(raw) ? raw : edgeEventBatchSchema.parse(raw);
        await ingest.ingest(node, parsed);
        done += parsed.events.length;
        if (done - logged >= 1_000_000) {
          logged = done;
          log(`${label}: ${done} events`);
        }
      }
    }),
  );
}

/** Countries by address, as an operator's geo database would give them (a few far likelier; no database file here). */
const locate = (ip: string) => {
  const last = Number(ip.slice(ip.lastIndexOf('.') + 1)) - 1;
  return { country: COUNTRIES[Math.floor(COUNTRIES.length * (last / 250) ** 2)] as string, city: 0 };
};

/** The ingest service over the bench's domains and nodes, into `store`. */
const benchIngest = (store: Pick<AnalyticsStore, 'ingest'>, now: number) =>
  new IngestService(
    store,
    benchRepository(),
    async () => locate,
    () => now,
  );

/**
 * The run's baseline, the raw floor: the first FLOOR_EVENTS events through the same path (inflated,
 * parsed, checked and placed by the ingest service, 20 nodes at once) into a table of raw events
 * alone, in a database of its own of the same kind, written as the store writes its events
 * (a group of batches at a time: DuckDB's appender in a transaction, a TabSeparated INSERT) — no
 * rollups, no ledger, no duplicate check. What storing an event costs at the least on this
 * machine; the ingest's figure beside it is what the analytics cost on top.
 */
async function rawFloor(
  target: { dir: string } | { url: URL; pid: number | null } | null,
  batches: readonly { node: number; body: Buffer }[],
  now: number,
) {
  const floorBatches = batches.slice(0, Math.ceil(FLOOR_EVENTS / BATCH));
  const events = Math.min(EVENTS, floorBatches.length * BATCH);
  // A group of batches at a time, as the stores write (BatchGroups: those that arrive while one is
  // written go together in the next).
  let write: (rows: readonly EventRow[]) => Promise<void>;
  // close: the end of storing (DuckDB's checkpoint), timed; dispose: the floor's database gone, after.
  let close: () => Promise<void>;
  let dispose = async () => {};
  let most = 1;
  let serverCpu = () => Number.NaN;
  if (target === null) {
    // The path alone: nothing stored.
    write = async () => {};
    close = async () => {};
  } else if ('dir' in target) {
    const instance = await DuckDBInstance.create(path.join(target.dir, 'floor.duckdb'));
    const db = await instance.connect();
    await db.run(DUCK_EVENTS_DDL);
    most = DUCK_GROUP_MAX_EVENTS;
    write = async (rows) => {
      await db.run('BEGIN TRANSACTION');
      try {
        const appender = await db.createAppender('events');
        for (const row of rows) appendEvent(appender, row);
        appender.closeSync();
        await db.run('COMMIT');
      } catch (error) {
        await db.run('ROLLBACK');
        throw error;
      }
    };
    close = async () => {
      await db.run('CHECKPOINT');
      db.closeSync();
      instance.closeSync();
    };
  } else {
    const { url, pid } = target;
    // Credentials go in a header (fetch refuses them in the address).
    const auth = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    const post = async (query: string, body?: string, database: string | null = 'rampart_bench_floor') => {
      const u = new URL(url);
      u.username = '';
      u.password = '';
      u.pathname = '/';
      if (database) u.searchParams.set('database', database);
      u.searchParams.set('query', query);
      const response = await fetch(u, { method: 'POST', body, headers: { authorization: auth } });
      if (!response.ok) throw new Error(`ClickHouse (${response.status}): ${await response.text()}`);
    };
    await post('DROP DATABASE IF EXISTS rampart_bench_floor', undefined, null);
    await post('CREATE DATABASE rampart_bench_floor', undefined, null);
    await post(CH_EVENTS_DDL);
    most = CH_GROUP_MAX_EVENTS;
    write = (rows) =>
      post(`INSERT INTO events (${EVENT_TSV_COLUMNS}) FORMAT TabSeparated`, `${rows.map(eventTsv).join('\n')}\n`);
    close = async () => {};
    dispose = () => post('DROP DATABASE rampart_bench_floor', undefined, null);
    if (pid !== null) serverCpu = () => processCpuSeconds(pid);
  }
  const groups = new BatchGroups(most, async (group) => {
    await write(group.flatMap((batch) => batch.events));
    return group.map((batch) => ({ stored: batch.events.length, duplicate: false }));
  });
  const ingest = benchIngest({ ingest: (batch) => groups.add(batch) }, now);
  const label = target === null ? 'the path alone' : `${'dir' in target ? 'duckdb' : 'clickhouse'}: the raw floor`;
  log(`${label}, ${events} events`);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const server0 = serverCpu();
  await feed(ingest, floorBatches, label);
  await close();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const server = serverCpu() - server0;
  await dispose();
  return {
    events,
    events_per_s: Math.round(events / seconds),
    cpu_s_per_million: round((cpu.user + cpu.system) / 1e6 / (events / 1e6), 2),
    server_cpu_s_per_million: Number.isNaN(server) ? null : round(server / (events / 1e6), 2),
  };
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
    const duck = await run(new DuckDbStore(path.join(dir, 'duckdb')), path.join(dir, 'duckdb'), batches, now);
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
