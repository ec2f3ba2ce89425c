import { shipNodeL4Counters } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { L4IngestService } from './l4-ingest.service.js';

/** The layer-4 counters' calls: the nodes' batches in (docs/decisions.md "Layer-4 counters"). */
export function bindL4StatisticsRoutes(binder: Binder, ingest: L4IngestService): void {
  binder.bind(shipNodeL4Counters, async ({ body }, { node }) => ({ data: await ingest.ingest(node.nodeId, body) }));
}
