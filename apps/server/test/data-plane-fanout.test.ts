import {
  getNodePlane,
  getNodeSnapshot,
  initializeNodes,
  listInitializedNodes,
  type PlaneAnswer,
  reportNodeStatus,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSend, sendAs } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { queriesDuring } from './helpers/queries.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Issue 25: a change wakes every node of a plane; what their polls cost the control plane must not
// grow with the nodes by database work: the nodes, the plane's state and each snapshot are read
// once for all of them.

const NODES = 20;

let t: TestApp;
let f: SiteFixture;
const nodes: JoinedNode[] = [];
beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t);
  nodes.push(f.node);
  for (let i = 1; i < NODES; i++) nodes.push(await joinNode(t.app, f.client, `fanout-${i}`));
  const ids = nodes.slice(1).map((n) => n.nodeId);
  const made = await sendAs(t.app, f.client, initializeNodes, {
    body: { ids, zoneID: f.zoneId, groupID: f.groupId },
  });
  expect(made.statusCode, made.body).toBe(200);
}, 120_000);
afterAll(async () => t.close());

async function plane(node: JoinedNode, query: Record<string, string | number> = {}): Promise<PlaneAnswer | null> {
  const res = await nodeSend(t.app, node, getNodePlane, { query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function snapshotVersion(node: JoinedNode, version?: string, wait = 0): Promise<string | null> {
  const res = await nodeSend(t.app, node, getNodeSnapshot, { query: { dataPlane: 'none', version, wait } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data?.version ?? null;
}

describe('a change with many nodes polling', () => {
  it('reads the nodes, the plane state and the bare snapshot once for all of them, not per node', async () => {
    const held = await Promise.all(
      nodes.map(async (node) => {
        const full = (await plane(node)) as PlaneAnswer;
        expect(full.type).toBe('full');
        return { node, full, version: (await snapshotVersion(node)) as string };
      }),
    );
    // Every node of the group serves the same plane: one plane hash.
    expect(new Set(held.map((h) => h.full.planeHash)).size).toBe(1);
    const texts = await queriesDuring(t, async () => {
      // Each node holds a plane poll and a bare snapshot poll, as the agent does.
      const snapshots = held.map((h) => snapshotVersion(h.node, h.version, 2));
      const answers = held.map((h) =>
        plane(h.node, { since: h.full.to, plane: h.full.planeHash, meta: h.full.metaHash, wait: 10 }),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      await f.addDomains(['fanout.shop.example']);
      for (const answer of await Promise.all(answers)) {
        expect(answer?.type).toBe('delta');
        if (answer?.type === 'delta') expect(answer.changes.map((c) => c.key)).toEqual(['fanout.shop.example']);
      }
      // The domain is no zone-level setting: no bare snapshot moved.
      expect(await Promise.all(snapshots)).toEqual(held.map(() => null));
    });
    const count = (re: RegExp) => texts.filter((q) => re.test(q)).length;
    // Without sharing, each node's looks read its node and groups (2 queries, several times), the
    // dirty marks (4), the plane's state under the log's lock (2), and its bare snapshot's zone
    // ports: about 15 queries a node.
    // The snapshot polls and the plane polls the change woke share one read of the nodes' version,
    // and a change of a domain moves none of the nodes: every node is not read again.
    // (A write may read its own nodes, e.g. their addresses; the read of every node is counted.)
    expect(count(/from "dp_nodes_version"/i)).toBe(1);
    expect(count(/from "nodes" left join "zones"/i)).toBe(0);
    expect(count(/FROM dp_state WHERE id = 1/)).toBeLessThanOrEqual(4);
    // The build reads its marks (sites, domains, membership) in one query.
    expect(count(/FROM dp_dirty_membership/)).toBe(1);
    // The version a plane was answered at is written and read back in one statement.
    expect(count(/dp_plane_versions/)).toBe(1);
    expect(count(/from "zone_ports"/i)).toBeLessThanOrEqual(4);
    // The write itself and its build take a few dozen; the nodes add none of their own.
    expect(texts.length).toBeLessThan(NODES * 4);
  }, 60_000);

  it("shows the operator which plane a node holds and whether that is its plane's last change", async () => {
    const [node, other] = nodes as [JoinedNode, JoinedNode];
    const listed = async (id: number) => {
      const res = await sendAs(t.app, f.client, listInitializedNodes, { query: { pageSize: 100 } });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as { id: number; appliedPlane: string; currentPlane: string }[]).find((n) => n.id === id);
    };
    const report = (who: JoinedNode, planeVersion?: string) =>
      nodeSend(t.app, who, reportNodeStatus, {
        body: { version: '0.1.0', appliedVersion: '', lastError: '', ...(planeVersion ? { planeVersion } : {}) },
      });
    // A node that takes the snapshot's data plane reports no plane: nothing to compare.
    expect((await report(other)).statusCode).toBe(200);
    const full = (await plane(node)) as PlaneAnswer;
    expect((await report(node, full.to)).statusCode).toBe(200);
    const held = await listed(node.nodeId);
    expect(held?.appliedPlane).toBe(full.to);
    expect(BigInt(held?.currentPlane ?? '0')).toBeLessThanOrEqual(BigInt(full.to));
    // A change: the node is behind until it takes it.
    await f.addDomains(['behind.shop.example']);
    const delta = (await plane(node, { since: full.to, plane: full.planeHash, meta: full.metaHash })) as PlaneAnswer;
    expect(delta.type).toBe('delta');
    const behind = await listed(node.nodeId);
    expect(BigInt(behind?.currentPlane ?? '0')).toBeGreaterThan(BigInt(behind?.appliedPlane ?? '0'));
    // Its next poll says it holds the change, before any report does.
    await plane(node, { since: delta.to, plane: delta.planeHash, meta: delta.metaHash });
    const caughtUp = await listed(node.nodeId);
    expect(caughtUp?.appliedPlane).toBe(delta.to);
    expect(BigInt(caughtUp?.currentPlane ?? '0')).toBeLessThanOrEqual(BigInt(delta.to));
  });
});
