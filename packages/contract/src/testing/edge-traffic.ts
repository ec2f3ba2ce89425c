import { EDGE_RULE_ACTIONS } from '../edge/challenge.js';
import {
  type EdgeEvent,
  EVENT_DECISION_KINDS,
  type EventDecisionAction,
  type EventDecisionKind,
} from '../routes/analytics-events.js';

/**
 * Generated request events as a node's access log has them, for the aggregation tests and the
 * bench: browsing spread over domains, addresses, URLs, user agents and referers with Zipf-like
 * popularity, every status class, method, cache status and decision kind, origins that fail, and
 * optionally a flood (a few addresses hammering a few domains, refused by the block list). Times
 * rise through the run but each is shifted by up to `jitterMs` as nginx's workers' buffers shift
 * them. The same options give the same events in every process (mulberry32 from `seed`).
 */

export interface TrafficOptions {
  seed: number;
  /** Unix ms of the first second. */
  start: number;
  seconds: number;
  /** Browsing requests per second. */
  rps: number;
  /** Domain ids 1..domains (and some requests for no domain, id 0). */
  domains: number;
  jitterMs?: number;
  flood?: { domains: readonly number[]; addresses: number; rps: number };
  /** How many distinct addresses browse (default 20,000). */
  addresses?: number;
}

export function mulberry32(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A sampler of 0..n-1 with probability ∝ 1 / (i + 1)^s. */
export function zipf(n: number, s: number, r: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += 1 / (i + 1) ** s;
    cdf[i] = sum;
  }
  return () => {
    const x = r() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const STATUSES = [200, 200, 200, 200, 206, 301, 302, 304, 400, 403, 404, 404, 444, 499, 500, 502, 503, 504, 0, 999];
const METHODS = [
  'GET',
  'GET',
  'GET',
  'GET',
  'POST',
  'POST',
  'HEAD',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'PROPFIND',
  '',
];
const VERSIONS: EdgeEvent['httpVersion'][] = ['1.1', '1.1', '2', '2', '3', '1.0', ''];
const CACHE: EdgeEvent['cacheStatus'][] = [
  '',
  '',
  'MISS',
  'HIT',
  'HIT',
  'BYPASS',
  'EXPIRED',
  'STALE',
  'UPDATING',
  'REVALIDATED',
];
const EXTENSIONS = ['', '.html', '.css', '.js', '.png', '.jpg', '.mp4', '.apk', '.php', '.woff2'];
/** Every decision kind (EVENT_DECISION_KINDS but the empty one), in its order. */
const KINDS = EVENT_DECISION_KINDS.filter((kind) => kind !== '');
const ACTIONS: EventDecisionAction[] = ['allow', 'pass', 'fail', ...EDGE_RULE_ACTIONS, 'detect'];

/** The address of index `i`: IPv4 mostly, every 17th IPv6. */
export function addressOf(i: number): string {
  if (i % 17 === 16) return `2001:db8::${(i % 65_536).toString(16)}`;
  return `${10 + (i >>> 24)}.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`;
}

export function generateTraffic(o: TrafficOptions): EdgeEvent[] {
  const r = mulberry32(o.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
  const domainOf = zipf(o.domains, 0.9, r);
  const addressIndex = zipf(o.addresses ?? 20_000, 1.05, r);
  const pathIndex = zipf(5000, 1.1, r);
  const agentIndex = zipf(300, 1.2, r);
  const refererIndex = zipf(500, 1.1, r);
  const jitter = o.jitterMs ?? 300;
  const events: EdgeEvent[] = [];
  let serial = 0;
  const event = (time: number, domainId: number, ip: string, decided: boolean): EdgeEvent => {
    const status = pick(STATUSES);
    const cacheStatus = pick(CACHE);
    const upstream = cacheStatus !== 'HIT' && r() < 0.8;
    let fwKind: EventDecisionKind = '';
    let fwAction: EventDecisionAction = '';
    if (decided) {
      fwKind = pick(KINDS);
      fwAction = fwKind === 'whitelist' ? 'allow' : pick(ACTIONS);
    }
    const p = pathIndex();
    const path = `/p${p % 97}/item-${p}${EXTENSIONS[p % EXTENSIONS.length]}${p % 5 === 0 ? `?q=${p % 13}` : ''}`;
    return {
      id: `t${o.seed}-${serial++}`,
      time: Math.max(0, time),
      domainId,
      ip,
      method: pick(METHODS),
      scheme: r() < 0.8 ? 'https' : 'http',
      httpVersion: pick(VERSIONS),
      host: `d${domainId}.example`,
      path: p % 211 === 3 ? `/ünï/${p}` : path,
      status,
      bytesIn: 200 + Math.floor(r() * 2000),
      bytesOut: Math.floor(r() * (r() < 0.05 ? 5_000_000 : 50_000)),
      requestMs: Math.floor(r() < 0.9 ? r() * 200 : r() * 30_000),
      upstreamMs: upstream ? Math.floor(r() * 800) : -1,
      upstreamStatus: upstream ? pick([200, 200, 200, 304, 404, 500, 502, 504, 0]) : 0,
      cacheStatus,
      userAgent: `Agent/${agentIndex()} (X11; ✓)`,
      referer: r() < 0.4 ? '' : `https://ref${refererIndex()}.example/`,
      fwKind,
      fwRule: fwKind === '' || r() < 0.2 ? 0 : 1 + Math.floor(r() * 40),
      fwAction,
      wafPart: fwKind === 'waf' ? 'query' : '',
      wafExcerpt: fwKind === 'waf' ? "' OR 1=1" : '',
      wafName: fwKind === 'waf' ? 'q' : '',
    };
  };
  for (let s = 0; s < o.seconds; s++) {
    const base = o.start + s * 1000;
    const second: EdgeEvent[] = [];
    for (let i = 0; i < o.rps; i++) {
      const domainId = r() < 0.01 ? 0 : 1 + domainOf();
      const t = base + Math.floor((i * 1000) / o.rps) + Math.floor((r() - 0.5) * 2 * jitter);
      second.push(event(t, domainId, addressOf(addressIndex()), r() < 0.08));
    }
    const flood = o.flood;
    if (flood) {
      for (let i = 0; i < flood.rps; i++) {
        const t = base + Math.floor((i * 1000) / flood.rps) + Math.floor((r() - 0.5) * 2 * jitter);
        const e = event(t, pick(flood.domains), addressOf(1_000_000 + Math.floor(r() * flood.addresses)), false);
        e.fwKind = 'blacklist';
        e.fwRule = 4;
        e.fwAction = 'deny';
        e.status = 929;
        e.upstreamMs = -1;
        e.upstreamStatus = 0;
        e.cacheStatus = '';
        e.bytesOut = 180;
        second.push(e);
      }
    }
    // A second's flood comes after its browsing, as another worker's buffer would: up to a second out of order.
    events.push(...second);
  }
  return events;
}
