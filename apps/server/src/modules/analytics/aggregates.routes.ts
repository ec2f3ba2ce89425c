import { shipNodeAggregates } from '@rampart/contract';
import { hasNodeSignatureForm } from '@rampart/contract/node-signing';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Binder } from '../../platform/http/bind-route.js';
import { InFlightLimit } from '../../platform/http/in-flight-limit.js';
import type { AggregateIngestService } from './aggregate-ingest.service.js';

/**
 * Aggregate batches taken at once (arrived, not yet answered): a batch is a node's 15 s partial
 * or minute close, up to megabytes of JSON, merged a group at a time; more wait past the nodes'
 * 60 s timeout and come again while the abandoned copies are still written (docs/decisions
 * "Load shedding of the nodes' aggregates").
 */
export const AGGREGATE_INGEST_MAX_IN_FLIGHT = 16;
/**
 * An admitted batch's body must move: at least the limit's `minBytes` (16 KiB) in every window of
 * this length until it is all there, or its connection is cut (a stalled or trickled body holds a
 * place this long at most; a slow link that keeps sending is never cut).
 */
export const AGGREGATE_BODY_MS = 30_000;

/**
 * The node API's aggregate call (contract routes/analytics-aggregates.ts): a node ships, the
 * ingest merges once. A request without a signed request's headers (their form, a timestamp
 * within the skew) is refused (101013) before it takes a place; beyond `limit` batches in flight
 * one more is refused before its body is read (503, Retry-After); a place whose body stalls (less
 * than the limit's `minBytes` in a `bodyMs` window) is freed (its connection cut); a batch whose node went before it was
 * written is not written.
 */
export function bindAggregateRoutes(
  binder: Binder,
  ingest: AggregateIngestService,
  clock: Clock,
  limit = new InFlightLimit(AGGREGATE_INGEST_MAX_IN_FLIGHT, undefined, AGGREGATE_BODY_MS),
): void {
  binder.bind(
    shipNodeAggregates,
    async ({ body }, { node, signal }) => {
      signal.throwIfAborted();
      return { data: await ingest.ingest(node.nodeId, body, signal) };
    },
    {
      admit: (request, reply) => {
        if (!hasNodeSignatureForm(request.headers, clock())) throw new AppError(101013);
        limit.admit(request, reply);
      },
    },
  );
}
