import { shipNodeAggregates } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { AggregateIngestService } from './aggregate-ingest.service.js';

/** The node API's aggregate call (contract routes/analytics-aggregates.ts): a node ships, the ingest merges once. */
export function bindAggregateRoutes(binder: Binder, ingest: AggregateIngestService): void {
  binder.bind(shipNodeAggregates, async ({ body }, { node }) => ({ data: await ingest.ingest(node.nodeId, body) }));
}
