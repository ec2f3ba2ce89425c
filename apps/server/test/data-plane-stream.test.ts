import type { Socket } from 'node:net';
import { getNodePlane, initializeNodes, type PlaneAnswer, planeAnswerSchema } from '@rampart/contract';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSend, sendAs } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { queriesDuring } from './helpers/queries.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Issue 25: a node takes its data plane on one stream (edge.planeStream), a line per change, so a
// change costs the control plane one write per node instead of a poll's answer and the next poll's
// request. The lines are the answers `/plane` gives, each from what the line before brought.

const NODES = 10;

let t: TestApp;
let f: SiteFixture;
let base: string;
const sockets: Socket[] = [];
const nodes: JoinedNode[] = [];
beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t);
  await f.addDomains(['start.stream.example']);
  nodes.push(f.node);
  for (let i = 1; i < NODES; i++) nodes.push(await joinNode(t.app, f.client, `stream-${i}`));
  const made = await sendAs(t.app, f.client, initializeNodes, {
    body: { ids: nodes.slice(1).map((n) => n.nodeId), zoneID: f.zoneId, groupID: f.groupId },
  });
  expect(made.statusCode, made.body).toBe(200);
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  t.app.server.on('connection', (socket) => sockets.push(socket));
}, 120_000);
afterAll(async () => {
  // fetch may leave a connection open that never sent a request (seen after an aborted stream): the
  // server's close would wait for it.
  for (const socket of sockets) socket.destroy();
  await t.close();
});

interface Stream {
  /** The next line (empty lines, the keep-alives, included); rejects when none came within `ms`. */
  line(ms?: number): Promise<string>;
  /** The next answer (keep-alives skipped), checked against the contract. */
  answer(ms?: number): Promise<PlaneAnswer>;
  close(): void;
}

/** Opens a node's stream over HTTP, signed as the agent signs it. */
async function open(node: JoinedNode, query: Record<string, string> = {}): Promise<Stream> {
  const search = new URLSearchParams(query).toString();
  const url = `/api/edge/v1/plane/stream${search ? `?${search}` : ''}`;
  const abort = new AbortController();
  const res = await fetch(`${base}${url}`, {
    headers: signedNodeHeaders({ nodeId: node.nodeId, nodeSecret: node.secret }, 'GET', url, ''),
    signal: abort.signal,
  });
  expect(res.status, await (res.status === 200 ? Promise.resolve('') : res.text())).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let done = false;
  // One read at a time: a read that outlived a wait is the next wait's (its chunk is not lost).
  let reading: ReturnType<typeof reader.read> | null = null;
  const fill = async (ms: number) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no line within ${ms} ms`)), ms);
    });
    reading ??= reader.read();
    try {
      const read = await Promise.race([reading, late]);
      reading = null;
      if (read.done) done = true;
      else buffered += decoder.decode(read.value, { stream: true });
    } finally {
      clearTimeout(timer);
    }
  };
  const line = async (ms = 5000): Promise<string> => {
    const until = Date.now() + ms;
    while (!buffered.includes('\n')) {
      if (done) throw new Error('the stream ended');
      await fill(Math.max(1, until - Date.now()));
    }
    const at = buffered.indexOf('\n');
    const text = buffered.slice(0, at);
    buffered = buffered.slice(at + 1);
    return text;
  };
  return {
    line,
    async answer(ms = 5000) {
      const until = Date.now() + ms;
      for (;;) {
        const text = await line(Math.max(1, until - Date.now()));
        if (text !== '') return planeAnswerSchema.parse(JSON.parse(text));
      }
    },
    close: () => abort.abort(),
  };
}

describe('the plane as a stream', () => {
  it('answers a whole plane, then each change as a delta from what the line before brought', async () => {
    const stream = await open(f.node);
    try {
      const full = await stream.answer();
      expect(full.type).toBe('full');
      if (full.type !== 'full') return;
      expect(full.entries.some((e) => e.kind === 'domain')).toBe(true);
      // The same as a poll of the plane answers at that version.
      const polled = (await nodeSend(t.app, f.node, getNodePlane, { query: {} })).json().data as PlaneAnswer;
      expect(polled.type === 'full' && polled.to === full.to && polled.planeHash === full.planeHash).toBe(true);

      await f.addDomains(['first.stream.example']);
      const first = await stream.answer();
      expect(first.type).toBe('delta');
      if (first.type !== 'delta') return;
      expect(first.from).toBe(full.to);
      expect(first.changes.map((c) => [c.op, c.key])).toEqual([['put', 'first.stream.example']]);

      await f.addDomains(['second.stream.example']);
      const second = await stream.answer();
      expect(second.type === 'delta' && second.from).toBe(first.to);
      if (second.type === 'delta') expect(second.changes.map((c) => c.key)).toEqual(['second.stream.example']);
    } finally {
      stream.close();
    }
  });

  it('starts from what the node holds: nothing when it is current, a delta when it is behind', async () => {
    const first = await open(nodes[1] as JoinedNode);
    const full = await first.answer();
    first.close();
    // Current: the stream says nothing until a change.
    const current = await open(nodes[1] as JoinedNode, { since: full.to, plane: full.planeHash, meta: full.metaHash });
    try {
      await expect(current.answer(1000)).rejects.toThrow(/no line/);
      await f.addDomains(['behind.stream.example']);
      const delta = await current.answer();
      expect(delta.type === 'delta' && delta.from).toBe(full.to);
    } finally {
      current.close();
    }
    // Behind (it holds the older version): the change it missed, as a delta.
    const behind = await open(nodes[1] as JoinedNode, { since: full.to, plane: full.planeHash, meta: full.metaHash });
    try {
      const delta = await behind.answer();
      expect(delta.type).toBe('delta');
      if (delta.type === 'delta') expect(delta.changes.map((c) => c.key)).toContain('behind.stream.example');
    } finally {
      behind.close();
    }
    // A plane hash the control plane never answered at that version: a whole plane.
    const wrong = await open(nodes[1] as JoinedNode, { since: full.to, plane: '000000000000', meta: full.metaHash });
    try {
      expect((await wrong.answer()).type).toBe('full');
    } finally {
      wrong.close();
    }
  });

  it('wakes every streaming node with one line and reads nothing per node', async () => {
    // The statements of one change with one node streaming, then with all of them.
    const change = async (
      streams: { answer: () => Promise<{ type: string; changes?: { key: string }[] }> }[],
      domain: string,
    ) =>
      queriesDuring(t, async () => {
        await f.addDomains([domain]);
        for (const answer of await Promise.all(streams.map((s) => s.answer()))) {
          expect(answer.type).toBe('delta');
          expect(answer.changes?.map((c) => c.key)).toEqual([domain]);
        }
      });
    const streams = [await open(nodes[0] as JoinedNode)];
    try {
      await streams[0]?.answer();
      const alone = await change(streams, 'alone.stream.example');
      streams.push(...(await Promise.all(nodes.slice(1).map((node) => open(node)))));
      const held = await Promise.all(streams.slice(1).map((s) => s.answer()));
      expect(new Set(held.map((h) => h.planeHash)).size).toBe(1);
      const texts = await change(streams, 'fanout.stream.example');
      const count = (re: RegExp) => texts.filter((q) => re.test(q)).length;
      // (A write may read its own nodes, e.g. their addresses; the read of every node is counted.)
      expect(count(/from "dp_nodes_version"/i)).toBe(1);
      expect(count(/from "nodes" left join "zones"/i)).toBe(0);
      expect(count(/dp_plane_versions/)).toBe(1);
      // The plane's hash and every node's delta come from one read of the log (plane.service.ts
      // `summed`), in the view's transaction: no second read of the changes, no check of the view.
      expect(count(/FROM dp_changes/)).toBe(1);
      expect(count(/^SELECT changed_seq AS changed FROM dp_planes/)).toBe(0);
      expect(alone.filter((q) => /FROM dp_changes/.test(q)).length).toBe(1);
      // The write and its build take the same statements whatever the nodes: fewer than one more per node.
      expect(texts.length - alone.length).toBeLessThan(NODES - 1);
    } finally {
      for (const s of streams) s.close();
    }
  });

  it('ends its wait when the node hangs up', async () => {
    const node = nodes[2] as JoinedNode;
    const stream = await open(node);
    await stream.answer();
    const ended = () =>
      t.logs.filter((l) => l.msg === 'plane stream ended' && l.nodeId === node.nodeId && typeof l.lines === 'number');
    const before = ended().length;
    stream.close();
    const until = Date.now() + 5000;
    while (ended().length === before && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(ended().length).toBe(before + 1);
    expect(ended().at(-1)?.lines).toBe(1);
  });

  it('is refused without a valid signature, and with a bad query', async () => {
    const url = '/api/edge/v1/plane/stream';
    const unsigned = await fetch(`${base}${url}`);
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as { code: number }).code).toBe(101013);
    const forged = await fetch(`${base}${url}`, {
      headers: signedNodeHeaders({ nodeId: f.node.nodeId, nodeSecret: 'not-the-secret' }, 'GET', url, ''),
    });
    expect(forged.status).toBe(401);
    const bad = `${url}?since=x`;
    const refused = await fetch(`${base}${bad}`, {
      headers: signedNodeHeaders({ nodeId: f.node.nodeId, nodeSecret: f.node.secret }, 'GET', bad, ''),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { code: number }).code).toBe(101003);
  });
});
