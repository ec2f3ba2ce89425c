import {
  EVENT_BATCH_CONTENT_TYPE,
  NODE_SIGNATURE_HEADERS,
  routeUrl,
  shipNodeEvents,
  shipNodeL4Counters,
} from '@rampart/contract';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsStore } from '../src/modules/analytics/analytics-store.js';
import { UNKNOWN_NODE_MS } from '../src/modules/nodes/node-signature.js';
import { NODE_INGEST_LEGACY_PLACES, NODE_INGEST_MAX_IN_FLIGHT } from '../src/platform/http/node-admission.js';
import { manualClock } from './helpers/auth.js';
import { joinNode } from './helpers/edge-node.js';
import { AGGREGATES_PATH, INGEST_MINUTE, type IngestSockets, ingestSockets } from './helpers/ingest-sockets.js';
import { createTestAnalyticsStore, TEST_ANALYTICS_KIND } from './helpers/test-analytics.js';

// Who may hold the node API's ingest places, over real sockets: a request is admitted on its
// node's signature over its headers (the body's SHA-256 among them), checked before the body is
// read; its body is then checked against that hash. A forged, unknown, stale or replayed header set
// takes no place. A signed request whose body does not come loses its place after the body window
// (here shortened), not after the server's request timeout.

const clock = manualClock(INGEST_MINUTE + 3600_000);
const EVENTS_PATH = routeUrl(shipNodeEvents);
const L4_PATH = routeUrl(shipNodeL4Counters);
let s: IngestSockets;
let store: AnalyticsStore;

/** Requests the shop's site has in the rollups. */
async function requestsOfSite(): Promise<number> {
  const rows = await store.query(`SELECT sum(requests) AS n FROM rollup_1h WHERE site_id = ${s.tenants.siteId}`);
  return Number(rows[0]?.n ?? 0);
}

/** Headers of a request whose body (`content-length` 1 MB) never comes. */
const stalledHeaders = (headers: Record<string, string>) => ({ ...headers, 'content-length': '1000000' });

/** Each answered 401 with 101013 at once although no body came: none took a place. */
function expectRefused(answers: { status: number; body: string }[]): void {
  for (const answer of answers) {
    expect(answer.status, answer.body).toBe(401);
    expect(JSON.parse(answer.body).code).toBe(101013);
  }
}

beforeAll(async () => {
  store = await createTestAnalyticsStore();
  s = await ingestSockets({ clock, analytics: store, config: { aggregateBodyMs: 300 } });
});
afterAll(async () => {
  await s?.t.close();
});

describe(`edge ingest admission (${TEST_ANALYTICS_KIND})`, () => {
  it('refuses a request without a signed request’s headers before reading its body', async () => {
    const stalled = stalledHeaders({ 'content-type': EVENT_BATCH_CONTENT_TYPE });
    // More than the places there are, each answered at once although its body never comes.
    expectRefused(
      await Promise.all(
        Array.from({ length: NODE_INGEST_MAX_IN_FLIGHT + 2 }, () => s.post(AGGREGATES_PATH, stalled, null)),
      ),
    );
    // Headers of the right form with a timestamp out of the skew: refused alike.
    const a = s.tenants.a;
    const stale = signedNodeHeaders({ nodeId: a.nodeId, nodeSecret: a.secret }, 'POST', AGGREGATES_PATH, 'x', {
      nowMs: clock.now() - 3600_000,
    });
    expectRefused([await s.post(AGGREGATES_PATH, stalledHeaders(stale), null)]);
  });

  it('refuses forged, unknown-node and replayed header sets on every ingest call before they take a place', async () => {
    const { a } = s.tenants;
    const body = Buffer.from('never sent');
    // The form of a signed request with the body's hash, signed with a secret that is not the node's.
    const forged = (path: string) =>
      stalledHeaders(s.signed({ nodeId: a.nodeId, secret: 'not the node secret' }, path, body));
    for (const path of [AGGREGATES_PATH, EVENTS_PATH, L4_PATH]) {
      expectRefused(
        await Promise.all(
          Array.from({ length: NODE_INGEST_MAX_IN_FLIGHT + NODE_INGEST_LEGACY_PLACES + 2 }, () =>
            s.post(path, forged(path), null),
          ),
        ),
      );
      // A node id nobody has, signed with some secret.
      expectRefused([await s.post(path, stalledHeaders(s.signed({ nodeId: 999_999, secret: 'x' }, path, body)), null)]);
    }
    // A node's real headers sent twice: the second (a replay, here without its body) is refused at once.
    const { gzip } = s.batchOf('replayed-1', 3);
    const headers = s.signed(a, AGGREGATES_PATH, gzip);
    const first = await s.post(AGGREGATES_PATH, headers, gzip);
    expect(first.status, first.body).toBe(200);
    expectRefused([await s.post(AGGREGATES_PATH, stalledHeaders(headers), null)]);
    // Every place still free: the node's next batch is taken at once.
    const next = s.batchOf('afterforged-1', 4).gzip;
    const answer = await s.post(AGGREGATES_PATH, s.signed(a, AGGREGATES_PATH, next), next);
    expect(answer.status, answer.body).toBe(200);
  });

  it('refuses a body whose hash differs from the one its headers were signed with, and stores nothing of it', async () => {
    const { a } = s.tenants;
    const before = await requestsOfSite();
    const signedFor = s.batchOf('hash-1', 2).gzip;
    const other = s.batchOf('hash-2', 9).gzip;
    const refused = await s.post(AGGREGATES_PATH, s.signed(a, AGGREGATES_PATH, signedFor), other);
    expectRefused([refused]);
    expect(await requestsOfSite()).toBe(before);
    // The same body signed for itself is taken and counted.
    const taken = await s.post(AGGREGATES_PATH, s.signed(a, AGGREGATES_PATH, other), other);
    expect(taken.status, taken.body).toBe(200);
    expect(await requestsOfSite()).toBe(before + 9);
  });

  it('takes a batch from an agent that does not send the body’s hash, checked once its body is in', async () => {
    const { a } = s.tenants;
    const before = await requestsOfSite();
    const { gzip } = s.batchOf('oldagent-1', 6);
    const headers = s.signed(a, AGGREGATES_PATH, gzip, { bodyHash: false });
    expect(headers[NODE_SIGNATURE_HEADERS.bodySha256]).toBeUndefined();
    const answer = await s.post(AGGREGATES_PATH, headers, gzip);
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).data).toEqual({ stored: 1, duplicate: false });
    expect(await requestsOfSite()).toBe(before + 6);
    // An old agent's headers over another body: refused once the body is read, nothing stored.
    const other = s.batchOf('oldagent-2', 5).gzip;
    expectRefused([await s.post(AGGREGATES_PATH, s.signed(a, AGGREGATES_PATH, gzip, { bodyHash: false }), other)]);
    expect(await requestsOfSite()).toBe(before + 6);
  });

  it('frees the place of a request whose body does not come within the window', async () => {
    // Every node's signed headers (for a body never sent), on every place a node may hold: each is cut.
    const { a, b, rivalNode } = s.tenants;
    const stalled = [a, b, rivalNode].flatMap((node) =>
      [0, 1].map(() => stalledHeaders(s.signed(node, AGGREGATES_PATH, Buffer.from('never sent')))),
    );
    const cut = await Promise.allSettled(stalled.map((headers) => s.post(AGGREGATES_PATH, headers, null)));
    for (const c of cut) {
      // The connection closed without an answer, or an answer that is not a batch taken.
      if (c.status === 'fulfilled') expect(c.value.status).not.toBe(200);
    }
    // Every place free again: a node's batch is taken at once.
    const { gzip } = s.batchOf('admitted-1', 7);
    const answer = await s.post(AGGREGATES_PATH, s.signed(a, AGGREGATES_PATH, gzip), gzip);
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).data).toEqual({ stored: 1, duplicate: false });
  });
  it('remembers an id no node has for a few seconds; a node registered under it is admitted once they passed', async () => {
    // Node ids are given in order: the next node's id, asked for (headers only) before it exists.
    const last = await joinNode(s.t.app, s.tenants.client, 'edge-before');
    const nextId = last.nodeId + 1;
    const body = Buffer.from('never sent');
    expectRefused([
      await s.post(
        AGGREGATES_PATH,
        stalledHeaders(s.signed({ nodeId: nextId, secret: 'x' }, AGGREGATES_PATH, body)),
        null,
      ),
    ]);
    const late = await joinNode(s.t.app, s.tenants.client, 'edge-late');
    expect(late.nodeId).toBe(nextId);
    // Within the interval its id is still the unknown one it was: refused without a lookup.
    const { gzip } = s.batchOf('late-1', 2);
    expectRefused([await s.post(AGGREGATES_PATH, s.signed(late, AGGREGATES_PATH, gzip), gzip)]);
    clock.advance(UNKNOWN_NODE_MS);
    const answer = await s.post(AGGREGATES_PATH, s.signed(late, AGGREGATES_PATH, gzip), gzip);
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body).data).toEqual({ stored: 1, duplicate: false });
  });
});
