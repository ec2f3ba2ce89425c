/**
 * `npm run bench:log-capacity`: the log store's capacity — how many passed requests' log records a
 * second the analytics store writes into its raw log table (`events`) through the node API's own
 * path, now that the statistics come from the nodes' aggregates and the event batches feed the
 * logs only (`statistics: false`: no rollups from them). The figure the log sampling's default
 * capacity comes from (docs/operator-guide.md "Log sampling"). Prints one JSON object per store:
 *
 *   {"store", "events", "events_per_s", "cpu_s_per_million", "server_cpu_s_per_million"}
 *
 * BENCH_LOG_EVENTS passed requests (default 1,000,000) from the contract's generateTraffic over
 * 1,000 domains on 200 sites, cut into batches of BENCH_LOG_BATCH events (default 2,000) as a node
 * ships them (gzip of the JSON, made before timing), from 20 nodes at once, each its batches one
 * after another; the timed part inflates, parses and checks each batch as the route does and hands
 * it to the ingest service (placed, located, stored once with its ledger entry) with no sampling.
 * DuckDB always; ClickHouse too when `/usr/sbin/clickhouse-server` is installed (BENCH_STORES
 * picks: `duckdb,clickhouse`). `server_cpu_s_per_million`: the ClickHouse server's CPU (/proc).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { type EdgeEvent, edgeEventBatchSchema, isEdgeEventBatch } from '@rampart/contract';
import { generateTraffic } from '@rampart/contract/testing';
import type { AnalyticsRepository } from '../apps/server/src/modules/analytics/analytics.repository.js';
import type { AnalyticsStore } from '../apps/server/src/modules/analytics/analytics-store.js';
import { ClickHouseStore } from '../apps/server/src/modules/analytics/clickhouse-store.js';
import { DuckDbStore } from '../apps/server/src/modules/analytics/duckdb-store.js';
import { IngestService } from '../apps/server/src/modules/analytics/ingest.service.js';
import { startClickHouse } from '../apps/server/test/helpers/clickhouse-server.js';

const EVENTS = Number(process.env.BENCH_LOG_EVENTS ?? 1_000_000);
const BATCH = Number(process.env.BENCH_LOG_BATCH ?? 2000);
const NODES = 20;
const DOMAINS = 1000;
const SITES = 200;

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Passed requests' batches as nodes ship them, made before timing: [node, gzip body]. */
function makeBatches(now: number): { node: number; body: Buffer }[] {
  const events: EdgeEvent[] = [];
  const rps = Math.ceil(EVENTS / 600);
  for (const e of generateTraffic({ seed: 61, start: now - 3600_000, seconds: 600, rps, domains: DOMAINS })) {
    if (events.length === EVENTS) break;
    // The log's passed requests: refused ones are collapsed by the nodes, not shipped one by one.
    if (e.domainId === 0) continue;
    events.push({ ...e, fwKind: '', fwRule: 0, fwAction: '' });
  }
  const batches: { node: number; body: Buffer }[] = [];
  for (let i = 0; i * BATCH < events.length; i++) {
    const chunk = events.slice(i * BATCH, (i + 1) * BATCH);
    const body = gzipSync(JSON.stringify({ batchId: `log-${i}`, dropped: 0, events: chunk, statistics: false }));
    batches.push({ node: 1 + (i % NODES), body });
  }
  return batches;
}

/** The ingest service's view of the configuration database: the domains spread over the sites, one operator. */
const repository = {
  domainPlaces: async (ids: readonly number[]) =>
    ids.map((domainId) => ({ domainId, siteId: 1 + (domainId % SITES), ownerId: 1 })),
  nodePlace: async (nodeId: number) => ({ zoneId: 1 + (nodeId % 3), ownerId: 1 }),
} as unknown as AnalyticsRepository;

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
function processCpuSeconds(pid: number | null): number {
  if (pid === null) return Number.NaN;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

async function measure(store: AnalyticsStore, batches: readonly { node: number; body: Buffer }[], pid: number | null) {
  await store.open();
  const now = Date.now();
  const ingest = new IngestService(
    store,
    repository,
    async () => () => ({ country: 'US', city: 0 }),
    () => now,
  );
  const byNode = new Map<number, Buffer[]>();
  for (const b of batches) byNode.set(b.node, [...(byNode.get(b.node) ?? []), b.body]);
  let stored = 0;
  log(`${store.kind}: ${batches.length} batches`);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const server0 = processCpuSeconds(pid);
  await Promise.all(
    [...byNode].map(async ([node, bodies]) => {
      for (const body of bodies) {
        const raw: unknown = JSON.parse(gunzipSync(body).toString('utf8'));
        const parsed = isEdgeEventBatch(raw) ? raw : edgeEventBatchSchema.parse(raw);
        await ingest.ingest(node, parsed);
        stored += parsed.events.length;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const server = processCpuSeconds(pid) - server0;
  const [row] = await store.query('SELECT count(*) AS n FROM events');
  if (Number(row?.n) !== stored) throw new Error(`stored ${stored} events, the table holds ${row?.n}`);
  await store.close();
  return {
    store: store.kind,
    events: stored,
    events_per_s: Math.round(stored / seconds),
    cpu_s_per_million: round((cpu.user + cpu.system) / 1e6 / (stored / 1e6)),
    server_cpu_s_per_million: Number.isNaN(server) ? null : round(server / (stored / 1e6)),
  };
}

const stores = (process.env.BENCH_STORES ?? 'duckdb,clickhouse').split(',');
log(`generating ${EVENTS} passed requests`);
const batches = makeBatches(Date.now());
const dir = mkdtempSync(path.join(tmpdir(), 'rampart-bench-log-capacity-'));
try {
  if (stores.includes('duckdb')) {
    const result = await measure(new DuckDbStore(path.join(dir, 'duckdb')), batches, null);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
  if (stores.includes('clickhouse') && existsSync('/usr/sbin/clickhouse-server')) {
    const server = await startClickHouse();
    try {
      const url = new URL(server.url);
      url.pathname = '/rampart_bench_logs';
      const result = await measure(new ClickHouseStore(url.toString()), batches, server.pid);
      process.stdout.write(`${JSON.stringify(result)}\n`);
    } finally {
      await server.stop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
