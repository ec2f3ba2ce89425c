import { gzipSync } from 'node:zlib';
import {
  type AggregateBatch,
  type EdgeEvent,
  type EdgeEventBatch,
  EVENT_BATCH_CONTENT_TYPE,
  MinuteAggregator,
  routeUrl,
  shipNodeAggregates,
  shipNodeEvents,
} from '@rampart/contract';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import { edgeEvent as contractEdgeEvent } from '@rampart/contract/testing';
import type { FastifyInstance } from 'fastify';
import type { NodeIdentity } from './call.js';

let serial = 0;

/** An event as an edge node would log it (a node's id form, no domain); `over` sets what a test needs. */
export function edgeEvent(over: Partial<EdgeEvent> & Pick<EdgeEvent, 'time'>): EdgeEvent {
  serial += 1;
  return contractEdgeEvent({
    id: `edge-1-1-test-${serial}`,
    domainId: 0,
    ip: '198.51.100.7',
    httpVersion: '1.1',
    host: 'www.example.test',
    path: '/index.html',
    userAgent: 'test-agent',
    ...over,
  });
}

/** Ships a batch as the agent does: gzip of its JSON, signed over the gzip bytes. */
export function shipBatch(
  app: FastifyInstance,
  node: NodeIdentity,
  batch: EdgeEventBatch,
  options: { nowMs?: number; body?: Buffer } = {},
) {
  return postSigned(app, node, routeUrl(shipNodeEvents), options.body ?? gzipSync(JSON.stringify(batch)), options);
}

/** Ships an aggregate batch as the agent does: gzip of its JSON, signed over the gzip bytes. */
export function shipAggregateBatch(
  app: FastifyInstance,
  node: NodeIdentity,
  /** A batch in either form the node API takes: the object form or the compact one. */
  batch: AggregateBatch | object,
  options: { nowMs?: number } = {},
) {
  return postSigned(app, node, routeUrl(shipNodeAggregates), gzipSync(JSON.stringify(batch)), options);
}

function postSigned(app: FastifyInstance, node: NodeIdentity, url: string, body: Buffer, options: { nowMs?: number }) {
  return app.inject({
    method: 'POST',
    url,
    payload: body,
    headers: {
      'content-type': EVENT_BATCH_CONTENT_TYPE,
      ...signedNodeHeaders({ nodeId: node.nodeId, nodeSecret: node.secret }, 'POST', url, body, options),
    },
  });
}

/**
 * Ships `events` as a node with eventAggregates does: counted by the agent's own minute aggregator
 * into one aggregate batch (`batchId`), gzip of its JSON, signed — no raw event for them.
 */
export function shipAggregated(
  app: FastifyInstance,
  node: NodeIdentity,
  batchId: string,
  events: readonly EdgeEvent[],
  options: { nowMs?: number } = {},
) {
  const a = new MinuteAggregator();
  for (const e of events) a.add(e);
  a.closeAll();
  const batch = { batchId, dropped: 0, closedThrough: 0, minutes: a.take().minutes, collapsed: [] };
  return shipAggregateBatch(app, node, batch, options);
}

/**
 * The shop's events that the log search's and the log export's tests both ship in the hour from
 * `hour`: a page, a HEAD that found nothing, a WAF deny on the query string, and one just after the
 * hour (never found).
 */
export function shopHourEvents(hour: number, domainId: number) {
  const at = (minutes: number) => hour + minutes * 60_000;
  const injection = "1' union select password from users--";
  return {
    firsts: [
      edgeEvent({ id: 'shop-1', time: at(1), domainId, path: '/index.html' }),
      edgeEvent({ id: 'shop-2', time: at(2), domainId, path: '/a.png', status: 404, method: 'HEAD' }),
      edgeEvent({
        id: 'shop-waf-1',
        time: at(3),
        domainId,
        ip: '203.0.113.9',
        status: 403,
        path: `/search?q=${injection}`,
        fwKind: 'waf',
        fwRule: 100_012,
        fwAction: 'deny',
        wafPart: 'query',
        wafExcerpt: injection,
        wafName: 'q',
      }),
    ],
    late: edgeEvent({ id: 'shop-late', time: hour + 3600_000 + 1000, domainId }),
  };
}
