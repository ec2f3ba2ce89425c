import type { EventRow, StoredBatch } from '../../src/modules/analytics/analytics-store.js';

/** Events in each of crashBatch's batches. */
export const CRASH_BATCH_EVENTS = 2000;
/** The hour crashBatch's events are in (unix seconds). */
export const CRASH_HOUR = Date.UTC(2024, 0, 10, 5) / 1000;

/** Batch `i` of analytics-ingest-child.ts's run, the same in every process. */
export function crashBatch(i: number): StoredBatch {
  const batchId = `crash-${i}`;
  const events: EventRow[] = Array.from({ length: CRASH_BATCH_EVENTS }, (_, j) => {
    const site = 1 + ((i + j) % 3);
    const status = [200, 304, 404, 502][j % 4] as number;
    return {
      ts: CRASH_HOUR + ((i * 37 + j) % 3600),
      ms: j % 1000,
      nodeId: 1,
      zoneId: 10 + (j % 2),
      siteId: site,
      domainId: site * 100 + (j % 2),
      requestId: `${batchId}-${j}`,
      batchId,
      ip: `192.0.2.${j % 200}`,
      country: j % 5 === 0 ? 'DE' : 'US',
      city: 0,
      method: 'GET',
      scheme: 'https',
      httpVersion: '2',
      host: `site${site}.example`,
      uri: `/p/${j % 50}?q=${i}`,
      path: `/p/${j % 50}`,
      fileType: '',
      status,
      bytesIn: 100 + j,
      bytesOut: 1000 * (j % 7),
      requestMs: j % 300,
      upstreamMs: j % 3 === 0 ? -1 : j % 200,
      upstreamStatus: j % 3 === 0 ? 0 : status,
      cacheStatus: j % 3 === 0 ? 'HIT' : 'MISS',
      userAgent: `agent ${j % 9}`,
      referer: '',
      fwKind: '',
      fwRule: 0,
      fwAction: '',
      wafPart: '',
      wafExcerpt: '',
      wafName: '',
      hit: j % 3 === 0 ? 1 : 0,
      blocked: 0,
      blacklisted: 0,
      waf: 0,
    };
  });
  return { batchId, nodeId: 1, receivedAt: CRASH_HOUR + 3600, dropped: i % 2, events };
}
