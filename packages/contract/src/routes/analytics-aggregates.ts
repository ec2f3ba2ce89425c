import { z } from 'zod';
import { HISTOGRAM_BUCKETS } from '../aggregates/histogram.js';
import { HLL_EXACT_MAX, HLL_PRECISION } from '../aggregates/hyperloglog.js';
import { dataOf, defineRoute, nodeAccess } from '../route.js';
import { isIP } from '../validators/ip.js';
import { isAggregateBatch } from './analytics-aggregates-check.js';
import {
  AGGREGATE_BATCH_COLLAPSED_MAX,
  AGGREGATE_BATCH_MINUTES_MAX,
  AGGREGATE_LOW_VALUES_MAX,
  AGGREGATE_TOP_K_MAX,
} from './analytics-aggregates-limits.js';
import {
  EVENT_BATCH_CONTENT_TYPE,
  EVENT_DECISION_ACTIONS,
  EVENT_DECISION_KINDS,
  EVENT_LIMITS,
  edgeEventBatchSchema,
  edgeEventSchema,
} from './analytics-events.js';

/**
 * What a node ships instead of one event per request for the statistics: per minute (UTC) and
 * domain, the counters every rollup holds, the low-cardinality dimensions per value, mergeable
 * summaries of the high-cardinality ones (heavy hitters), of the distinct client addresses
 * (HyperLogLog) and of the times (histograms), the per-second peaks, and the blocked requests
 * collapsed per address and rule for the logs. The agent builds them (aggregates/
 * minute-aggregator.ts) and spools, ships and retries a batch as it does event batches; the
 * control plane places each minute's domain (its site; the node's zone) as it places events, and
 * takes a batch once by its id (its ledger). Everything here sums (or merges) into the rollups,
 * so a correction sent later for a minute is one more partial row, and so is a partial minute (the
 * agent cuts its open minutes every ~15 s so that statistics show within seconds; later records of
 * the minute carry only what came since).
 */

export {
  AGGREGATE_BATCH_COLLAPSED_MAX,
  AGGREGATE_BATCH_JSON_MAX_BYTES,
  AGGREGATE_BATCH_MINUTES_MAX,
  AGGREGATE_LOW_VALUES_MAX,
  AGGREGATE_TOP_K,
  AGGREGATE_TOP_K_MAX,
} from './analytics-aggregates-limits.js';

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const unixMs = z.number().int().min(0).max(4_102_444_800_000);
const minuteMs = unixMs.refine((t) => t % 60_000 === 0, { message: 'not a whole minute' });

/** ROLLUP_COUNTERS in their order (aggregates/event-counters.ts). */
const rollupCounters = z.tuple([
  count,
  count,
  count,
  count,
  count,
  count,
  count,
  count,
  count,
  count,
  count,
  count,
  count,
  count,
  count,
]);

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
  /** Heavy hitters by requests of each high-cardinality dimension, and of addresses by blacklisted and WAF blocks. */
  top: z.strictObject({
    url: heavyHitters(EVENT_LIMITS.path),
    referer: heavyHitters(EVENT_LIMITS.referer),
    userAgent: heavyHitters(EVENT_LIMITS.userAgent),
    ip: heavyHitters(45),
    ipBlacklisted: heavyHitters(45).optional(),
    ipWaf: heavyHitters(45).optional(),
  }),
  /** Distinct client addresses: all, those with a blocked request, those with a blacklisted one. */
  ips: hyperLogLog,
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

/**
 * A node ships a batch of aggregates as it ships event batches: gzip of the batch's JSON (the
 * events' content type), signed over the gzip bytes, acknowledged once merged, a batch sent again
 * counted once (the control plane's ledger of batch ids). The control plane places each minute's
 * domain itself (its site, only a site of the node's operator; the node's zone), as for events.
 */
export const shipNodeAggregates = defineRoute({
  id: 'edge.aggregates',
  api: 'edge',
  method: 'POST',
  path: '/aggregates',
  access: nodeAccess,
  // 101005 with HTTP 503 and Retry-After: the control plane has as many batches in flight as it takes.
  codes: [101005],
  summary: `A node ships a batch of per-minute aggregates (${EVENT_BATCH_CONTENT_TYPE}: gzip of the batch's JSON, signed over the gzip bytes); the answer acknowledges it, and a batch sent again counts once`,
  tags: ['edge'],
  request: { body: aggregateBatchSchema, bodyCheck: isAggregateBatch },
  response: dataOf(
    z.object({
      /** Minute records and collapsed records merged by this call (0 for a batch already taken). */
      stored: z.number().int(),
      /** The batch had been taken before (a retry after a lost answer). */
      duplicate: z.boolean(),
    }),
  ),
});

export const analyticsAggregateRoutes = { shipNodeAggregates } as const;
