/**
 * `npm run bench:log-export`: the memory and time of one log export file (docs/decisions.md "Log
 * export files"). Ingests BENCH_EVENTS events (default 1,000,000) of one site into a DuckDB store
 * in a temporary directory through the ingest service, then runs the control plane's export job
 * (log-exports.job.ts) on an export of all of them — JSON lines, gzip — and prints one JSON object:
 *
 *   {"store", "records", "seconds", "records_per_s", "file_mb",
 *    "rss_before_mb", "rss_peak_mb", "heap_before_mb", "heap_peak_mb"}
 *
 * `*_before_mb` is the process just before the export (the store open, its data ingested);
 * `*_peak_mb` the highest sample (every 20 ms) while the job wrote the file. The export's rows
 * live in memory only in the configuration database's place: a small in-memory stand-in here.
 * BENCH_FORMAT=csv writes CSV instead; BENCH_GZIP=0 leaves the file uncompressed.
 */
// The app's declarations of what Fastify requests carry (the job's modules reach the binder's types).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import type { EdgeEvent, LogExportFormat } from '@rampart/contract';
import type {} from '../apps/server/src/app.js';
import type { AnalyticsRepository } from '../apps/server/src/modules/analytics/analytics.repository.js';
import { DuckDbStore } from '../apps/server/src/modules/analytics/duckdb-store.js';
import { IngestService } from '../apps/server/src/modules/analytics/ingest.service.js';
import { LogExportFiles } from '../apps/server/src/modules/log-exports/log-export-files.js';
import { LogExportJob } from '../apps/server/src/modules/log-exports/log-exports.job.js';
import type {
  LogExportRow,
  LogExportsRepository,
} from '../apps/server/src/modules/log-exports/log-exports.repository.js';
import { openPglite } from '../apps/server/src/platform/db/database.js';
import { transactionScoped } from '../apps/server/src/platform/db/request-transaction.js';
import { FileBlobStore } from '../apps/server/src/platform/files/file-blobs.js';
import { FileBlobsRepository } from '../apps/server/src/platform/files/file-blobs.repository.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const FORMAT: LogExportFormat = process.env.BENCH_FORMAT === 'csv' ? 'csv' : 'jsonl';
const GZIP = process.env.BENCH_GZIP !== '0';
const BATCH = 5000;
const DAY_MS = 86_400_000;

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
const mb = (n: number) => Math.round(n / 1048576);

/** One site (id 1) with 5 domains, one node: the export's scope. */
const repository = {
  domainPlaces: async (ids: readonly number[]) => ids.map((domainId) => ({ domainId, siteId: 1, ownerId: 1 })),
  nodePlace: async () => ({ zoneId: 1, ownerId: 1 }),
  visibleSites: async () => [1],
  taggedDomains: async () => [],
} as unknown as AnalyticsRepository;

/** The export's row, kept in memory (the configuration database's part of the job). */
function memoryExports(row: LogExportRow): LogExportsRepository {
  let claimed = false;
  return {
    requeue: async () => [],
    withFiles: async () => new Set([row.id]),
    claimNext: async () => {
      if (claimed) return undefined;
      claimed = true;
      row.status = 'running';
      return { ...row };
    },
    progress: async (_id: number, values: { total?: number; records: number }) => {
      Object.assign(row, values);
      return true;
    },
    finish: async (_id: number, values: Partial<LogExportRow>) => {
      Object.assign(row, values);
      return true;
    },
    expiredBy: async () => [],
    doneOldestFirst: async () => [],
    expire: async () => [],
    pruneDays: async () => undefined,
  } as unknown as LogExportsRepository;
}

function event(seq: number, start: number): EdgeEvent {
  const i = seq % 5000;
  return {
    id: `bench-${seq}`,
    time: start + Math.floor((seq * DAY_MS) / EVENTS),
    domainId: 1 + (seq % 5),
    ip: `198.51.${(seq >>> 8) & 255}.${1 + (seq % 250)}`,
    method: seq % 7 === 0 ? 'POST' : 'GET',
    scheme: 'https',
    httpVersion: '2',
    host: `d${1 + (seq % 5)}.bench.example`,
    path: `/page/${i}?q=${seq % 97}`,
    status: seq % 11 === 0 ? 404 : 200,
    bytesIn: 300 + (seq % 500),
    bytesOut: (seq * 7919) % 200_000,
    requestMs: seq % 300,
    upstreamMs: seq % 200,
    upstreamStatus: 200,
    cacheStatus: seq % 3 === 0 ? 'HIT' : 'MISS',
    userAgent: `Mozilla/5.0 (bench ${seq % 300}) Chrome/${100 + (seq % 40)}`,
    referer: seq % 4 === 0 ? `https://ref${seq % 50}.example/` : '',
    fwKind: '',
    fwRule: 0,
    fwAction: '',
    wafPart: '',
    wafExcerpt: '',
    wafName: '',
  };
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'rampart-bench-export-'));
  const store = new DuckDbStore(path.join(dir, 'analytics'));
  try {
    await store.open();
    const now = Date.now();
    const start = now - DAY_MS - 3600_000;
    const ingest = new IngestService(
      store,
      repository,
      async () => () => ({ country: 'DE', city: 0 }),
      () => now,
    );
    log(`ingesting ${EVENTS} events`);
    for (let made = 0, batch = 0; made < EVENTS; batch += 1) {
      const n = Math.min(BATCH, EVENTS - made);
      const events = Array.from({ length: n }, (_, i) => event(made + i, start));
      await ingest.ingest(1, { batchId: `bench-${batch}`, dropped: 0, events });
      made += n;
      if (made % 200_000 === 0) log(`${made} events`);
    }
    const row: LogExportRow = {
      id: 1,
      accountId: 1,
      type: 'access',
      format: FORMAT,
      gzip: GZIP,
      filter: {
        startTime: new Date(start).toISOString(),
        endTime: new Date(start + DAY_MS).toISOString(),
        urlMatch: 'contains',
      },
      status: 'queued',
      total: 0,
      records: 0,
      bytes: 0,
      fileName: 'bench',
      error: null,
      createdAt: new Date(now),
      startedAt: null,
      finishedAt: null,
      expiresAt: null,
    };
    // A finished export is a blob of the config store (as on an install: an embedded PGlite, the
    // content in files under the data directory), owned by the export's account.
    const config = openPglite(await PGlite.create());
    await config.migrate();
    await config.db.execute(
      "INSERT INTO accounts (id, tier, account, name) OVERRIDING SYSTEM VALUE VALUES (1, 'user', 'bench', 'bench')",
    );
    const transactions = transactionScoped(config.db);
    const blobs = FileBlobStore.for('pglite', new FileBlobsRepository(transactions.db), transactions, dir);
    const files = new LogExportFiles(dir, blobs);
    const job = new LogExportJob(
      memoryExports(row),
      repository,
      store,
      files,
      () => Date.now(),
      { inForce: async () => ({ retentionDays: 7, maxBytes: Number.MAX_SAFE_INTEGER }), tickMs: 0 },
      (error) => {
        throw error;
      },
      async (accountId) => ({ tier: 'user', accountId, operatorId: null, zoneScope: null }),
    );
    await job.start();
    // Settle what the ingest left (its garbage is not the export's).
    globalThis.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = process.memoryUsage();
    let rss = before.rss;
    let heap = before.heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      rss = Math.max(rss, m.rss);
      heap = Math.max(heap, m.heapUsed);
    }, 20);
    log(`exporting (${FORMAT}${GZIP ? ', gzip' : ''})`);
    const t0 = performance.now();
    await job.runOnce();
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    await job.stop();
    if (row.status !== 'done') throw new Error(`the export ended ${row.status}: ${row.error}`);
    // The file's own count: its lines (less the CSV header), read back through gunzip.
    const file = await files.open(row.id);
    if (file === null) throw new Error('the export has no file');
    const lines = await countLines(file, GZIP);
    const inFile = FORMAT === 'csv' ? lines - 1 : lines;
    if (inFile !== EVENTS) throw new Error(`the file holds ${inFile} records, not ${EVENTS}`);
    await blobs.dispose();
    await config.close();
    process.stdout.write(
      `${JSON.stringify({
        store: store.kind,
        format: FORMAT,
        gzip: GZIP,
        records: row.records,
        records_in_file: inFile,
        seconds: Math.round(seconds * 10) / 10,
        records_per_s: Math.round(row.records / seconds),
        file_mb: Math.round((row.bytes / 1048576) * 10) / 10,
        rss_before_mb: mb(before.rss),
        rss_peak_mb: mb(rss),
        heap_before_mb: mb(before.heapUsed),
        heap_peak_mb: mb(heap),
      })}\n`,
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Newlines in a file (gunzipped first when `gzip`). */
async function countLines(file: NodeJS.ReadableStream, gzip: boolean): Promise<number> {
  let n = 0;
  for await (const chunk of gzip ? file.pipe(createGunzip()) : file) {
    const bytes = chunk as Buffer;
    for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n += 1;
  }
  return n;
}

await main();
