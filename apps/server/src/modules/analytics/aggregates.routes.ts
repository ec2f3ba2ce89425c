import { shipNodeAggregates } from '@rampart/contract';
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
 * The node API's aggregate call (contract routes/analytics-aggregates.ts): a node ships, the
 * ingest merges once. Beyond `limit` batches in flight one more is refused before its body is
 * read (503, Retry-After); a batch whose node went before it was written is not written.
 */
export function bindAggregateRoutes(
  binder: Binder,
  ingest: AggregateIngestService,
  limit = new InFlightLimit(AGGREGATE_INGEST_MAX_IN_FLIGHT),
): void {
  binder.bind(
    shipNodeAggregates,
    async ({ body }, { node, signal }) => {
      signal.throwIfAborted();
      return { data: await ingest.ingest(node.nodeId, body, signal) };
    },
    { admit: limit.admit },
  );
}
