import { z } from 'zod';
import { l4CounterBatchSchema } from '../edge/l4-counters.js';
import { dataOf, defineRoute, nodeAccess } from '../route.js';
import { EVENT_BATCH_CONTENT_TYPE } from './analytics-events.js';

/**
 * The nodes' layer-4 counter batches (contract edge/l4-counters.ts; docs/decisions.md "Layer-4
 * counters"): shipped as the request events are — gzip of the batch's JSON (the events' content
 * type), signed over the gzip bytes, acknowledged once stored, a batch sent again counted once.
 * The control plane places each record itself: the site of a port id is the site that owns the
 * port, and only when that site belongs to the node's operator (a node cannot put numbers into a
 * site it does not serve); a node never names a site.
 */
export const shipNodeL4Counters = defineRoute({
  id: 'edge.l4Counters',
  api: 'edge',
  method: 'POST',
  path: '/l4-counters',
  access: nodeAccess,
  // 101005 with HTTP 503 and Retry-After: the control plane has as many batches in flight as it takes.
  codes: [101005],
  summary: `A node ships a batch of layer-4 counter records (${EVENT_BATCH_CONTENT_TYPE}: gzip of the batch's JSON, signed over the gzip bytes); the answer acknowledges it, and a batch sent again counts once`,
  tags: ['edge'],
  request: { body: l4CounterBatchSchema },
  response: dataOf(
    z.object({
      /** Records stored by this call (0 for a batch already taken). */
      stored: z.number().int(),
      /** The batch had been taken before (a retry after a lost answer). */
      duplicate: z.boolean(),
    }),
  ),
});

export const l4CounterRoutes = { shipNodeL4Counters } as const;
