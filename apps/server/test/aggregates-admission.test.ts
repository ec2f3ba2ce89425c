import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import {
  type AggregateBatch,
  EVENT_BATCH_CONTENT_TYPE,
  MinuteAggregator,
  routeUrl,
  shipNodeAggregates,
} from '@rampart/contract';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGGREGATE_INGEST_MAX_IN_FLIGHT } from '../src/modules/analytics/aggregates.routes.js';
import { analyticsTenants } from './helpers/analytics-tenants.js';
import { manualClock } from './helpers/auth.js';
import type { JoinedNode } from './helpers/edge-node.js';
import { edgeEvent } from './helpers/events.js';
import { createTestAnalyticsStore, TEST_ANALYTICS_KIND } from './helpers/test-analytics.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Who may hold the node API's aggregate places, over real sockets: a request without a signed
// request's headers is refused before it takes one (the signature itself needs the body), and a
// signed-looking one whose body does not come loses its place after the body deadline (here
// shortened), not after the server's request timeout.

const MINUTE = Date.UTC(2026, 10, 28, 10, 0, 0);
const URL_PATH = routeUrl(shipNodeAggregates);
const clock = manualClock(MINUTE + 3600_000);
let t: TestApp;
let a: JoinedNode;
let domainId: number;
let port: number;

type Answer = { status: number; body: string };

/** One request over its own connection; `body` null: headers only, the body never sent. */
function post(headers: Record<string, string>, body: Buffer | null): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path: URL_PATH, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    if (body === null) req.flushHeaders();
    else req.end(body);
  });
}

const signed = (body: Buffer) => ({
  'content-type': EVENT_BATCH_CONTENT_TYPE,
  ...signedNodeHeaders({ nodeId: a.nodeId, nodeSecret: a.secret }, 'POST', URL_PATH, body, { nowMs: clock.now() }),
});

function batchGzip(batchId: string, requests: number): Buffer {
  const aggregator = new MinuteAggregator();
  for (let i = 0; i < requests; i++) aggregator.add(edgeEvent({ time: MINUTE + i * 1000, domainId }));
  aggregator.closeAll();
  const batch: AggregateBatch = {
    batchId,
    dropped: 0,
    closedThrough: MINUTE + 60_000,
    minutes: aggregator.take().minutes,
    collapsed: [],
  };
  return gzipSync(JSON.stringify(batch));
}

beforeAll(async () => {
  t = await createTestApp({
    clock: clock.now,
    analytics: await createTestAnalyticsStore(),
    config: { aggregateBodyMs: 300 },
  });
  ({ a, domainId } = await analyticsTenants(t, {
    shop: 'www.shop.example',
    neighbour: 'www.next.example',
    rival: 'www.elsewhere.example',
  }));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await t?.close();
});

describe(`edge.aggregates admission (${TEST_ANALYTICS_KIND})`, () => {
  it('refuses a request without a signed request’s headers before reading its body', async () => {
    const stalled = { 'content-type': EVENT_BATCH_CONTENT_TYPE, 'content-length': '1000000' };
    // More than the places there are, each answered at once although its body never comes.
    const answers = await Promise.all(
      Array.from({ length: AGGREGATE_INGEST_MAX_IN_FLIGHT + 2 }, () => post(stalled, null)),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body).code).toBe(101013);
    }
    // Headers of the right form with a timestamp out of the skew: refused alike.
    const stale = signedNodeHeaders({ nodeId: a.nodeId, nodeSecret: a.secret }, 'POST', URL_PATH, 'x', {
      nowMs: clock.now() - 3600_000,
    });
    const old = await post({ ...stalled, ...stale }, null);
    expect(old.status).toBe(401);
  });

  it('frees the place of a request whose body does not come within the deadline', async () => {
    // Signed headers (for a body never sent) on every place: each is cut after the deadline.
    const stalled = { ...signed(Buffer.from('never sent')), 'content-length': '1000000' };
    const cut = await Promise.allSettled(
      Array.from({ length: AGGREGATE_INGEST_MAX_IN_FLIGHT }, () => post(stalled, null)),
    );
    for (const c of cut) {
      // The connection closed without an answer, or an answer that is not a batch taken.
      if (c.status === 'fulfilled') expect(c.value.status).not.toBe(200);
    }
    // Every place free again: a node's batch is taken at once.
    const gzip = batchGzip('admitted-1', 7);
    const answer = await post(signed(gzip), gzip);
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).data).toEqual({ stored: 1, duplicate: false });
  });
});
