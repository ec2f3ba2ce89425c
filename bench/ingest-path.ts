/**
 * `npx tsx bench/ingest-path.ts`: what the control plane spends on one node-minute of aggregates,
 * step by step, without the HTTP and the rest of bench:ingest (for profiling the ingest path).
 * One node's minute (BENCH_RPS browsing requests/s over BENCH_SITES domains plus a 1/4 as large
 * blacklisted flood on three) counted by the agent's MinuteAggregator with its 15 s partials, cut
 * into the agent's batches (packAggregates) and their compact JSON (encodeAggregateBatch); then BENCH_NODES node-minutes of those
 * batches (each its own batch ids) through what the node API does with a body: JSON.parse, the
 * unsafe-text check of every request, the plain check (isAggregateBatch), AggregateIngestService into a DuckDB store on disk (or
 * ClickHouse with BENCH_STORE=clickhouse: at CLICKHOUSE_URL, else a server started on loopback as
 * the tests start one). Prints one JSON object: CPU ms of this process per node-minute by step
 * (and ClickHouse's, `clickhouse_cpu_ms_per_node_minute`, when it started the server), rows written
 * per node-minute, and the load average.
 * `store_stages`: the store's CPU (this process, every thread) split by DuckDB statement and
 * appender (from its creation to its close), as the bench wraps the client's calls (DuckDB only).
 * BENCH_THREADS: DuckDB's threads (the store's default when unset).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import {
  DEFAULT_PARTIAL_MS,
  decodeAggregateBatch,
  encodeAggregateBatch,
  MinuteAggregator,
  packAggregates,
  type ShippedAggregateBatch,
  shipNodeAggregates,
  unsafeTextPaths,
} from '@rampart/contract';
import { generateTraffic } from '@rampart/contract/testing';
import { AggregateIngestService } from '../apps/server/src/modules/analytics/aggregate-ingest.service.js';
import type { AnalyticsRepository, DomainPlace } from '../apps/server/src/modules/analytics/analytics.repository.js';
import type { AnalyticsStore, StoredAggregateBatch } from '../apps/server/src/modules/analytics/analytics-store.js';
import { ClickHouseStore } from '../apps/server/src/modules/analytics/clickhouse-store.js';
import { DuckDbStore } from '../apps/server/src/modules/analytics/duckdb-store.js';
import { startClickHouse } from '../apps/server/test/helpers/clickhouse-server.js';
import { treeTicks } from './edge/load.js';

const NODES = Number(process.env.BENCH_NODES ?? 5);
const RPS = Number(process.env.BENCH_RPS ?? 8000);
const SITES = Number(process.env.BENCH_SITES ?? 1000);
/** DuckDB's threads (BENCH_THREADS; the store's default, DUCKDB_THREADS_DEFAULT, when unset). */
const THREADS = process.env.BENCH_THREADS ? Number(process.env.BENCH_THREADS) : undefined;
const START = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** One node's minute as the agent ships it: partials every 15 s, the close after the grace. */
function nodeMinute(): string[] {
  const aggregator = new MinuteAggregator({ partialMs: DEFAULT_PARTIAL_MS });
  const bodies: string[] = [];
  const cut = (partials: boolean) => {
    for (const body of packAggregates(aggregator.take(partials)))
      bodies.push(JSON.stringify(encodeAggregateBatch({ batchId: 'b-1', dropped: 0, ...body })));
  };
  for (let s = 0; s < 66; s++) {
    if (s < 60) {
      const events = generateTraffic({
        seed: 3 + s,
        start: START + s * 1000,
        seconds: 1,
        rps: RPS,
        domains: SITES,
        addresses: 200_000,
        jitterMs: 0,
        flood: { domains: [3, 17, 250], addresses: 500, rps: RPS / 4 },
      });
      for (const e of events) aggregator.add(e);
    }
    aggregator.advance(START + (s + 1) * 1000);
    if (aggregator.pending.closed > 0) cut(false);
    else if (aggregator.partialDue) cut(true);
  }
  return bodies;
}

/** The store's CPU by statement and appender: the DuckDB client's calls wrapped (bench only). */
const storeStages: Record<string, number> = {};
function watchDuckDb(): void {
  const label = (sql: string) => {
    const s = sql.replace(/\s+/g, ' ').trim();
    const m = /^(INSERT (?:OR REPLACE )?INTO \w+|DELETE FROM \w+|SELECT|BEGIN TRANSACTION|COMMIT|ROLLBACK|\w+)/.exec(s);
    return `sql ${m?.[1] ?? s.slice(0, 24)}${s.includes(';') ? ' (several)' : ''}`;
  };
  const add = (key: string, ms: number) => {
    storeStages[key] = (storeStages[key] ?? 0) + ms;
  };
  const run = DuckDBConnection.prototype.run;
  DuckDBConnection.prototype.run = async function (this: DuckDBConnection, sql: string, ...rest: unknown[]) {
    const cpu = cpuMs();
    try {
      return await (run as (...a: unknown[]) => ReturnType<typeof run>).call(this, sql, ...rest);
    } finally {
      add(label(sql), cpuMs() - cpu);
    }
  } as typeof run;
  const open = new WeakMap<DuckDBAppender, [string, number]>();
  const create = DuckDBConnection.prototype.createAppender;
  DuckDBConnection.prototype.createAppender = async function (
    this: DuckDBConnection,
    table: string,
    ...rest: unknown[]
  ) {
    const cpu = cpuMs();
    const appender = await (create as (...a: unknown[]) => Promise<DuckDBAppender>).call(this, table, ...rest);
    open.set(appender, [`append ${table}`, cpu]);
    return appender;
  } as typeof create;
  const close = DuckDBAppender.prototype.closeSync;
  DuckDBAppender.prototype.closeSync = function (this: DuckDBAppender) {
    close.call(this);
    const o = open.get(this);
    if (o) add(o[0], cpuMs() - o[1]);
  };
}

async function main() {
  const bodies = nodeMinute();
  // As the node API receives them: gzip (the agent's level 1), read back with gunzip.
  const gzipped = bodies.map((b) => gzipSync(b, { level: 1 }));
  if (process.env.BENCH_STORE !== 'clickhouse') watchDuckDb();
  const placeOf = (domainId: number): DomainPlace => ({ domainId, siteId: domainId, ownerId: 1 });
  const repo = {
    nodePlace: async () => ({ zoneId: 1, ownerId: 1 }),
    domainPlaces: async (ids: readonly number[]) => ids.map(placeOf),
  } as unknown as AnalyticsRepository;
  const places = {
    placesOf: async (records: readonly { domainId: number }[]) =>
      new Map(records.map((r) => [r.domainId, placeOf(r.domainId)] as const)),
    locatorOf: async () => () => ({ country: 'US', city: 0 }),
  };
  const dir = await mkdtemp(path.join(tmpdir(), 'rampart-ingest-path-'));
  const clickhouse = process.env.BENCH_STORE === 'clickhouse';
  const server = clickhouse && !process.env.CLICKHOUSE_URL ? await startClickHouse() : null;
  const chUrl = server ? `${server.url}rampart` : (process.env.CLICKHOUSE_URL as string);
  const store: AnalyticsStore = clickhouse
    ? new ClickHouseStore(chUrl)
    : new DuckDbStore(path.join(dir, 'store'), undefined, THREADS);
  await store.open();
  for (const k of Object.keys(storeStages)) delete storeStages[k]; // Only the batches' statements.
  const rows = { counters: 0, lowDims: 0, highDims: 0, sketches: 0, collapsed: 0 };
  const counting: Pick<AnalyticsStore, 'ingestAggregates'> = {
    ingestAggregates: async (b: StoredAggregateBatch) => {
      rows.counters += b.counters.length;
      rows.lowDims += b.lowDims.length;
      rows.highDims += b.highDims.length;
      rows.sketches += b.sketches.length;
      rows.collapsed += b.collapsed.length;
      const cpu = cpuMs();
      try {
        return await store.ingestAggregates(b);
      } finally {
        spent.store += cpuMs() - cpu;
      }
    },
  };
  const service = new AggregateIngestService(counting as AnalyticsStore, repo, places as never, () => Date.now());
  const spent = { gunzip: 0, parse: 0, text: 0, check: 0, service: 0, store: 0 };
  const wall = performance.now();
  const chTicks0 = server ? await treeTicks(server.pid) : 0;
  for (let n = 0; n < NODES; n++) {
    for (const [i, body] of gzipped.entries()) {
      let cpu = cpuMs();
      const text = gunzipSync(body).toString();
      spent.gunzip += cpuMs() - cpu;
      cpu = cpuMs();
      const batch = JSON.parse(text) as ShippedAggregateBatch;
      batch.batchId = `b${n}-${i}`;
      spent.parse += cpuMs() - cpu;
      cpu = cpuMs();
      // Every request's strings checked for NUL and unpaired surrogates (bind-route.ts).
      if (unsafeTextPaths(batch).length > 0) throw new Error('unsafe text in the agent batch');
      spent.text += cpuMs() - cpu;
      cpu = cpuMs();
      // The compact form decoded and its object form checked (decoded once: the service reuses it).
      if (!shipNodeAggregates.request.bodyCheck?.(batch)) throw new Error('the plain check refused the agent batch');
      if ('format' in batch && decodeAggregateBatch(batch) === null) throw new Error('undecodable');
      spent.check += cpuMs() - cpu;
      cpu = cpuMs();
      const before = spent.store;
      await service.ingest(n + 1, batch);
      spent.service += cpuMs() - cpu - (spent.store - before);
    }
  }
  const wallMs = performance.now() - wall;
  const chMs = server ? ((await treeTicks(server.pid)) - chTicks0) * 10 : null;
  await store.close();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
  const per = (n: number) => Math.round(n / NODES);
  process.stdout.write(
    `${JSON.stringify({
      store: process.env.BENCH_STORE === 'clickhouse' ? 'clickhouse' : 'duckdb',
      node_minutes: NODES,
      batches_per_node_minute: bodies.length,
      json_bytes_per_node_minute: bodies.reduce((s, b) => s + b.length, 0),
      // As the agent spools and ships them: gzip level 1.
      gzip_bytes_per_node_minute: gzipped.reduce((s, b) => s + b.length, 0),
      cpu_ms_per_node_minute: Object.fromEntries(Object.entries(spent).map(([k, v]) => [k, per(v)])),
      store_stages: Object.fromEntries(
        Object.entries(storeStages)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => [k, per(v)]),
      ),
      wall_ms_per_node_minute: per(wallMs),
      clickhouse_cpu_ms_per_node_minute: chMs === null ? null : per(chMs),
      rows_per_node_minute: Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, per(v)])),
      load_average: loadavg().map((l) => Math.round(l * 100) / 100),
    })}\n`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
