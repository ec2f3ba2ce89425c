import { HISTOGRAM_BUCKETS } from '../aggregates/histogram.js';
import { HLL_EXACT_MAX, HLL_PRECISION } from '../aggregates/hyperloglog.js';
import { isIP } from '../validators/ip.js';
import {
  AGGREGATE_BATCH_COLLAPSED_MAX,
  AGGREGATE_BATCH_MINUTES_MAX,
  AGGREGATE_LOW_VALUES_MAX,
  AGGREGATE_TOP_K_MAX,
} from './analytics-aggregates-limits.js';
import { EVENT_DECISION_ACTIONS, EVENT_DECISION_KINDS, EVENT_LIMITS, isEdgeEvent } from './analytics-events.js';

/**
 * The aggregate batch's schema (analytics-aggregates.ts aggregateBatchSchema) as plain checks: one node's minute of a thousand domains is ~1,000
 * minute records of four heavy-hitter summaries each, which the schema took ~35 ms per 1,000
 * summaries' entries of the control plane's one thread to walk (3.5 s for a node's minute on a
 * loaded machine: a hundred nodes would need several cores for it alone). True only when the
 * schema accepts the value and answers it unchanged (it adds nothing: a collapsed record's sample
 * without its WAF fields, which the schema gives their defaults, goes to the schema); the node
 * API takes a batch this passes without the schema, and asks the schema of every other one (its
 * issues, or its defaults). The contract's tests compare the two on generated batches and on every
 * field broken in every way the schema refuses.
 */

const BATCH_ID = /^[a-z0-9]{1,32}-[0-9]{1,16}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const SPARSE_MAX = Math.ceil((HLL_EXACT_MAX * 7) / 3) * 4;
const DENSE_LENGTH = (((1 << HLL_PRECISION) * 6) / 8 / 3) * 4;
const UNIX_MS_MAX = 4_102_444_800_000;
const KINDS: ReadonlySet<unknown> = new Set(EVENT_DECISION_KINDS);
const ACTIONS: ReadonlySet<unknown> = new Set(EVENT_DECISION_ACTIONS);
const LOW_KEYS = ['status', 'method', 'httpVersion', 'scheme', 'country', 'city', 'fileType'] as const;
const WAF_KEYS = ['wafPart', 'wafExcerpt', 'wafName'] as const;

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const isInt = (v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): boolean =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max;
const isCount = (v: unknown): boolean => isInt(v, 0);
const isMinute = (v: unknown): boolean => isInt(v, 0, UNIX_MS_MAX) && (v as number) % 60_000 === 0;

/**
 * Whether `o` has exactly the `required` keys and no others but those of `optional` (each
 * present optional key's value is checked by the caller; undefined stands for absent).
 */
function hasKeys(o: Obj, required: readonly string[], optional: readonly string[] = []): boolean {
  let keys = 0;
  for (const key in o) if (Object.hasOwn(o, key)) keys++;
  let expected = required.length;
  for (const key of optional) if (Object.hasOwn(o, key)) expected++;
  if (keys !== expected) return false;
  for (const key of required) if (!Object.hasOwn(o, key) || o[key] === undefined) return false;
  return true;
}

/** A tuple of a string up to `max` and `counts` counts. */
function isNamedCounts(v: unknown, max: number, counts: number): boolean {
  if (!Array.isArray(v) || v.length !== counts + 1) return false;
  const name = v[0];
  if (typeof name !== 'string' || name.length > max) return false;
  for (let i = 1; i <= counts; i++) if (!isCount(v[i])) return false;
  return true;
}

function isLowValues(v: unknown): boolean {
  if (!Array.isArray(v) || v.length > AGGREGATE_LOW_VALUES_MAX) return false;
  for (const row of v) if (!isNamedCounts(row, 32, 5)) return false;
  return true;
}

const HH_KEYS = ['k', 'n', 'floor', 'entries'];
function isHeavyHitters(v: unknown, maxValue: number): boolean {
  if (!isObject(v) || !hasKeys(v, HH_KEYS)) return false;
  const { k, n, floor, entries } = v;
  if (!isInt(k, 1, AGGREGATE_TOP_K_MAX) || !isCount(n) || !isCount(floor)) return false;
  if (!Array.isArray(entries) || entries.length > AGGREGATE_TOP_K_MAX) return false;
  for (const e of entries) if (!isNamedCounts(e, maxValue, 7)) return false;
  // The schema's refinement: at most k entries, floor ≤ n, each error ≤ its count ≤ n.
  if (entries.length > (k as number) || (floor as number) > (n as number)) return false;
  for (const e of entries as number[][])
    if ((e[2] as number) > (e[1] as number) || (e[1] as number) > (n as number)) return false;
  return true;
}

function isHyperLogLog(v: unknown): boolean {
  if (!isObject(v)) return false;
  if (hasKeys(v, ['sparse']))
    return typeof v.sparse === 'string' && v.sparse.length <= SPARSE_MAX && BASE64.test(v.sparse);
  if (hasKeys(v, ['dense']))
    return typeof v.dense === 'string' && v.dense.length === DENSE_LENGTH && BASE64.test(v.dense);
  return false;
}

const HISTOGRAM_KEYS = ['count', 'sum', 'buckets'];
function isHistogram(v: unknown): boolean {
  if (!isObject(v) || !hasKeys(v, HISTOGRAM_KEYS) || !isCount(v.count) || !isCount(v.sum)) return false;
  const buckets = v.buckets;
  if (!Array.isArray(buckets) || buckets.length > HISTOGRAM_BUCKETS) return false;
  for (const b of buckets) {
    if (!Array.isArray(b) || b.length !== 2 || !isInt(b[0], 0, HISTOGRAM_BUCKETS - 1) || !isCount(b[1])) return false;
  }
  return true;
}

/** An optional field: absent (or undefined) or passing `check`. */
const optional = (o: Obj, key: string, check: (v: unknown) => boolean): boolean =>
  o[key] === undefined || check(o[key]);

const MINUTE_KEYS = ['minute', 'domainId', 'late', 'counters', 'low', 'requestMs', 'peakRequests', 'peakBytesOut'];
const MINUTE_OPTIONAL = ['top', 'ips', 'blockedIps', 'blacklistedIps', 'upstreamMs'];
const TOP_KEYS = ['url', 'referer', 'userAgent', 'ip'];
const TOP_OPTIONAL = ['ipBlacklisted', 'ipWaf'];

function isAggregateMinute(v: unknown): boolean {
  if (!isObject(v) || !hasKeys(v, MINUTE_KEYS, MINUTE_OPTIONAL)) return false;
  if (!isMinute(v.minute) || !isInt(v.domainId, 0) || typeof v.late !== 'boolean') return false;
  const counters = v.counters;
  if (!Array.isArray(counters) || counters.length !== 15) return false;
  for (const c of counters) if (!isCount(c)) return false;
  const low = v.low;
  if (!isObject(low) || !hasKeys(low, LOW_KEYS)) return false;
  for (const key of LOW_KEYS) if (!isLowValues(low[key])) return false;
  const top = v.top;
  if (top !== undefined && !isTop(top)) return false;
  return (
    optional(v, 'ips', isHyperLogLog) &&
    optional(v, 'blockedIps', isHyperLogLog) &&
    optional(v, 'blacklistedIps', isHyperLogLog) &&
    isHistogram(v.requestMs) &&
    optional(v, 'upstreamMs', isHistogram) &&
    isCount(v.peakRequests) &&
    isCount(v.peakBytesOut)
  );
}

function isTop(top: unknown): boolean {
  if (!isObject(top) || !hasKeys(top, TOP_KEYS, TOP_OPTIONAL)) return false;
  return !(
    !isHeavyHitters(top.url, EVENT_LIMITS.path) ||
    !isHeavyHitters(top.referer, EVENT_LIMITS.referer) ||
    !isHeavyHitters(top.userAgent, EVENT_LIMITS.userAgent) ||
    !isHeavyHitters(top.ip, 45) ||
    !optional(top, 'ipBlacklisted', (h) => isHeavyHitters(h, 45)) ||
    !optional(top, 'ipWaf', (h) => isHeavyHitters(h, 45))
  );
}

const COLLAPSED_KEYS = [
  'minute',
  'domainId',
  'ip',
  'fwKind',
  'fwRule',
  'fwAction',
  'count',
  'first',
  'last',
  'bytesIn',
  'bytesOut',
  'sample',
];
function isCollapsed(v: unknown): boolean {
  if (!isObject(v) || !hasKeys(v, COLLAPSED_KEYS)) return false;
  const sample = v.sample;
  // A sample the schema would add WAF defaults to goes to the schema (isAggregateBatch's promise).
  if (!isObject(sample) || WAF_KEYS.some((key) => sample[key] === undefined) || !isEdgeEvent(sample)) return false;
  return (
    isMinute(v.minute) &&
    isInt(v.domainId, 0) &&
    typeof v.ip === 'string' &&
    v.ip.length <= 45 &&
    (v.ip === '' || isIP(v.ip)) &&
    KINDS.has(v.fwKind) &&
    isInt(v.fwRule, 0) &&
    ACTIONS.has(v.fwAction) &&
    isInt(v.count, 1) &&
    isInt(v.first, 0, UNIX_MS_MAX) &&
    isInt(v.last, 0, UNIX_MS_MAX) &&
    isCount(v.bytesIn) &&
    isCount(v.bytesOut)
  );
}

const BATCH_KEYS = ['batchId', 'dropped', 'closedThrough', 'minutes', 'collapsed'];
export function isAggregateBatch(value: unknown): boolean {
  if (!isObject(value) || !hasKeys(value, BATCH_KEYS)) return false;
  const { batchId, dropped, closedThrough, minutes, collapsed } = value;
  if (
    typeof batchId !== 'string' ||
    !BATCH_ID.test(batchId) ||
    !isCount(dropped) ||
    !isInt(closedThrough, 0, UNIX_MS_MAX)
  )
    return false;
  if (!Array.isArray(minutes) || minutes.length > AGGREGATE_BATCH_MINUTES_MAX) return false;
  if (!Array.isArray(collapsed) || collapsed.length > AGGREGATE_BATCH_COLLAPSED_MAX) return false;
  for (const m of minutes) if (!isAggregateMinute(m)) return false;
  for (const c of collapsed) if (!isCollapsed(c)) return false;
  return true;
}
