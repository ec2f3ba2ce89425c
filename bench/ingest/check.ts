/**
 * bench:ingest's reading of what the console reads: the statistics card of each site (the
 * contract's statistics info call: requests, bytes, statuses, decisions) over the window, compared
 * with what the generator sent; the operator's card over every site; the access log's size.
 */
import { API_BASE, DASHBOARD_CARD_IDS, ROLLUP_COUNTERS, type StatisticsCard } from '@rampart/contract';
import { type ApiSession, PASSWORD } from '../../apps/edge/test/helpers/real-control-plane.js';

/** The card's fields and the rollup counter each is. */
const CARD_FIELDS: readonly [keyof StatisticsCard, (typeof ROLLUP_COUNTERS)[number]][] = [
  ['requests', 'requests'],
  ['bytesIn', 'bytes_in'],
  ['bytesOut', 'bytes_out'],
  ['hitRequests', 'hit_requests'],
  ['hitBytes', 'hit_bytes'],
  ['blocked', 'blocked'],
  ['blacklisted', 'blacklisted'],
  ['dropped', 'dropped'],
  ['upstreamRequests', 'upstream_requests'],
  ['upstreamErrors', 'upstream_errors'],
  ['s2xx', 's2xx'],
  ['s3xx', 's3xx'],
  ['s4xx', 's4xx'],
  ['s5xx', 's5xx'],
];

export interface Range {
  startTime: string;
  endTime: string;
}

/** The card of some sites (none: every site of the operator). */
export function card(operator: ApiSession, range: Range, siteIds?: number[]): Promise<StatisticsCard> {
  return operator.call<StatisticsCard>('POST', 'client/statistics/info', {
    type: DASHBOARD_CARD_IDS.requestInfo,
    ...(siteIds ? { siteIDs: siteIds } : {}),
    ...range,
  });
}

/**
 * Each site's card against what was sent to its domain (ROLLUP_COUNTERS order): the differences
 * found (empty: exact) and the requests the cards hold.
 */
export async function compareSites(
  operator: ApiSession,
  range: Range,
  sites: readonly { siteId: number; expected: readonly number[] }[],
): Promise<{ mismatches: string[]; requests: number }> {
  const mismatches: string[] = [];
  let requests = 0;
  let next = 0;
  const worker = async () => {
    while (next < sites.length) {
      const site = sites[next++] as (typeof sites)[number];
      const got = await card(operator, range, [site.siteId]);
      requests += got.requests;
      for (const [field, counter] of CARD_FIELDS) {
        const want = site.expected[ROLLUP_COUNTERS.indexOf(counter)] ?? 0;
        if (got[field] !== want) mismatches.push(`site ${site.siteId} ${field}: ${got[field]} shown, ${want} sent`);
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return { mismatches, requests };
}

/** Records in the operator's access log over the range (the log search's total). */
export async function accessLogRecords(url: string, range: Range): Promise<number> {
  const signIn = await fetch(`${url}${API_BASE}/client/code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'client', password: PASSWORD }),
  });
  const token = ((await signIn.json()) as { data: { accessToken: string } }).data.accessToken;
  const res = await fetch(`${url}${API_BASE}/client/logs/access`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...range, page: 1, pageSize: 1 }),
  });
  if (!res.ok) throw new Error(`the access log answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { total: number }).total;
}
