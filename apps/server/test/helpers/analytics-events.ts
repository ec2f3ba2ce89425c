import type { EventRow, StoredBatch } from '../../src/modules/analytics/analytics-store.js';
import { random } from './random.js';

/**
 * Events as the analytics store takes them, for its tests (analytics-store.test.ts) and the process
 * they kill mid-ingest (analytics-ingest-child.ts): the same for the same arguments in any process.
 */

const STATUSES = [200, 200, 204, 301, 304, 404, 444, 499, 500, 502, 903, 999, 0];
const METHODS = ['GET', 'GET', 'POST', 'DELETE', 'PUT', 'HEAD', 'PATCH', 'OPTIONS', 'PROPFIND', ''];
const ODD_TEXT = ['', 'Mozilla/5.0', 'curl/8 "quoted" \\ back\nline', 'Ünïcödé ✓ 😀', "it's"];

export function makeEvents(batchId: string, count: number, from: number, span: number, seed: number): EventRow[] {
  const r = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
  return Array.from({ length: count }, (_, i) => {
    const site = pick([1, 2, 3]);
    const hit = r() < 0.4 ? 1 : 0;
    const upstream = !hit && r() < 0.7;
    const fw = r();
    const path = pick(['/', '/a.css', '/img/b.png', '/api?x=1', `/p/${i % 7}`]);
    return {
      ts: from + Math.floor(r() * span),
      ms: Math.floor(r() * 1000),
      nodeId: pick([1, 2]),
      zoneId: pick([10, 11]),
      siteId: site,
      domainId: site === 1 ? 0 : site * 100 + pick([1, 2]),
      requestId: `${batchId}-req-${i}`,
      batchId,
      ip: pick(['192.0.2.1', '198.51.100.7', '2001:db8::1']),
      country: pick(['', 'DE', 'US', 'CN']),
      city: pick([0, 0, 2950159, 5128581]),
      method: pick(METHODS),
      scheme: pick(['http', 'https']),
      httpVersion: pick(['', '1.0', '1.1', '2', '3']),
      host: `site${site}.example`,
      uri: path,
      path: path.split('?')[0] ?? path,
      fileType: pick(['', 'css', 'image']),
      status: pick(STATUSES),
      bytesIn: Math.floor(r() * 5000),
      bytesOut: pick([0, Math.floor(r() * 2_000_000), 2 ** 40 + i]),
      requestMs: Math.floor(r() * 3000),
      upstreamMs: upstream ? Math.floor(r() * 900) : -1,
      upstreamStatus: upstream ? pick([0, 200, 304, 500, 502, 504]) : r() < 0.1 ? 502 : 0,
      cacheStatus: hit ? 'HIT' : pick(['', 'MISS', 'BYPASS']),
      userAgent: pick(ODD_TEXT),
      referer: pick(['', 'https://ref.example/', ...ODD_TEXT]),
      fwKind: fw < 0.1 ? 'blacklist' : fw < 0.2 ? 'waf' : '',
      fwRule: fw < 0.2 ? 7 : 0,
      fwAction: fw < 0.2 ? 'deny' : '',
      hit,
      blocked: fw < 0.2 ? 1 : 0,
      blacklisted: fw < 0.1 ? 1 : 0,
      waf: fw >= 0.1 && fw < 0.2 ? 1 : 0,
      wafPart: fw >= 0.1 && fw < 0.2 ? pick(['query', 'cookie', 'body']) : '',
      wafExcerpt: fw >= 0.1 && fw < 0.2 ? pick(ODD_TEXT) : '',
      wafName: fw >= 0.1 && fw < 0.2 ? pick(['id', 'q', 'Cookie-Name']) : '',
      counted: 1,
    };
  });
}

/** Events in each of crashBatch's batches. */
export const CRASH_BATCH_EVENTS = 2000;
/** The hour crashBatch's events are in (unix seconds). */
export const CRASH_HOUR = Date.UTC(2024, 0, 10, 5) / 1000;

/** Batch `i` of analytics-ingest-child.ts's run, the same in every process. */
export function crashBatch(i: number): StoredBatch {
  const batchId = `crash-${i}`;
  return {
    batchId,
    nodeId: 1,
    receivedAt: CRASH_HOUR + 3600,
    dropped: i % 2,
    events: makeEvents(batchId, CRASH_BATCH_EVENTS, CRASH_HOUR, 3600, 1000 + i),
  };
}
