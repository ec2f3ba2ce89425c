import { FILE_TYPE_GROUPS, HTTP_METHODS_TRACKED } from '../constants.js';
import {
  BLOCKING_DECISION_ACTIONS,
  CACHE_HIT_STATUSES,
  type EventCacheStatus,
  type EventDecisionAction,
} from '../routes/analytics-events.js';

/**
 * What the statistics count of a request, in one place for the control plane's rollups (built
 * from raw events, apps/server/src/modules/analytics/rollups.ts) and the edge's minute aggregates
 * (minute-aggregator.ts), so the two cannot drift: the counters of a rollup row, those of a
 * dimension row, the dimensions, and how an event's decision, cache status and path are read.
 */

/** The counters of a time rollup row (rollup_1m … rollup_1d, siterollup_5m), in their column order. */
export const ROLLUP_COUNTERS = [
  'requests',
  'bytes_in',
  'bytes_out',
  'hit_requests',
  'hit_bytes',
  'blocked',
  'blacklisted',
  'dropped',
  'waf',
  'upstream_requests',
  'upstream_errors',
  's2xx',
  's3xx',
  's4xx',
  's5xx',
] as const;
export type RollupCounter = (typeof ROLLUP_COUNTERS)[number];

/** The counters of a dimension row (lowdims_1h, dims_1h, dims_1d, sitedims_1d). */
export const DIM_COUNTERS = ['requests', 'bytes_out', 'blocked', 'blacklisted', 'waf'] as const;
export type DimCounter = (typeof DIM_COUNTERS)[number];

/** Low-cardinality dimensions: counted exactly per value. */
export const LOW_DIM_NAMES = ['status', 'method', 'httpVersion', 'scheme', 'country', 'city', 'fileType'] as const;
export type LowDim = (typeof LOW_DIM_NAMES)[number];
/** High-cardinality dimensions: the edge ships heavy-hitter summaries of them. */
export const HIGH_DIM_NAMES = ['url', 'referer', 'userAgent', 'ip'] as const;
export type HighDim = (typeof HIGH_DIM_NAMES)[number];
export type Dim = LowDim | HighDim;

/** The methods HTTP_METHODS_TRACKED names; every other one counts as OTHER. */
export const TRACKED_METHODS: readonly string[] = HTTP_METHODS_TRACKED.filter((m) => m !== 'OTHER');
const TRACKED = new Set(TRACKED_METHODS);
/** The method a statistic counts a request under. */
export function methodBucket(method: string): string {
  return TRACKED.has(method) ? method : 'OTHER';
}

const FILE_TYPE_OF: ReadonlyMap<string, string> = new Map(
  Object.entries(FILE_TYPE_GROUPS).flatMap(([group, extensions]) => extensions.map((ext) => [ext, group] as const)),
);

/** The path of a request URI (the query cut off: what URL tops count) and its file-type group. */
export function pathOf(uri: string): { path: string; fileType: string } {
  const path = pathPart(uri);
  return { path, fileType: fileTypeOf(path) };
}

/** The path of a request URI: the query cut off. */
export function pathPart(uri: string): string {
  const q = uri.indexOf('?');
  return q < 0 ? uri : uri.slice(0, q);
}

/** The file-type group of a path ("" none). */
export function fileTypeOf(path: string): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash ? (FILE_TYPE_OF.get(path.slice(dot + 1).toLowerCase()) ?? '') : '';
}

const BLACKLIST_KINDS: ReadonlySet<string> = new Set(['blacklist', 'blockList']);

/** How an event's decision and cache status count: 1 or 0 each. */
export interface EventFlags {
  hit: number;
  blocked: number;
  blacklisted: number;
  waf: number;
}

/** An event's flags from its cache status and decision (kind and action). */
export function eventFlags(cacheStatus: string, fwKind: string, fwAction: string): EventFlags {
  return eventFlagsInto({ hit: 0, blocked: 0, blacklisted: 0, waf: 0 }, cacheStatus, fwKind, fwAction);
}

/** eventFlags into `into` (no object per request); answers it. */
export function eventFlagsInto<T extends EventFlags>(
  into: T,
  cacheStatus: string,
  fwKind: string,
  fwAction: string,
): T {
  const blocked = BLOCKING_DECISION_ACTIONS.has(fwAction as EventDecisionAction) || fwKind === 'blockList' ? 1 : 0;
  into.hit = CACHE_HIT_STATUSES.has(cacheStatus as EventCacheStatus) ? 1 : 0;
  into.blocked = blocked;
  into.blacklisted = blocked && BLACKLIST_KINDS.has(fwKind) ? 1 : 0;
  into.waf = blocked && fwKind === 'waf' ? 1 : 0;
  return into;
}

/** What a rollup row's counters read of a request. */
export interface CountedRequest extends EventFlags {
  status: number;
  bytesIn: number;
  bytesOut: number;
  upstreamMs: number;
  upstreamStatus: number;
}

/**
 * Adds one request's counters to `into`, a rollup row's counters in ROLLUP_COUNTERS order (the
 * edge's aggregates count so, without an object per request). `times`: that many alike requests,
 * whose bytes `e` gives summed (a tally of refusals, edge/refusal-tally.ts).
 */
export function addCounters(into: number[], e: CountedRequest, times = 1): void {
  const klass = Math.floor(e.status / 100);
  const upstream = e.upstreamMs >= 0 || e.upstreamStatus > 0 ? times : 0;
  into[0]! += times;
  into[1]! += e.bytesIn;
  into[2]! += e.bytesOut;
  into[3]! += e.hit * times;
  into[4]! += e.hit ? e.bytesOut : 0;
  into[5]! += e.blocked * times;
  into[6]! += e.blacklisted * times;
  into[7]! += e.status === 444 ? times : 0;
  into[8]! += e.waf * times;
  into[9]! += upstream;
  into[10]! += upstream && e.upstreamStatus >= 500 ? times : 0;
  into[11]! += klass === 2 ? times : 0;
  into[12]! += klass === 3 ? times : 0;
  into[13]! += klass === 4 ? times : 0;
  into[14]! += klass === 5 ? times : 0;
}

/** The counters one request adds to a rollup row. */
export function eventCounters(e: CountedRequest): Record<RollupCounter, number> {
  const values = new Array<number>(ROLLUP_COUNTERS.length).fill(0);
  addCounters(values, e);
  return Object.fromEntries(ROLLUP_COUNTERS.map((c, i) => [c, values[i]])) as Record<RollupCounter, number>;
}
