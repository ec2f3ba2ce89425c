/**
 * The analytics bench's events: BENCH_EVENTS generated events in gzip batches as nodes send them
 * (deterministic, so every store gets the same), and the node API's path that feeds them to an
 * ingest service over the bench's domains and nodes.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { type EdgeEvent, edgeEventBatchSchema, isEdgeEventBatch } from '@rampart/contract';
import type { AnalyticsRepository } from '../../apps/server/src/modules/analytics/analytics.repository.js';
import type { AnalyticsStore } from '../../apps/server/src/modules/analytics/analytics-store.js';
import { IngestService } from '../../apps/server/src/modules/analytics/ingest.service.js';

export const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
export const SITES = Number(process.env.BENCH_SITES ?? 200);
export const DAYS = Number(process.env.BENCH_DAYS ?? 7);
/** Events of the raw floor (rawFloor): the first batches' up to this many. */
export const FLOOR_EVENTS = Number(process.env.BENCH_FLOOR_EVENTS ?? 1_000_000);
export const BATCH = 5000;
export const DOMAINS_PER_SITE = 5;
/** Clients: each request comes from one of these addresses, a few of them far busier (crawlers, offices). */
export const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200_000);

/** Client `c`'s address: a different one for each (its low 24 bits in the middle octets). */
export const addressOf = (c: number) => `${11 + ((c >>> 16) & 127)}.${(c >>> 8) & 255}.${c & 255}.${1 + (c % 250)}`;

export const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** A deterministic generator (xorshift32) so both stores get the same events. */
export function rng(seed: number) {
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
export const skewed = (r: () => number, n: number) => Math.min(n - 1, Math.floor(n * r() ** 3));

export const COUNTRIES = ['US', 'CN', 'DE', 'JP', 'GB', 'FR', 'BR', 'IN', 'TW', 'SG', 'NL', 'RU', 'KR', 'CA', 'AU'];
export const METHODS = ['GET', 'GET', 'GET', 'GET', 'POST', 'HEAD', 'PUT', 'OPTIONS', 'PROPFIND'];
export const STATUSES = [200, 200, 200, 200, 200, 206, 301, 304, 404, 403, 444, 500, 502, 929];
export const PATHS = Array.from({ length: 5000 }, (_, i) =>
  i % 7 === 0 ? `/static/img/${i}.png` : i % 5 === 0 ? `/assets/app.${i}.js` : `/page/${i}`,
);
export const AGENTS = Array.from({ length: 300 }, (_, i) => `Mozilla/5.0 (bench ${i}) Chrome/${100 + (i % 40)}`);

/** The ingest service's view of the configuration database: the generated domains and one node. */
export function benchRepository(): AnalyticsRepository {
  return {
    domainPlaces: async (ids: readonly number[]) =>
      ids.map((domainId) => ({ domainId, siteId: Math.ceil(domainId / DOMAINS_PER_SITE), ownerId: 1 })),
    nodePlace: async (nodeId: number) => ({ zoneId: 1 + (nodeId % 3), ownerId: 1 }),
  } as unknown as AnalyticsRepository;
}

/** The gzip bodies of every batch, made before timing (what nodes would send). */
export function makeBatches(now: number): { node: number; body: Buffer }[] {
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

/**
 * Hands the batches to the ingest service as the node API does: each node sends its batches one
 * after another, and the nodes at the same time (one request per batch, each inflated, parsed and
 * checked on arrival).
 */
export async function feed(ingest: IngestService, batches: readonly { node: number; body: Buffer }[], label: string) {
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
export const locate = (ip: string) => {
  const last = Number(ip.slice(ip.lastIndexOf('.') + 1)) - 1;
  return { country: COUNTRIES[Math.floor(COUNTRIES.length * (last / 250) ** 2)] as string, city: 0 };
};

/** The ingest service over the bench's domains and nodes, into `store`. */
export const benchIngest = (store: Pick<AnalyticsStore, 'ingest'>, now: number) =>
  new IngestService(
    store,
    benchRepository(),
    async () => locate,
    () => now,
  );
