import { z } from 'zod';
import {
  COMPACT_BATCH_FORMAT,
  COMPACT_BATCH_FORMAT_BEFORE,
  type CompactAggregateBatch,
  isCompactAggregateBatch,
} from '../aggregates/compact-batch.js';
import { dataOf, defineRoute, nodeAccess } from '../route.js';
import { isAggregateBatch } from './analytics-aggregates-check.js';
import { AGGREGATE_BATCH_COLLAPSED_MAX, AGGREGATE_BATCH_MINUTES_MAX } from './analytics-aggregates-limits.js';
import { type AggregateBatch, aggregateBatchSchema, count, unixMs } from './analytics-aggregates-schema.js';
import { EVENT_BATCH_CONTENT_TYPE, edgeEventBatchSchema } from './analytics-events.js';

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
export {
  type AggregateBatch,
  type AggregateMinute,
  aggregateBatchSchema,
  aggregateMinuteSchema,
  type CollapsedBlocks,
  collapsedBlocksSchema,
} from './analytics-aggregates-schema.js';

/**
 * A batch in its compact form (aggregates/compact-batch.ts: every string once, each record a flat
 * array of integers), what an agent ships since it replaced the object form above; valid when its
 * object form is (the refinement decodes it and checks that).
 */
export const compactAggregateBatchSchema = z
  .strictObject({
    format: z.union([z.literal(COMPACT_BATCH_FORMAT), z.literal(COMPACT_BATCH_FORMAT_BEFORE)]),
    batchId: edgeEventBatchSchema.shape.batchId,
    dropped: count,
    closedThrough: unixMs,
    strings: z.array(z.string()),
    minutes: z.array(z.array(z.number().int())).max(AGGREGATE_BATCH_MINUTES_MAX),
    collapsed: z.array(z.array(z.number().int())).max(AGGREGATE_BATCH_COLLAPSED_MAX),
  })
  .refine((b) => isCompactAggregateBatch(b, isAggregateBatch), { message: 'not an aggregate batch' });

/** What a node may ship: the compact form, or the object form of agents from before it (taken for one more release). */
export type ShippedAggregateBatch = AggregateBatch | CompactAggregateBatch;

const isShippedAggregateBatch = (value: unknown): boolean =>
  isAggregateBatch(value) || isCompactAggregateBatch(value, isAggregateBatch);

/**
 * A node ships a batch of aggregates as it ships event batches: gzip of the batch's JSON (its
 * compact form, or the object form of older agents; the events' content type), signed over the gzip bytes, acknowledged once merged, a batch sent again
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
  request: {
    body: z.union([compactAggregateBatchSchema, aggregateBatchSchema]),
    bodyCheck: isShippedAggregateBatch,
  },
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
