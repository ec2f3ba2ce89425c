import { AGGREGATE_BATCH_COLLAPSED_MAX, AGGREGATE_BATCH_MINUTES_MAX } from '../routes/analytics-aggregates-limits.js';
import type { AggregateBatch, AggregateMinute, CollapsedBlocks } from '../routes/analytics-aggregates-schema.js';
import type { EdgeEvent } from '../routes/analytics-events.js';
import { StringTable } from './compact-strings.js';
import { LOW_DIM_NAMES } from './event-counters.js';
import type { HyperLogLogData } from './hyperloglog.js';

/**
 * The aggregate batch's compact form, what an agent ships (routes/analytics-aggregates.ts): the
 * batch's every string once, in `strings`, and each minute record and collapsed record as one flat
 * array of integers (a string as its index in `strings`), its fields in a fixed order, so that no
 * key name is repeated per record and a user agent or URL listed by a thousand domains' summaries
 * is sent once. A node-minute of the bench:ingest profile is ~32 MB as the previous objects and
 * several times less as this (bench/README.md).
 *
 * Strings are numbered the most used first (fewer digits for what every record repeats).
 *
 * A minute record: minute, domainId, late (0/1), the 15 counters, peakRequests, peakBytesOut,
 * ips, blockedIps, blacklistedIps (each -1 absent, else its string: "d" or "s" then the dense or
 * sparse form), requestMs (a histogram: count, sum, buckets, then per bucket its step from the
 * one before and its count),
 * 0/1 then upstreamMs, per LOW_DIM_NAMES the values then each value's row (value, then its five
 * DIM_COUNTERS; or -value - 1, then requests and bytes out alone: no blocked requests), 0/1 then
 * per TOP_NAMES a summary (k — 0 for an absent ipBlacklisted or ipWaf —, n, floor, entries, then
 * value, count, error and five side sums each).
 *
 * A collapsed record: minute, domainId, ip, fwKind, fwRule, fwAction, count, first, last, bytesIn,
 * bytesOut, then its sample's SAMPLE_FIELDS; first, last and the sample's time as milliseconds
 * from the minute. From format 3, a mask comes before the sample: bit i set, the sample's
 * SAMPLE_FROM_RECORD[i] equals the record's (time: its first) and is left out, restored on decode.
 * Format 2 (no mask) is still read, for agents of the release before.
 *
 * Decoding checks every index and number as it reads (an array too short, a string index out of
 * range, a number not a safe integer: not a batch); the decoded batch is then checked as the
 * object form is (isAggregateBatch, analytics-aggregates-check.ts).
 */

export const COMPACT_BATCH_FORMAT = 3;
/** The format before, still read (its collapsed records carry every sample field). */
export const COMPACT_BATCH_FORMAT_BEFORE = 2;

export interface CompactAggregateBatch {
  format: typeof COMPACT_BATCH_FORMAT | typeof COMPACT_BATCH_FORMAT_BEFORE;
  batchId: string;
  dropped: number;
  closedThrough: number;
  strings: string[];
  minutes: number[][];
  collapsed: number[][];
}

const TOP_NAMES = ['url', 'referer', 'userAgent', 'ip', 'ipBlacklisted', 'ipWaf'] as const;
/** The sample's fields in order, each a string ('s') or an integer ('n'). */
const SAMPLE_FIELDS = [
  ['id', 's'],
  ['time', 'n'],
  ['domainId', 'n'],
  ['ip', 's'],
  ['method', 's'],
  ['scheme', 's'],
  ['httpVersion', 's'],
  ['host', 's'],
  ['path', 's'],
  ['status', 'n'],
  ['bytesIn', 'n'],
  ['bytesOut', 'n'],
  ['requestMs', 'n'],
  ['upstreamMs', 'n'],
  ['upstreamStatus', 'n'],
  ['cacheStatus', 's'],
  ['userAgent', 's'],
  ['referer', 's'],
  ['fwKind', 's'],
  ['fwRule', 'n'],
  ['fwAction', 's'],
  ['wafPart', 's'],
  ['wafExcerpt', 's'],
  ['wafName', 's'],
] as const satisfies readonly (readonly [keyof EdgeEvent, 's' | 'n'])[];

/**
 * The sample's fields that may repeat one of its record's (the record's key): its time the record's
 * first, its bytes the record's when it counts one request.
 */
const SAMPLE_FROM_RECORD = [
  ['domainId', 'domainId'],
  ['ip', 'ip'],
  ['fwKind', 'fwKind'],
  ['fwRule', 'fwRule'],
  ['fwAction', 'fwAction'],
  ['time', 'first'],
  ['bytesIn', 'bytesIn'],
  ['bytesOut', 'bytesOut'],
] as const satisfies readonly (readonly [keyof EdgeEvent, keyof CollapsedBlocks])[];
const MASK_ALL = (1 << SAMPLE_FROM_RECORD.length) - 1;

type HeavyHittersJson = NonNullable<AggregateMinute['top']>['url'];
type HistogramJson = AggregateMinute['requestMs'];

/** The compact form of a batch (the agent's, before gzip). */
export function encodeAggregateBatch(batch: AggregateBatch): CompactAggregateBatch {
  const strings = new StringTable();
  const hll = (out: number[], h: HyperLogLogData | undefined) => {
    if (h === undefined) out.push(-1);
    else strings.ref(out, 'dense' in h ? `d${h.dense}` : `s${h.sparse}`);
  };
  const histogram = (out: number[], h: HistogramJson) => {
    out.push(h.count, h.sum, h.buckets.length);
    // Buckets ascend: each as its step from the one before.
    let previous = 0;
    for (const [bucket, count] of h.buckets) {
      out.push(bucket - previous, count);
      previous = bucket;
    }
  };
  const minutes = batch.minutes.map((m) => {
    const out: number[] = [m.minute, m.domainId, m.late ? 1 : 0, ...m.counters, m.peakRequests, m.peakBytesOut];
    hll(out, m.ips);
    hll(out, m.blockedIps);
    hll(out, m.blacklistedIps);
    histogram(out, m.requestMs);
    if (m.upstreamMs === undefined) out.push(0);
    else {
      out.push(1);
      histogram(out, m.upstreamMs);
    }
    for (const dim of LOW_DIM_NAMES) {
      const rows = m.low[dim];
      out.push(rows.length);
      for (const [value, requests, bytesOut, blocked, blacklisted, waf] of rows) {
        strings.ref(out, value);
        // No blocked requests (most values): the string's index as -index - 1 and the two counts alone.
        if (blocked === 0 && blacklisted === 0 && waf === 0) {
          out[out.length - 1] = -out[out.length - 1]! - 1;
          out.push(requests, bytesOut);
        } else out.push(requests, bytesOut, blocked, blacklisted, waf);
      }
    }
    const top = m.top;
    if (top === undefined) out.push(0);
    else {
      out.push(1);
      for (const name of TOP_NAMES) {
        const h: HeavyHittersJson | undefined = top[name];
        if (h === undefined) {
          out.push(0);
          continue;
        }
        out.push(h.k, h.n, h.floor, h.entries.length);
        for (const [value, ...counts] of h.entries) {
          strings.ref(out, value);
          out.push(...counts);
        }
      }
    }
    return out;
  });
  const collapsed = batch.collapsed.map((c) => {
    // Times as milliseconds from the record's minute.
    const out = [c.minute, c.domainId];
    strings.ref(out, c.ip);
    strings.ref(out, c.fwKind);
    out.push(c.fwRule);
    strings.ref(out, c.fwAction);
    out.push(c.count, c.first - c.minute, c.last - c.minute, c.bytesIn, c.bytesOut);
    const sample = c.sample as Record<string, unknown>;
    const record = c as unknown as Record<string, unknown>;
    let mask = 0;
    const omitted = new Set<string>();
    for (const [i, [key, from]] of SAMPLE_FROM_RECORD.entries()) {
      if (sample[key] === record[from]) {
        mask |= 1 << i;
        omitted.add(key);
      }
    }
    out.push(mask);
    for (const [key, kind] of SAMPLE_FIELDS) {
      if (omitted.has(key)) continue;
      if (kind === 's') strings.ref(out, sample[key] as string);
      else out.push(key === 'time' ? (sample[key] as number) - c.minute : (sample[key] as number));
    }
    return out;
  });
  return {
    format: COMPACT_BATCH_FORMAT,
    batchId: batch.batchId,
    dropped: batch.dropped,
    closedThrough: batch.closedThrough,
    strings: strings.finish(),
    minutes,
    collapsed,
  };
}

/** Thrown by a Reader past its array or at a value of the wrong kind. */
const BAD = new Error('not a compact aggregate batch');

class Reader {
  private at = 0;

  constructor(
    private readonly a: readonly unknown[],
    private readonly strings: readonly unknown[],
  ) {}

  num(): number {
    const v = this.a[this.at++];
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw BAD;
    return v;
  }

  /** A count of items that follow, each at least `width` numbers (bounds what an array can claim). */
  items(width: number): number {
    const n = this.num();
    if (n < 0 || this.at + n * width > this.a.length) throw BAD;
    return n;
  }

  str(): string {
    const v = this.strings[this.num()];
    if (typeof v !== 'string') throw BAD;
    return v;
  }

  hll(): HyperLogLogData | undefined {
    if (this.a[this.at] === -1) {
      this.at++;
      return undefined;
    }
    const v = this.str();
    if (v.startsWith('d')) return { dense: v.slice(1) };
    if (v.startsWith('s')) return { sparse: v.slice(1) };
    throw BAD;
  }

  /** A low dimension's row: a negative string index stands for no blocked requests (two counts follow, not five). */
  lowRow(): [string, number, number, number, number, number] {
    const i = this.num();
    const v = this.strings[i < 0 ? -i - 1 : i];
    if (typeof v !== 'string') throw BAD;
    if (i < 0) return [v, this.num(), this.num(), 0, 0, 0];
    return [v, this.num(), this.num(), this.num(), this.num(), this.num()];
  }

  histogram(): HistogramJson {
    const count = this.num();
    const sum = this.num();
    const buckets: [number, number][] = [];
    let bucket = 0;
    for (let i = this.items(2); i > 0; i--) {
      bucket += this.num();
      buckets.push([bucket, this.num()]);
    }
    return { count, sum, buckets };
  }

  get done(): boolean {
    return this.at === this.a.length;
  }
}

function decodeMinute(r: Reader): AggregateMinute {
  const minute = r.num();
  const domainId = r.num();
  const late = r.num();
  if (late !== 0 && late !== 1) throw BAD;
  const counters: number[] = [];
  for (let i = 0; i < 15; i++) counters.push(r.num());
  const peakRequests = r.num();
  const peakBytesOut = r.num();
  const ips = r.hll();
  const blockedIps = r.hll();
  const blacklistedIps = r.hll();
  const requestMs = r.histogram();
  const hasUpstream = r.num();
  const upstreamMs = hasUpstream === 1 ? r.histogram() : undefined;
  if (hasUpstream !== 0 && hasUpstream !== 1) throw BAD;
  const low: Record<string, [string, number, number, number, number, number][]> = {};
  for (const dim of LOW_DIM_NAMES) {
    const rows: [string, number, number, number, number, number][] = [];
    for (let i = r.items(3); i > 0; i--) rows.push(r.lowRow());
    low[dim] = rows;
  }
  const hasTop = r.num();
  if (hasTop !== 0 && hasTop !== 1) throw BAD;
  let top: Record<string, HeavyHittersJson> | undefined;
  if (hasTop === 1) {
    top = {};
    for (const [i, name] of TOP_NAMES.entries()) {
      const k = r.num();
      if (k === 0 && i >= 4) continue;
      const n = r.num();
      const floor = r.num();
      const entries: HeavyHittersJson['entries'] = [];
      for (let e = r.items(8); e > 0; e--) {
        entries.push([r.str(), r.num(), r.num(), r.num(), r.num(), r.num(), r.num(), r.num()]);
      }
      top[name] = { k, n, floor, entries };
    }
  }
  if (!r.done) throw BAD;
  const m: Record<string, unknown> = { minute, domainId, late: late === 1, counters, low };
  if (top !== undefined) m.top = top;
  if (ips !== undefined) m.ips = ips;
  if (blockedIps !== undefined) m.blockedIps = blockedIps;
  if (blacklistedIps !== undefined) m.blacklistedIps = blacklistedIps;
  m.requestMs = requestMs;
  if (upstreamMs !== undefined) m.upstreamMs = upstreamMs;
  m.peakRequests = peakRequests;
  m.peakBytesOut = peakBytesOut;
  return m as AggregateMinute;
}

function decodeCollapsed(r: Reader, format: number): CollapsedBlocks {
  const c: Record<string, unknown> = {
    minute: r.num(),
    domainId: r.num(),
    ip: r.str(),
    fwKind: r.str(),
    fwRule: r.num(),
    fwAction: r.str(),
    count: r.num(),
    first: r.num(),
    last: r.num(),
    bytesIn: r.num(),
    bytesOut: r.num(),
  };
  const minute = c.minute as number;
  c.first = (c.first as number) + minute;
  c.last = (c.last as number) + minute;
  const mask = format === COMPACT_BATCH_FORMAT_BEFORE ? 0 : r.num();
  if (mask < 0 || mask > MASK_ALL) throw BAD;
  const restored = new Map<string, unknown>();
  for (const [i, [key, from]] of SAMPLE_FROM_RECORD.entries()) if (mask & (1 << i)) restored.set(key, c[from]);
  const sample: Record<string, unknown> = {};
  for (const [key, kind] of SAMPLE_FIELDS) {
    if (restored.has(key)) sample[key] = restored.get(key);
    else if (key === 'time') sample.time = r.num() + minute;
    else sample[key] = kind === 's' ? r.str() : r.num();
  }
  if (!r.done) throw BAD;
  c.sample = sample;
  return c as CollapsedBlocks;
}

const COMPACT_KEYS = ['format', 'batchId', 'dropped', 'closedThrough', 'strings', 'minutes', 'collapsed'];
const decoded = new WeakMap<object, AggregateBatch | null>();

/**
 * The object form of a compact batch, or null when it is not one (its envelope is checked by the
 * caller's isAggregateBatch on the result: batch id, counts, limits). Remembered per object: the
 * node API's check and its ingest decode the same body once.
 */
export function decodeAggregateBatch(value: unknown): AggregateBatch | null {
  if (value === null || typeof value !== 'object') return null;
  const known = decoded.get(value);
  if (known !== undefined) return known;
  let batch: AggregateBatch | null = null;
  try {
    batch = decodeFresh(value as Record<string, unknown>);
  } catch (err) {
    if (err !== BAD) throw err;
  }
  decoded.set(value, batch);
  return batch;
}

function decodeFresh(v: Record<string, unknown>): AggregateBatch | null {
  let keys = 0;
  for (const key in v) if (Object.hasOwn(v, key)) keys++;
  if (keys !== COMPACT_KEYS.length || !COMPACT_KEYS.every((k) => Object.hasOwn(v, k))) return null;
  const { format, batchId, dropped, closedThrough, strings, minutes, collapsed } = v;
  if (format !== COMPACT_BATCH_FORMAT && format !== COMPACT_BATCH_FORMAT_BEFORE) return null;
  if (!Array.isArray(strings) || !Array.isArray(minutes)) return null;
  if (!Array.isArray(collapsed)) return null;
  if (minutes.length > AGGREGATE_BATCH_MINUTES_MAX || collapsed.length > AGGREGATE_BATCH_COLLAPSED_MAX) return null;
  const rows = (list: unknown[], decode: (r: Reader) => unknown) =>
    list.map((a) => {
      if (!Array.isArray(a)) throw BAD;
      return decode(new Reader(a, strings));
    });
  return {
    batchId,
    dropped,
    closedThrough,
    minutes: rows(minutes, decodeMinute),
    collapsed: rows(collapsed, (r) => decodeCollapsed(r, format)),
  } as AggregateBatch;
}

/** Whether `value` is a compact batch whose object form the batch schema takes unchanged (the node API's check). */
export function isCompactAggregateBatch(value: unknown, isBatch: (batch: unknown) => boolean): boolean {
  const batch = decodeAggregateBatch(value);
  return batch !== null && isBatch(batch);
}
