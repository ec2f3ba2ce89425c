import { createHash } from 'node:crypto';
import type http from 'node:http';
import { gunzipSync } from 'node:zlib';
import {
  AGGREGATE_BATCH_JSON_MAX_BYTES,
  type AggregateBatch,
  aggregateBatchSchema,
  decodeAggregateBatch,
  EDGE_API_BASE,
  type EdgeEventBatch,
  EVENT_BATCH_CONTENT_TYPE,
  EVENT_BATCH_JSON_MAX_BYTES,
  edgeEventBatchSchema,
  shipNodeAggregates,
  shipNodeEvents,
} from '@rampart/contract';
import type { z } from 'zod';
import type { FakeHttp } from './fake-control-plane-planes.js';

/*
 * The fake control plane's batch routes (fake-control-plane.ts composes them): the nodes' event
 * and aggregate batches, taken as the real node API takes them, and failures a test asks for.
 */

/** One batch sent, with its answer. */
export interface BatchAttempt {
  batchId: string;
  sha256: string;
  status: number;
}

/** What a test calls on the fake's batch routes (part of FakeControlPlane). */
export interface FakeBatches {
  /** Event batches taken (POST /events, each batchId once, in order), and every attempt with its answer. */
  eventBatches: (EdgeEventBatch & { nodeId: number })[];
  eventAttempts: BatchAttempt[];
  /**
   * Answers the next `count` event batches with 500 (the agent keeps and resends them), or with
   * 503 and this Retry-After (seconds) as a busy control plane does.
   */
  failEvents(count: number, retryAfterSeconds?: number): void;
  /** Aggregate batches taken (POST /aggregates, each batchId once, in order), and every attempt with its answer. */
  aggregateBatches: (AggregateBatch & { nodeId: number })[];
  aggregateAttempts: BatchAttempt[];
  /** Answers the next `count` aggregate batches with 500 (the agent keeps and resends them). */
  failAggregates(count: number): void;
}

/** The event and aggregate batch routes of one fake control plane. */
export function batchReceiver({ verify, send, invalidToken }: FakeHttp): FakeBatches & {
  handle(route: string, req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): boolean;
} {
  const eventBatches: (EdgeEventBatch & { nodeId: number })[] = [];
  const eventAttempts: BatchAttempt[] = [];
  const aggregateBatches: (AggregateBatch & { nodeId: number })[] = [];
  const aggregateAttempts: BatchAttempt[] = [];
  /** Batches of each kind refused on purpose (500) before one is taken. */
  const failuresLeft = { events: 0, aggregates: 0 };
  /** With failures left: answered 503 with this Retry-After (seconds) instead of 500. */
  const retryAfter: Record<keyof typeof failuresLeft, number | undefined> = {
    events: undefined,
    aggregates: undefined,
  };

  /**
   * A batch of events or aggregates, as the real control plane takes one: signed over the gzip
   * bytes, inflated with a bound, deduplicated by batchId; each attempt is recorded with its answer.
   */
  const receiveBatch = <B extends { batchId: string }>(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    raw: Buffer,
    kind: {
      schema: z.ZodType<B>;
      maxBytes: number;
      attempts: BatchAttempt[];
      batches: (B & { nodeId: number })[];
      failures: keyof typeof failuresLeft;
      stored: (batch: B) => number;
      /** What the route takes before the batch's own schema (the compact form decoded): null when it is refused. */
      decode?: (json: unknown) => unknown;
    },
  ) => {
    const nodeId = verify(req, raw);
    if (nodeId === null) return invalidToken(res);
    const attempt = { batchId: '', sha256: createHash('sha256').update(raw).digest('hex'), status: 200 };
    kind.attempts.push(attempt);
    const answer = (status: number, value: unknown) => {
      attempt.status = status;
      send(res, status, value);
    };
    if (req.headers['content-type'] !== EVENT_BATCH_CONTENT_TYPE) {
      return answer(415, { code: 101003, message: 'content type', extra: null });
    }
    let input: ReturnType<typeof kind.schema.safeParse>;
    try {
      const json = gunzipSync(raw, { maxOutputLength: kind.maxBytes }).toString('utf8');
      const value = kind.decode ? kind.decode(JSON.parse(json)) : JSON.parse(json);
      if (value === null) return answer(400, { code: 101003, message: 'invalid', extra: null });
      input = kind.schema.safeParse(value);
    } catch {
      return answer(400, { code: 101003, message: 'not a gzip JSON batch', extra: null });
    }
    if (!input.success) return answer(400, { code: 101003, message: 'invalid', extra: input.error.issues });
    const batch = input.data;
    attempt.batchId = batch.batchId;
    if (failuresLeft[kind.failures] > 0) {
      failuresLeft[kind.failures]--;
      const seconds = retryAfter[kind.failures];
      if (seconds !== undefined) {
        res.setHeader('retry-after', String(seconds));
        return answer(503, { code: 101005, message: 'Database Execution Error', extra: null });
      }
      return answer(500, { code: 100001, message: 'failing on purpose', extra: null });
    }
    if (kind.batches.some((b) => b.nodeId === nodeId && b.batchId === batch.batchId)) {
      return answer(200, { data: { stored: 0, duplicate: true } });
    }
    kind.batches.push({ ...batch, nodeId });
    return answer(200, { data: { stored: kind.stored(batch), duplicate: false } });
  };

  /** Answers POST /events and /aggregates; false for any other route. */
  const handle = (route: string, req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): boolean => {
    if (route === `POST ${EDGE_API_BASE}${shipNodeEvents.path}`) {
      receiveBatch(req, res, raw, {
        schema: edgeEventBatchSchema,
        maxBytes: EVENT_BATCH_JSON_MAX_BYTES,
        attempts: eventAttempts,
        batches: eventBatches,
        failures: 'events',
        stored: (batch) => batch.events.length,
      });
      return true;
    }
    if (route === `POST ${EDGE_API_BASE}${shipNodeAggregates.path}`) {
      receiveBatch(req, res, raw, {
        schema: aggregateBatchSchema,
        maxBytes: AGGREGATE_BATCH_JSON_MAX_BYTES,
        attempts: aggregateAttempts,
        batches: aggregateBatches,
        failures: 'aggregates',
        stored: (batch) => batch.minutes.length + batch.collapsed.length,
        // As the node API: the compact form (decoded) or the object form.
        decode: (json) => {
          const shipped = shipNodeAggregates.request.body.safeParse(json);
          if (!shipped.success) return null;
          return 'format' in shipped.data ? decodeAggregateBatch(shipped.data) : shipped.data;
        },
      });
      return true;
    }
    return false;
  };

  return {
    handle,
    eventBatches,
    eventAttempts,
    failEvents(count: number, retryAfterSeconds?: number) {
      failuresLeft.events = count;
      retryAfter.events = retryAfterSeconds;
    },
    aggregateBatches,
    aggregateAttempts,
    failAggregates(count: number) {
      failuresLeft.aggregates = count;
    },
  };
}
