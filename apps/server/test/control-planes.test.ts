import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AnyRoute, PlaneAnswer } from '@rampart/contract';
import {
  createDomains,
  getNodeCommands,
  getNodePlane,
  getNodeSnapshot,
  initializeNodes,
  rotateNodeLogs,
  setZoneHttp2,
} from '@rampart/contract';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import { type CallInput, requestFor } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECHECK_MS } from '../src/modules/snapshots/plane.service.js';
import { CHANGES_CHANNEL } from '../src/platform/db/change-broadcast.js';
import { rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { sendAs } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { operatorCalls, webProduct } from './helpers/operators.js';
import { type Running, start, stop } from './helpers/server-process.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { TEST_DB_KIND } from './helpers/test-db.js';

// Several control planes on one PostgreSQL (README): control plane A is the test's app, control
// plane B the real entry point in a process of its own on the same database. A node long-polls B;
// a write through A's API must reach it at once, not after B's periodic re-check (5 s, with the
// snapshot cached up to 60 s): each answer comes before that re-check, counted from the poll's start
// (the snapshot's, the plane's and the commands' re-checks are all RECHECK_MS).

const SECRET = 'test-secret-0123456789-0123456789-0123456789';

let a: TestApp;
let b: Running | undefined;
let dataDir: string;
let client: { accessToken: string };
let user: { accessToken: string };
let zoneId: number;
let siteId: number;
let node: JoinedNode;

/** A node's signed request to control plane B, over HTTP as an agent sends it. */
async function fromNode<R extends AnyRoute>(route: R, input: CallInput<R>) {
  if (!b) throw new Error('control plane B is not running');
  const { method, url } = requestFor(route, input);
  const res = await fetch(`${b.url}${url}`, {
    method,
    headers: signedNodeHeaders({ nodeId: node.nodeId, nodeSecret: node.secret }, method, url, ''),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: unknown }).data;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Writes through A while B holds the node's poll (just sent); answers what the poll got, how long
 * after the write (ms, for the log) and after the poll was sent (sincePoll).
 */
async function heldOnB<T>(
  poll: Promise<T>,
  write: () => Promise<unknown>,
): Promise<{ answer: T; ms: number; sincePoll: number }> {
  const polledAt = Date.now();
  // Let B take the poll and settle into its wait.
  await wait(500);
  const writtenAt = Date.now();
  await write();
  const answer = await poll;
  return { answer, ms: Date.now() - writtenAt, sincePoll: Date.now() - polledAt };
}

type Snapshot = { version: string; listen: { http2: boolean } };

/** Sets the zone's HTTP/2 flag through A while B holds the node's snapshot poll (a change of its snapshot). */
async function http2OnAWhilePollingB(enable: boolean) {
  const known = ((await fromNode(getNodeSnapshot, {})) as Snapshot).version;
  const held = await heldOnB(
    fromNode(getNodeSnapshot, { query: { version: known, wait: 20 } }) as Promise<Snapshot | null>,
    () => sendAs(a.app, client, setZoneHttp2, { params: { zoneID: zoneId }, body: { enable } }),
  );
  expect(held.answer?.version).not.toBe(known);
  expect(held.answer?.listen.http2).toBe(enable);
  return held;
}

describe.skipIf(TEST_DB_KIND !== 'postgres')('several control planes on one PostgreSQL', () => {
  beforeAll(async () => {
    a = await createTestApp();
    client = await signIn(a.app, 'client');
    const product = await webProduct(a.app, client);
    zoneId = product.zoneId;
    user = await signIn(a.app, 'user');
    siteId = await operatorCalls(a.app, client).site('on A', await rootId(a.app, 'user'), product.productId);
    node = await joinNode(a.app, client, 'edge-b');
    const init = await sendAs(a.app, client, initializeNodes, {
      body: { ids: [node.nodeId], zoneID: zoneId, groupID: product.groupId },
    });
    expect(init.statusCode).toBe(200);
    dataDir = mkdtempSync(path.join(tmpdir(), 'rampart-cp-b-'));
    b = await start({
      DATA_DIR: dataDir,
      DATABASE_URL: a.db.url ?? '',
      RAMPART_SECRET: SECRET,
      RAMPART_DOMAIN_PROOF: 'off',
    });
  }, 200_000);
  afterAll(async () => {
    if (b) await stop(b);
    await a?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("a write on A reaches a node polling B before B's re-check", async () => {
    const { ms, sincePoll } = await http2OnAWhilePollingB(false);
    process.stdout.write(`control plane A write -> snapshot on B's poll: ${ms} ms\n`);
    expect(sincePoll).toBeLessThan(RECHECK_MS);
  }, 60_000);

  it("a domain written through A's API shows in a plane poll held on B before B's re-check", async () => {
    const full = (await fromNode(getNodePlane, {})) as PlaneAnswer;
    expect(full.type).toBe('full');
    const { answer, ms, sincePoll } = await heldOnB(
      fromNode(getNodePlane, {
        query: { since: full.to, plane: full.planeHash, meta: full.metaHash, wait: 20 },
      }) as Promise<PlaneAnswer | null>,
      async () => {
        const res = await sendAs(a.app, user, createDomains, {
          params: { siteId },
          body: { domains: [{ name: 'www.written-on-a.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] },
        });
        expect(res.statusCode, res.body).toBe(200);
      },
    );
    process.stdout.write(`control plane A domain write -> plane delta on B's poll: ${ms} ms\n`);
    expect(answer?.type).toBe('delta');
    if (answer?.type === 'delta') {
      expect(answer.changes.map((c) => `${c.op} ${c.kind} ${c.key}`)).toEqual(['put domain www.written-on-a.example']);
    }
    expect(sincePoll).toBeLessThan(RECHECK_MS);
  }, 60_000);

  it("a domain written through A's API shows on a plane stream open on B before B's re-check", async () => {
    if (!b) throw new Error('control plane B is not running');
    const url = '/api/edge/v1/plane/stream';
    const abort = new AbortController();
    const res = await fetch(`${b.url}${url}`, {
      headers: signedNodeHeaders({ nodeId: node.nodeId, nodeSecret: node.secret }, 'GET', url, ''),
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    /** The next answer on the stream (the keep-alive lines skipped). */
    const next = async (): Promise<PlaneAnswer> => {
      for (;;) {
        const at = text.indexOf('\n');
        if (at === -1) {
          const read = await reader.read();
          if (read.done) throw new Error('the stream ended');
          text += decoder.decode(read.value, { stream: true });
          continue;
        }
        const line = text.slice(0, at);
        text = text.slice(at + 1);
        if (line !== '') return JSON.parse(line) as PlaneAnswer;
      }
    };
    try {
      expect((await next()).type).toBe('full');
      const fullAt = Date.now();
      await wait(500);
      const writtenAt = Date.now();
      const made = await sendAs(a.app, user, createDomains, {
        params: { siteId },
        body: { domains: [{ name: 'www.streamed-on-b.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] },
      });
      expect(made.statusCode, made.body).toBe(200);
      const delta = await next();
      const ms = Date.now() - writtenAt;
      process.stdout.write(`control plane A domain write -> plane delta on B's stream: ${ms} ms\n`);
      expect(delta.type).toBe('delta');
      if (delta.type === 'delta') {
        expect(delta.changes.map((c) => `${c.op} ${c.kind} ${c.key}`)).toEqual([
          'put domain www.streamed-on-b.example',
        ]);
      }
      expect(Date.now() - fullAt).toBeLessThan(RECHECK_MS);
    } finally {
      abort.abort();
    }
  }, 60_000);

  it("a command queued on A wakes the command poll held by B before B's re-check", async () => {
    const { answer, ms, sincePoll } = await heldOnB(
      fromNode(getNodeCommands, { query: { wait: 20 } }) as Promise<Array<{ id: number; type: string }>>,
      () => sendAs(a.app, client, rotateNodeLogs, { body: { ids: [node.nodeId] } }),
    );
    process.stdout.write(`control plane A queue -> command on B's poll: ${ms} ms\n`);
    expect(answer).toEqual([expect.objectContaining({ type: 'logRotate' })]);
    expect(sincePoll).toBeLessThan(RECHECK_MS);
  }, 60_000);

  it('says so when its listening connection drops, listens again, and wakes B again afterwards', async () => {
    const listening = async () =>
      (
        (await a.db.database.db.execute(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN ${CHANGES_CHANNEL}'`,
        )) as unknown as { rows: Array<{ pid: number }> }
      ).rows;
    // One listening connection per process: A's and B's.
    const before = (await listening()).map((row) => row.pid);
    expect(before).toHaveLength(2);
    await a.db.database.db.execute(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN ${CHANGES_CHANNEL}'`,
    );
    const logged = (text: string) => a.logs.some((line) => String(line.msg).startsWith(text));
    const relistened = async () => {
      const now = (await listening()).map((row) => row.pid);
      return now.length === 2 && now.every((pid) => !before.includes(pid));
    };
    const deadline = Date.now() + 15_000;
    while (!(logged('listening again') && (await relistened())) && Date.now() < deadline) await wait(100);
    expect(await relistened()).toBe(true);
    expect(logged('not listening for changes made by other control planes')).toBe(true);
    expect(logged('listening again for changes made by other control planes')).toBe(true);
    // B logs at warn: the line that says it fell back to the periodic re-check.
    expect(b?.output()).toContain('not listening for changes made by other control planes');

    expect((await http2OnAWhilePollingB(true)).sincePoll).toBeLessThan(RECHECK_MS);
  }, 60_000);
});
