import { request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
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
import type { AnalyticsStore, StoredAggregateBatch } from '../src/modules/analytics/analytics-store.js';
import { analyticsTenants } from './helpers/analytics-tenants.js';
import { manualClock } from './helpers/auth.js';
import type { JoinedNode } from './helpers/edge-node.js';
import { edgeEvent } from './helpers/events.js';
import { createTestAnalyticsStore, TEST_ANALYTICS_KIND } from './helpers/test-analytics.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Load shedding at the node API's aggregate call, over real sockets: beyond the batches it takes
// at once one more is refused before its body is read (503, 101005, Retry-After), and a batch
// whose node went before it was written is not written. Both config stores, both analytics stores.

const MINUTE = Date.UTC(2026, 10, 28, 10, 0, 0);
const URL_PATH = routeUrl(shipNodeAggregates);
const clock = manualClock(MINUTE + 3600_000);
let t: TestApp;
let store: AnalyticsStore;
let a: JoinedNode;
let siteId: number;
let domainId: number;
let port: number;
/** The store's ingestAggregates calls held here until released (null: straight through). */
let hold: { arrived: (signal: AbortSignal | undefined) => void; released: Promise<void> } | null = null;

function batchOf(batchId: string, requests: number): { batch: AggregateBatch; gzip: Buffer } {
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
  return { batch, gzip: gzipSync(JSON.stringify(batch)) };
}

/** One request over its own connection: status, headers and body; `socket` handed out to end it early. */
function post(
  headers: Record<string, string>,
  body: Buffer | null,
  onSocket?: (socket: Socket) => void,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path: URL_PATH, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    if (onSocket) req.on('socket', onSocket);
    if (body === null) req.flushHeaders();
    else req.end(body);
  });
}

const signed = (gzip: Buffer) => ({
  'content-type': EVENT_BATCH_CONTENT_TYPE,
  ...signedNodeHeaders({ nodeId: a.nodeId, nodeSecret: a.secret }, 'POST', URL_PATH, gzip, { nowMs: clock.now() }),
});

async function requestsOfSite(): Promise<number> {
  const rows = await store.query(`SELECT sum(requests) AS n FROM rollup_1h WHERE site_id = ${siteId}`);
  return Number(rows[0]?.n ?? 0);
}

async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`not reached within 10 s: ${what}`);
}

beforeAll(async () => {
  const real = await createTestAnalyticsStore();
  // The real store, its aggregate writes held while a test says so (to end a client meanwhile).
  store = new Proxy(real, {
    get(target, key, receiver) {
      if (key !== 'ingestAggregates') return Reflect.get(target, key, receiver);
      return async (batch: StoredAggregateBatch, signal?: AbortSignal) => {
        if (hold) {
          hold.arrived(signal);
          await hold.released;
        }
        return target.ingestAggregates(batch, signal);
      };
    },
  });
  t = await createTestApp({ clock: clock.now, analytics: store });
  ({ a, siteId, domainId } = await analyticsTenants(t, {
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

describe(`edge.aggregates under load (${TEST_ANALYTICS_KIND})`, () => {
  it('refuses a batch beyond those it takes at once before reading its body, and takes batches again once they are served', async () => {
    // Requests whose headers arrived and whose bodies never come: each holds a place.
    const sockets: Socket[] = [];
    const pending: Promise<unknown>[] = [];
    // Signed headers (for a body never sent): a request without them is refused before it takes a place.
    const stalled = { ...signed(Buffer.from('never sent')), 'content-length': '1000000' };
    for (let i = 0; i < AGGREGATE_INGEST_MAX_IN_FLIGHT; i++) {
      pending.push(post(stalled, null, (s) => sockets.push(s)).catch(() => null));
    }
    // A small complete request is answered (taken, or refused as not a batch) until every stalled one holds its place.
    let refused: Awaited<ReturnType<typeof post>> | null = null;
    await until(async () => {
      const res = await post(signed(Buffer.from('x')), Buffer.from('x'));
      if (res.status === 503) refused = res;
      return refused !== null;
    }, 'a request refused as busy');
    const busy = refused as unknown as Awaited<ReturnType<typeof post>>;
    expect(JSON.parse(busy.body).code).toBe(101005);
    expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Refused on its headers: a request whose body never comes is answered all the same.
    const unread = await post(stalled, null);
    expect(unread.status).toBe(503);
    expect(JSON.parse(unread.body).code).toBe(101005);
    // The stalled senders go: their places free, a signed batch is taken and counted.
    for (const s of sockets) s.destroy();
    await Promise.all(pending);
    const { gzip } = batchOf('shed-1', 12);
    let taken: Awaited<ReturnType<typeof post>> | null = null;
    await until(async () => {
      const res = await post(signed(gzip), gzip);
      if (res.status !== 503) taken = res;
      return taken !== null;
    }, 'the batch answered');
    const answer = taken as unknown as Awaited<ReturnType<typeof post>>;
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).data).toEqual({ stored: 1, duplicate: false });
    expect(await requestsOfSite()).toBe(12);
  });

  it('does not write a batch whose node went before it was written, and takes it when sent again', async () => {
    const before = await requestsOfSite();
    let release = () => {};
    let seen: AbortSignal | undefined;
    hold = {
      arrived: (signal) => {
        seen = signal;
      },
      released: new Promise<void>((r) => {
        release = r;
      }),
    };
    const { gzip } = batchOf('gone-1', 5);
    let socket: Socket | null = null;
    const sent = post(signed(gzip), gzip, (s) => {
      socket = s;
    }).catch((e: unknown) => e);
    await until(() => seen !== undefined, 'the batch at the store');
    (socket as unknown as Socket).destroy();
    await sent;
    await until(() => seen?.aborted === true, "the request's signal aborted");
    hold = null;
    release();
    // Sent again on a new connection: written once, the abandoned copy never was.
    let again: Awaited<ReturnType<typeof post>> | null = null;
    await until(async () => {
      const res = await post(signed(gzip), gzip);
      if (res.status !== 503) again = res;
      return again !== null;
    }, 'the batch answered');
    const answer = again as unknown as Awaited<ReturnType<typeof post>>;
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).data).toEqual({ stored: 1, duplicate: false });
    expect(await requestsOfSite()).toBe(before + 5);
  });
});
