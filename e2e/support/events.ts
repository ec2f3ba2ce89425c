import { gzipSync } from 'node:zlib';
import { expect } from '@playwright/test';
import { type EdgeEvent, EVENT_BATCH_CONTENT_TYPE, routeUrl, shipNodeEvents } from '@rampart/contract';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import { E2E } from './env.js';
import type { NodeCredentials } from './nodes.js';

/** Ships events as the node's agent does: gzip of the batch's JSON, signed over the gzip bytes. */
export async function shipEvents(node: NodeCredentials, events: EdgeEvent[]): Promise<void> {
  const url = routeUrl(shipNodeEvents);
  const body = gzipSync(JSON.stringify({ batchId: `e2e${Date.now().toString(36)}-1`, dropped: 0, events }));
  const res = await fetch(`${E2E.url}${url}`, {
    method: 'POST',
    headers: { 'content-type': EVENT_BATCH_CONTENT_TYPE, ...signedNodeHeaders(node, 'POST', url, body) },
    body,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  expect((await res.json()).data).toEqual({ stored: events.length, duplicate: false });
}

/** An event of node `node` two minutes ago, as its agent would log an ordinary request; `over` sets the rest. */
export function edgeEvent(node: number, serial: number, over: Partial<EdgeEvent>): EdgeEvent {
  return {
    id: `edge-${node}-1-1-${serial}`,
    time: Date.now() - 2 * 60_000,
    domainId: 0,
    ip: '198.51.100.7',
    method: 'GET',
    scheme: 'https',
    httpVersion: '1.1',
    host: '',
    path: '/',
    status: 200,
    bytesIn: 100,
    bytesOut: 300_000,
    requestMs: 5,
    upstreamMs: 3,
    upstreamStatus: 200,
    cacheStatus: '',
    userAgent: 'e2e-agent',
    referer: '',
    fwKind: '',
    fwRule: 0,
    fwAction: '',
    wafPart: '',
    wafExcerpt: '',
    wafName: '',
    ...over,
  };
}
