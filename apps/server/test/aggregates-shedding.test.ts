import type { Socket } from 'node:net';
import { routeUrl, shipNodeEvents, shipNodeL4Counters } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsStore, StoredAggregateBatch } from '../src/modules/analytics/analytics-store.js';
import {
  NODE_INGEST_LEGACY_PLACES,
  NODE_INGEST_MAX_IN_FLIGHT,
  NODE_INGEST_PLACES_PER_NODE,
} from '../src/platform/http/node-admission.js';
import { manualClock } from './helpers/auth.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import {
  AGGREGATES_PATH,
  type Answer,
  INGEST_MINUTE,
  type IngestSockets,
  ingestSockets,
} from './helpers/ingest-sockets.js';
import { createTestAnalyticsStore, TEST_ANALYTICS_KIND } from './helpers/test-analytics.js';

// Load shedding at the node API's ingest calls, over real sockets: beyond the batches a call takes
// at once, or beyond a node's share of them, one more is refused before its body is read (503,
// 101005, Retry-After); agents without the body-hash header have places of their own; and a batch
// whose node went before it was written is not written. Both config stores, both analytics stores.

const clock = manualClock(INGEST_MINUTE + 3600_000);
const METRICS_TOKEN = 'shedding-metrics-token';
let s: IngestSockets;
let store: AnalyticsStore;
/** Enough nodes to hold every place at their share each, and one to knock. */
let nodes: JoinedNode[];
let probe: JoinedNode;
/** The store's ingestAggregates calls held here until released (null: straight through). */
let hold: { arrived: (signal: AbortSignal | undefined) => void; released: Promise<void> } | null = null;

async function requestsOfSite(): Promise<number> {
  const rows = await store.query(`SELECT sum(requests) AS n FROM rollup_1h WHERE site_id = ${s.tenants.siteId}`);
  return Number(rows[0]?.n ?? 0);
}

/** The admission refusals counted so far, by `route reason`. */
async function refusals(): Promise<Map<string, number>> {
  const res = await s.t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const counted = new Map<string, number>();
  for (const m of res.body.matchAll(/^rampart_node_ingest_refused_total\{route="(\w+)",reason="(\w+)"\} (\d+)$/gm)) {
    counted.set(`${m[1]} ${m[2]}`, Number(m[3]));
  }
  return counted;
}

async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`not reached within 10 s: ${what}`);
}

/** Requests whose headers arrived and whose bodies never come, each holding its place until `release`. */
function stall(path: string, headers: Record<string, string>[]) {
  const sockets: Socket[] = [];
  const pending = headers.map((h) =>
    s.post(path, { ...h, 'content-length': '1000000' }, null, (socket) => sockets.push(socket)).catch(() => null),
  );
  return {
    release: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(pending);
    },
  };
}

/** Knocks with a small complete request until it is refused as busy (the stalled ones hold their places): that answer. */
async function busyFor(path: string, headersOf: (body: Buffer) => Record<string, string>): Promise<Answer> {
  let refused: Answer | null = null;
  await until(async () => {
    const res = await s.post(path, headersOf(Buffer.from('x')), Buffer.from('x'));
    if (res.status === 503) refused = res;
    return refused !== null;
  }, 'a request refused as busy');
  const busy = refused as unknown as Answer;
  expect(JSON.parse(busy.body).code).toBe(101005);
  expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  return busy;
}

/** Sends a batch until it is not refused as busy (places free as their connections' closes are seen). */
async function taken(node: JoinedNode, gzip: Buffer): Promise<Answer> {
  let answer: Answer | null = null;
  await until(async () => {
    const res = await s.post(AGGREGATES_PATH, s.signed(node, AGGREGATES_PATH, gzip), gzip);
    if (res.status !== 503) answer = res;
    return answer !== null;
  }, 'the batch answered');
  return answer as unknown as Answer;
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
  s = await ingestSockets({ clock, analytics: store, config: { metricsToken: METRICS_TOKEN } });
  const { a, b, rivalNode, client } = s.tenants;
  nodes = [a, b, rivalNode];
  while (nodes.length * NODE_INGEST_PLACES_PER_NODE < NODE_INGEST_MAX_IN_FLIGHT) {
    nodes.push(await joinNode(s.t.app, client, `edge-${nodes.length}`));
  }
  probe = await joinNode(s.t.app, client, 'edge-probe');
});
afterAll(async () => {
  await s?.t.close();
});

describe(`edge.aggregates under load (${TEST_ANALYTICS_KIND})`, () => {
  it('refuses a batch beyond those it takes at once before reading its body, and takes batches again once they are served', async () => {
    // Every node at its share, with signed headers for a body never sent: every place held.
    const never = Buffer.from('never sent');
    const stalled = stall(
      AGGREGATES_PATH,
      nodes.flatMap((node) =>
        Array.from({ length: NODE_INGEST_PLACES_PER_NODE }, () => s.signed(node, AGGREGATES_PATH, never)),
      ),
    );
    // A node that holds none is refused too, once every stalled one holds its place.
    await busyFor(AGGREGATES_PATH, (body) => s.signed(probe, AGGREGATES_PATH, body));
    // Refused on its headers: a request whose body never comes is answered all the same.
    const unread = await s.post(
      AGGREGATES_PATH,
      { ...s.signed(probe, AGGREGATES_PATH, never), 'content-length': '9' },
      null,
    );
    expect(unread.status).toBe(503);
    expect(JSON.parse(unread.body).code).toBe(101005);
    // Each refusal is one warning without a stack (they come by the thousand under load), and counted.
    const shed = s.t.logs.filter((line) => line.msg === 'request shed: busy');
    expect(shed.length).toBeGreaterThanOrEqual(2);
    for (const line of shed) {
      expect(line.level).toBe(40);
      expect(line.err).toBeUndefined();
    }
    expect(s.t.logs.filter((line) => line.msg === 'request failed')).toEqual([]);
    expect((await refusals()).get('aggregates busy')).toBeGreaterThanOrEqual(2);
    // The stalled senders go: their places free, a signed batch is taken and counted.
    await stalled.release();
    const { gzip } = s.batchOf('shed-1', 12);
    const answer = await taken(s.tenants.a, gzip);
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).data).toEqual({ stored: 1, duplicate: false });
    expect(await requestsOfSite()).toBe(12);
  });

  it('lets one node hold no more than its share of each ingest call’s places; other nodes are still taken', async () => {
    const { a, b } = s.tenants;
    const never = Buffer.from('never sent');
    for (const path of [AGGREGATES_PATH, routeUrl(shipNodeEvents), routeUrl(shipNodeL4Counters)]) {
      const stalled = stall(
        path,
        Array.from({ length: NODE_INGEST_PLACES_PER_NODE }, () => s.signed(a, path, never)),
      );
      // The node's next request is refused while most places are free.
      await busyFor(path, (body) => s.signed(a, path, body));
      // Another node is taken meanwhile (an empty body: answered, refused as not a batch, not shed).
      const other = await s.post(path, s.signed(b, path, Buffer.from('x')), Buffer.from('x'));
      expect(other.status, other.body).not.toBe(503);
      await stalled.release();
    }
    const counted = await refusals();
    for (const route of ['aggregates', 'events', 'l4'])
      expect(counted.get(`${route} node_share`)).toBeGreaterThanOrEqual(1);
    // Its share free again: the node's batch is taken.
    const answer = await taken(a, s.batchOf('share-1', 3).gzip);
    expect(answer.status, answer.body).toBe(200);
  });

  it('keeps agents without the body-hash header to places of their own', async () => {
    const { a } = s.tenants;
    const never = Buffer.from('never sent');
    // Headers of an older agent's form, signed with a secret that is not the node's: they can only be
    // checked once their body is read, so they take the older agents' places, and nothing more.
    const forged = { nodeId: a.nodeId, secret: 'not the node secret' };
    const stalled = stall(
      AGGREGATES_PATH,
      Array.from({ length: NODE_INGEST_LEGACY_PLACES }, () =>
        s.signed(forged, AGGREGATES_PATH, never, { bodyHash: false }),
      ),
    );
    await busyFor(AGGREGATES_PATH, (body) => s.signed(a, AGGREGATES_PATH, body, { bodyHash: false }));
    expect((await refusals()).get('aggregates legacy_busy')).toBeGreaterThanOrEqual(1);
    // A node that sends the body's hash is taken meanwhile.
    const { gzip } = s.batchOf('legacy-1', 4);
    const before = await requestsOfSite();
    const answer = await s.post(AGGREGATES_PATH, s.signed(a, AGGREGATES_PATH, gzip), gzip);
    expect(answer.status, answer.body).toBe(200);
    expect(await requestsOfSite()).toBe(before + 4);
    await stalled.release();
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
    const { gzip } = s.batchOf('gone-1', 5);
    let socket: Socket | null = null;
    const sent = s
      .post(AGGREGATES_PATH, s.signed(s.tenants.a, AGGREGATES_PATH, gzip), gzip, (socket_) => {
        socket = socket_;
      })
      .catch((e: unknown) => e);
    await until(() => seen !== undefined, 'the batch at the store');
    (socket as unknown as Socket).destroy();
    await sent;
    await until(() => seen?.aborted === true, "the request's signal aborted");
    hold = null;
    release();
    // Sent again on a new connection: written once, the abandoned copy never was.
    const answer = await taken(s.tenants.a, gzip);
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).data).toEqual({ stored: 1, duplicate: false });
    expect(await requestsOfSite()).toBe(before + 5);
  });
});
