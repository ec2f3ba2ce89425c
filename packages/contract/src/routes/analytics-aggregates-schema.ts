import { z } from 'zod';
import { ROLLUP_COUNTERS } from '../aggregates/event-counters.js';
import { HISTOGRAM_BUCKETS } from '../aggregates/histogram.js';
import { HLL_EXACT_MAX, HLL_PRECISION } from '../aggregates/hyperloglog.js';
import { isIP } from '../validators/ip.js';
import {
  AGGREGATE_BATCH_COLLAPSED_MAX,
  AGGREGATE_BATCH_MINUTES_MAX,
  AGGREGATE_LOW_VALUES_MAX,
  AGGREGATE_TOP_K_MAX,
} from './analytics-aggregates-limits.js';
import {
  EVENT_DECISION_ACTIONS,
  EVENT_DECISION_KINDS,
  EVENT_LIMITS,
  edgeEventBatchSchema,
  edgeEventSchema,
} from './analytics-events.js';

/** The aggregate batch's object form and its parts (analytics-aggregates.ts, which also takes the compact form). */

export const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
export const unixMs = z.number().int().min(0).max(4_102_444_800_000);
const minuteMs = unixMs.refine((t) => t % 60_000 === 0, { message: 'not a whole minute' });

/** A tuple of one `count` per element of `T`, as long as `T`. */
type CountsOf<T extends readonly unknown[]> = { -readonly [K in keyof T]: typeof count };

/** ROLLUP_COUNTERS in their order (aggregates/event-counters.ts), one count each. */
const rollupCounters = z.tuple(ROLLUP_COUNTERS.map(() => count) as CountsOf<typeof ROLLUP_COUNTERS>);

/** One value of a low-cardinality dimension and its DIM_COUNTERS (requests, bytes out, blocked, blacklisted, WAF). */
const lowValues = z
  .array(z.tuple([z.string().max(32), count, count, count, count, count]))
  .max(AGGREGATE_LOW_VALUES_MAX);

/** A heavy-hitter summary (aggregates/heavy-hitters.ts): entries [value, count, error, ...DIM_COUNTERS]. */
const heavyHitters = (maxValue: number) =>
  z
    .strictObject({
      k: z.number().int().min(1).max(AGGREGATE_TOP_K_MAX),
      n: count,
      floor: count,
      entries: z
        .array(z.tuple([z.string().max(maxValue), count, count, count, count, count, count, count]))
        .max(AGGREGATE_TOP_K_MAX),
    })
    .refine((h) => h.entries.length <= h.k && h.floor <= h.n && h.entries.every((e) => e[2] <= e[1] && e[1] <= h.n), {
      message: 'not a heavy-hitter summary',
    });

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** A HyperLogLog (aggregates/hyperloglog.ts): sparse (exact) or dense registers. */
const hyperLogLog = z.union([
  z.strictObject({
    sparse: z
      .string()
      .max(Math.ceil((HLL_EXACT_MAX * 7) / 3) * 4)
      .regex(BASE64),
  }),
  z.strictObject({
    dense: z
      .string()
      .length((((1 << HLL_PRECISION) * 6) / 8 / 3) * 4)
      .regex(BASE64),
  }),
]);

/** A time histogram (aggregates/histogram.ts): [bucket, count] ascending. */
const histogram = z.strictObject({
  count,
  sum: count,
  buckets: z
    .array(
      z.tuple([
        z
          .number()
          .int()
          .min(0)
          .max(HISTOGRAM_BUCKETS - 1),
        count,
      ]),
    )
    .max(HISTOGRAM_BUCKETS),
});

/** One minute of one domain at one node: the whole minute, a partial of it, or a correction (records of a minute sum). */
export const aggregateMinuteSchema = z.strictObject({
  /** The minute's start, unix milliseconds (UTC). */
  minute: minuteMs,
  /** 0 for requests that matched no domain. */
  domainId: z.number().int().min(0),
  /** A correction: requests that reached the aggregator after it had closed the minute (sums with the rest). */
  late: z.boolean(),
  counters: rollupCounters,
  low: z.strictObject({
    status: lowValues,
    method: lowValues,
    httpVersion: lowValues,
    scheme: lowValues,
    country: lowValues,
    city: lowValues,
    fileType: lowValues,
  }),
  /**
   * Heavy hitters by requests of each high-cardinality dimension, and of addresses by blacklisted
   * and WAF blocks: the whole minute's, in its closing record (and a correction's), absent from a
   * partial (aggregates/minute-sketches.ts).
   */
  top: z
    .strictObject({
      url: heavyHitters(EVENT_LIMITS.path),
      referer: heavyHitters(EVENT_LIMITS.referer),
      userAgent: heavyHitters(EVENT_LIMITS.userAgent),
      ip: heavyHitters(45),
      ipBlacklisted: heavyHitters(45).optional(),
      ipWaf: heavyHitters(45).optional(),
    })
    .optional(),
  /** Distinct client addresses: all, those with a blocked request, those with a blacklisted one (with `top`). */
  ips: hyperLogLog.optional(),
  blockedIps: hyperLogLog.optional(),
  blacklistedIps: hyperLogLog.optional(),
  /** Milliseconds from first byte to last (every request), and the origin's (requests that asked one). */
  requestMs: histogram,
  upstreamMs: histogram.optional(),
  /**
   * The busiest second of the node's minute (its requests, and the bytes of its busiest second by
   * bytes), as what it grew by since the minute's records before this one (partials, corrections):
   * the records of a node's minute sum to its busiest second, as every other field sums.
   */
  peakRequests: count,
  peakBytesOut: count,
});
export type AggregateMinute = z.infer<typeof aggregateMinuteSchema>;

/**
 * Blocked requests of one minute, domain, address and decision (kind, rule, action) as one log
 * record: how many, when the first and the last came, their bytes and the first one whole. `ip`
 * "" gathers a minute's decisions past the agent's cap of records per minute and domain.
 */
export const collapsedBlocksSchema = z.strictObject({
  minute: minuteMs,
  domainId: z.number().int().min(0),
  ip: z
    .string()
    .max(45)
    .refine((s) => s === '' || isIP(s), { message: 'wrongFormat' }),
  fwKind: z.enum(EVENT_DECISION_KINDS),
  fwRule: z.number().int().min(0),
  fwAction: z.enum(EVENT_DECISION_ACTIONS),
  count: z.number().int().min(1),
  first: unixMs,
  last: unixMs,
  bytesIn: count,
  bytesOut: count,
  sample: edgeEventSchema,
});
export type CollapsedBlocks = z.infer<typeof collapsedBlocksSchema>;

/** A batch of aggregates as the agent spools and ships it. */
export const aggregateBatchSchema = z.strictObject({
  /** Unique per node for ever, as an event batch's (the spool's id and sequence). */
  batchId: edgeEventBatchSchema.shape.batchId,
  /** Requests counted in batches the spool dropped (full) since the previous batch was cut. */
  dropped: count,
  /** Every minute before this (unix ms) was closed at the node when the batch was cut: later records for them are corrections. */
  closedThrough: unixMs,
  minutes: z.array(aggregateMinuteSchema).max(AGGREGATE_BATCH_MINUTES_MAX),
  collapsed: z.array(collapsedBlocksSchema).max(AGGREGATE_BATCH_COLLAPSED_MAX),
});
export type AggregateBatch = z.infer<typeof aggregateBatchSchema>;
