import { shipNodeAggregates } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { NodeIngestAdmission } from '../../platform/http/node-admission.js';
import type { AggregateIngestService } from './aggregate-ingest.service.js';

/**
 * The node API's aggregate call (contract routes/analytics-aggregates.ts): a node ships, the
 * ingest merges once. Admission (platform/http/node-admission.ts) checks the node's signature over
 * the headers and takes a place before the body is read; a batch whose node went before it was
 * written is not written.
 */
export function bindAggregateRoutes(
  binder: Binder,
  ingest: AggregateIngestService,
  admission: NodeIngestAdmission,
): void {
  binder.bind(
    shipNodeAggregates,
    async ({ body }, { node, signal }) => {
      signal.throwIfAborted();
      return { data: await ingest.ingest(node.nodeId, body, signal) };
    },
    { admit: admission.admit },
  );
}
