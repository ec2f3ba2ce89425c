import type { AnyRoute } from '@rampart/contract';
import {
  createMonitorGroup,
  createMonitorNode,
  createZone,
  deleteMonitorGroup,
  deleteMonitorNode,
  getProbes,
  initializeNodes,
  listInitializedNodes,
  listMonitorCandidates,
  listMonitorGroupNodes,
  listMonitorGroups,
  listMonitorNodes,
  listNodesEnableStatus,
  metaMonitorGroups,
  metaMonitors,
  reportProbeResults,
  setNodeMonitor,
  updateMonitorGroup,
  updateMonitorNode,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideState } from '../src/modules/monitoring/probes.service.js';
import { signInOtherOperator } from './helpers/accounts.js';
import { manualClock, signIn } from './helpers/auth.js';
import { fieldNames, nodeSend, rawInput, rawRequest, sendAs, type Token } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

const clock = manualClock();
let t: TestApp;
let client: { accessToken: string };
let other: { accessToken: string };
let zoneId: number;
beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  client = await signIn(t.app, 'client');
  other = await signInOtherOperator(t.app, 'operator-two');
  zoneId = (await call(createZone, { body: { name: 'Asia' } })).json().data.id;
});
afterAll(async () => t.close());

function call<R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) {
  return sendAs(t.app, client, route, ...args);
}

/** A node of `as` placed in a zone of `as` (an edge node that can be probed). */
async function edgeNode(hostname: string, zone = zoneId, as = client): Promise<JoinedNode> {
  const node = await joinNode(t.app, as, hostname);
  expect((await call(initializeNodes, { body: { ids: [node.nodeId], zoneID: zone } }, as)).statusCode).toBe(200);
  return node;
}

async function monitorOf(node: JoinedNode, as = client): Promise<number> {
  const res = await call(createMonitorNode, { body: { nodeID: node.nodeId, memo: 'probe' } }, as);
  expect(res.statusCode).toBe(200);
  return res.json().data.id;
}

const settings = { intervalSeconds: 10, timeoutSeconds: 2, failureThreshold: 2 };

async function group(name: string, monitorIDs: number[], nodeIDs: number[], as = client) {
  const res = await call(createMonitorGroup, { body: { name, ...settings, monitorIDs, nodeIDs } }, as);
  expect(res.statusCode).toBe(200);
  return res.json().data as { id: number };
}

function report(monitor: JoinedNode, results: { groupId: number; nodeId: number; ok: boolean; reason?: string }[]) {
  return nodeSend(t.app, monitor, reportProbeResults, { body: { results } });
}

async function targets(groupId: number, as = client) {
  const res = await call(listMonitorGroupNodes, { params: { id: groupId } }, as);
  return res.json();
}

describe('monitor nodes', () => {
  it('lists uninitialised candidates, makes one a monitor node, edits and removes it', async () => {
    const box = await joinNode(t.app, client, 'probe-box');
    const candidates = (await call(listMonitorCandidates)).json();
    expect(candidates.data.map((c: { id: number }) => c.id)).toContain(box.nodeId);

    const created = await call(createMonitorNode, { body: { nodeID: box.nodeId, memo: 'rack 4' } });
    expect(created.json().data).toMatchObject({
      nodeId: box.nodeId,
      name: 'probe-box',
      memo: 'rack 4',
      enabled: true,
      initialized: false,
      connection: 'online',
      groups: [],
    });
    const id = created.json().data.id;
    const again = (await call(listMonitorCandidates)).json();
    expect(again.data.map((c: { id: number }) => c.id)).not.toContain(box.nodeId);
    expect((await call(createMonitorNode, { body: { nodeID: box.nodeId } })).json().code).toBe(101025);

    const list = (await call(listMonitorNodes, { query: { page: 1, pageSize: 10 } })).json();
    expect(list.data.find((m: { id: number }) => m.id === id)).toMatchObject({ name: 'probe-box' });
    expect((await call(metaMonitors)).json().data).toContainEqual({
      id,
      name: 'probe-box',
      enabled: true,
    });

    const updated = await call(updateMonitorNode, { body: { id, memo: 'paused', enabled: false } });
    expect(updated.json().data).toMatchObject({ memo: 'paused', enabled: false });
    expect((await call(deleteMonitorNode, { body: { id } })).statusCode).toBe(200);
    expect((await call(deleteMonitorNode, { body: { id } })).json().code).toBe(101018);
    expect((await call(updateMonitorNode, { body: { id, enabled: true } })).json().code).toBe(101018);
  });

  it('takes an initialised edge node as a monitor node too', async () => {
    const edge = await edgeNode('edge-monitor');
    const res = await call(createMonitorNode, { body: { nodeID: edge.nodeId } });
    expect(res.json().data).toMatchObject({ initialized: true, memo: '', enabled: true });
  });

  it('refuses bad input with the field named', async () => {
    const res = await call(createMonitorNode, rawInput({ body: { nodeID: 'x', memo: 'm'.repeat(300) } }));
    expect(res.json().code).toBe(101003);
    const fields = fieldNames(res);
    expect(fields.sort()).toEqual(['memo', 'nodeID']);
    expect((await call(updateMonitorNode, rawInput({ body: { id: 1 } }))).json().extra.fields[0].field).toBe('enabled');
    const badParams = await call(
      listMonitorGroupNodes,
      rawInput({ params: { id: 'abc' }, query: { state: 'sideways' } }),
    );
    expect(badParams.json().code).toBe(101003);
    expect(
      badParams
        .json()
        .extra.fields.map((f: { in: string; field: string }) => `${f.in}:${f.field}`)
        .sort(),
    ).toEqual(['params:id', 'query:state']);
    const badQuery = await call(listNodesEnableStatus, rawInput({ query: { state: 'sideways', pageSize: 0 } }));
    expect(fieldNames(badQuery).sort()).toEqual(['pageSize', 'state']);
  });
});

describe('monitor groups', () => {
  it('creates, lists, updates and deletes a group of monitors and targets', async () => {
    const monitor = await monitorOf(await joinNode(t.app, client, 'probe-g'));
    const a = await edgeNode('target-a');
    const b = await edgeNode('target-b');
    const created = await group('web', [monitor], [a.nodeId]);
    expect(created).toMatchObject({
      name: 'web',
      enabled: true,
      ...settings,
      monitors: [{ id: monitor, name: 'probe-g' }],
      targets: [{ id: a.nodeId, name: 'target-a' }],
      counts: { up: 0, down: 0, unknown: 1 },
    });
    expect((await call(metaMonitorGroups)).json().data).toContainEqual({
      id: created.id,
      name: 'web',
    });
    expect((await call(listMonitorGroups)).json().data[0]).toMatchObject({ id: created.id });
    const monitors = (await call(listMonitorNodes, { query: { pageSize: 100 } })).json().data;
    expect(monitors.find((m: { id: number }) => m.id === monitor)!.groups).toEqual([{ id: created.id, name: 'web' }]);

    const updated = await call(updateMonitorGroup, {
      body: {
        id: created.id,
        name: 'web-2',
        ...settings,
        intervalSeconds: 60,
        monitorIDs: [monitor],
        nodeIDs: [a.nodeId, b.nodeId],
      },
    });
    expect(updated.json().data).toMatchObject({ name: 'web-2', intervalSeconds: 60 });
    expect(updated.json().data.targets).toHaveLength(2);
    expect((await targets(created.id)).total).toBe(2);

    expect((await group('web-3', [monitor], [a.nodeId])).id).toBeGreaterThan(0);
    const duplicate = await call(createMonitorGroup, {
      body: {
        name: 'web-3',
        ...settings,
        monitorIDs: [monitor],
        nodeIDs: [a.nodeId],
      },
    });
    expect(duplicate.json().code).toBe(101025);

    expect((await call(deleteMonitorGroup, { body: { id: created.id } })).statusCode).toBe(200);
    expect((await call(deleteMonitorGroup, { body: { id: created.id } })).json().code).toBe(101018);
    expect((await call(listMonitorGroupNodes, { params: { id: created.id } })).json().code).toBe(101018);
  });

  it('refuses bad settings, an uninitialised target and unknown members', async () => {
    const monitor = await monitorOf(await joinNode(t.app, client, 'probe-bad'));
    const a = await edgeNode('target-bad');
    const body = { name: 'bad', ...settings, monitorIDs: [monitor], nodeIDs: [a.nodeId] };
    const fieldsOf = async (payload: Record<string, unknown>) => {
      const res = await call(createMonitorGroup, rawInput({ body: payload }));
      expect(res.json().code).toBe(101003);
      return res.json().extra.fields.map((f: { field: string; key: string }) => `${f.field}:${f.key}`);
    };
    expect(await fieldsOf({ ...body, intervalSeconds: 5 })).toEqual(['intervalSeconds:tooSmall']);
    expect(await fieldsOf({ ...body, timeoutSeconds: 10 })).toEqual(['timeoutSeconds:tooBig']);
    expect(await fieldsOf({ ...body, failureThreshold: 11 })).toEqual(['failureThreshold:tooBig']);
    expect(await fieldsOf({ ...body, monitorIDs: [] })).toEqual(['monitorIDs:required']);
    const waiting = await joinNode(t.app, client, 'not-initialised');
    expect(await fieldsOf({ ...body, nodeIDs: [a.nodeId, waiting.nodeId] })).toEqual(['nodeIDs.1:invalidValue']);
    expect((await call(createMonitorGroup, { body: { ...body, nodeIDs: [999_999] } })).json().code).toBe(101018);
    expect((await call(createMonitorGroup, { body: { ...body, monitorIDs: [999_999] } })).json().code).toBe(101018);
    expect((await call(updateMonitorGroup, { body: { ...body, id: 999_999 } })).json().code).toBe(101018);
  });
});

describe('probes', () => {
  it('gives a monitor node its targets with the zone ports, and a node that is not one nothing', async () => {
    const probe = await joinNode(t.app, client, 'probe-p');
    const monitor = await monitorOf(probe);
    const a = await edgeNode('target-p');
    const g = await group('probes', [monitor], [a.nodeId]);
    const res = await nodeSend(t.app, probe, getProbes, undefined);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      {
        groupId: g.id,
        intervalSeconds: 10,
        timeoutSeconds: 2,
        targets: [{ nodeId: a.nodeId, ip: '127.0.0.1', ports: [80, 443] }],
      },
    ]);
    expect((await nodeSend(t.app, a, getProbes, undefined)).json().data).toEqual([]);

    // The node's own monitor switch: off, it is not probed and shows as unmonitored.
    await call(setNodeMonitor, { body: { ids: [a.nodeId], monitor: false } });
    expect((await nodeSend(t.app, probe, getProbes, undefined)).json().data).toEqual([]);
    const listed = (await call(listInitializedNodes, { query: { value: 'target-p' } })).json().data[0];
    expect(listed).toMatchObject({ monitor: false, monitorState: { state: 'unmonitored' } });
    await call(setNodeMonitor, { body: { ids: [a.nodeId], monitor: true } });
    expect((await nodeSend(t.app, probe, getProbes, undefined)).json().data[0].targets).toHaveLength(1);

    await call(updateMonitorNode, { body: { id: monitor, enabled: false } });
    expect((await nodeSend(t.app, probe, getProbes, undefined)).json().data).toEqual([]);
    expect((await report(probe, [{ groupId: g.id, nodeId: a.nodeId, ok: true }])).json().code).toBe(101018);
  });

  it('marks a target down after the threshold and up again on success, with history', async () => {
    const probe = await joinNode(t.app, client, 'probe-s');
    const monitor = await monitorOf(probe);
    const a = await edgeNode('target-s');
    const g = await group('states', [monitor], [a.nodeId]);
    const pair = { groupId: g.id, nodeId: a.nodeId };

    expect((await targets(g.id)).data[0]).toMatchObject({ state: 'unknown', since: null, checkedAt: null });
    expect((await report(probe, [{ ...pair, ok: true }])).statusCode).toBe(200);
    const upAt = new Date(clock.now()).toISOString();
    expect((await targets(g.id)).data[0]).toMatchObject({ state: 'up', since: upAt, checkedAt: upAt });

    clock.advance(10_000);
    await report(probe, [{ ...pair, ok: false, reason: '443 ECONNREFUSED' }]);
    expect((await targets(g.id)).data[0]).toMatchObject({ state: 'up', since: upAt });
    clock.advance(10_000);
    await report(probe, [{ ...pair, ok: false, reason: '443 ECONNREFUSED' }]);
    const downAt = new Date(clock.now()).toISOString();
    expect((await targets(g.id)).data[0]).toMatchObject({ state: 'down', since: downAt, reason: '443 ECONNREFUSED' });

    const nodeList = (await call(listInitializedNodes, { query: { pageSize: 100 } })).json().data;
    expect(nodeList.find((n: { id: number }) => n.id === a.nodeId)!.monitorState).toEqual({
      state: 'down',
      since: downAt,
    });
    const down = (await call(listNodesEnableStatus, { query: { state: 'down', pageSize: 100 } })).json();
    expect(down.data.map((n: { id: number }) => n.id)).toEqual([a.nodeId]);
    expect(down.data[0]).toMatchObject({ state: 'down', since: downAt, groups: [{ id: g.id, state: 'down' }] });

    clock.advance(10_000);
    await report(probe, [{ ...pair, ok: true }]);
    const recovered = (await targets(g.id)).data[0];
    expect(recovered).toMatchObject({ state: 'up', since: new Date(clock.now()).toISOString(), reason: '' });
    expect(recovered.history.map((h: { state: string }) => h.state)).toEqual(['up', 'down', 'up']);
    expect((await targets(g.id)).data[0].history[1]).toMatchObject({ at: downAt, reason: '443 ECONNREFUSED' });
    const unmonitored = (await call(listNodesEnableStatus, { query: { state: 'unmonitored', pageSize: 100 } })).json();
    expect(unmonitored.data.map((n: { id: number }) => n.id)).not.toContain(a.nodeId);
  });

  it('needs more than half of the active monitors to agree before a target goes down', async () => {
    const [p1, p2] = [await joinNode(t.app, client, 'probe-m1'), await joinNode(t.app, client, 'probe-m2')];
    const a = await edgeNode('target-m');
    const g = await group('agree', [await monitorOf(p1), await monitorOf(p2)], [a.nodeId]);
    const pair = { groupId: g.id, nodeId: a.nodeId };
    await report(p1, [{ ...pair, ok: true }]);
    await report(p2, [{ ...pair, ok: true }]);
    for (let i = 0; i < 3; i += 1) {
      clock.advance(10_000);
      await report(p1, [{ ...pair, ok: false, reason: '80 timeout' }]);
      await report(p2, [{ ...pair, ok: true }]);
    }
    expect((await targets(g.id)).data[0].state).toBe('up');
    clock.advance(10_000);
    await report(p2, [{ ...pair, ok: false, reason: '80 timeout' }]);
    clock.advance(10_000);
    await report(p2, [{ ...pair, ok: false, reason: '80 timeout' }]);
    expect((await targets(g.id)).data[0].state).toBe('down');
  });

  it('decides states by the rule the docs give', () => {
    expect(decideState('unknown', [], 2)).toBe('unknown');
    expect(decideState('unknown', [1], 2)).toBe('unknown');
    expect(decideState('up', [2], 2)).toBe('down');
    expect(decideState('down', [0], 2)).toBe('up');
    expect(decideState('up', [2, 0], 2)).toBe('up');
    expect(decideState('up', [2, 2, 0], 2)).toBe('down');
  });

  it('refuses results for a target the monitor is not assigned, all or none, and bad input', async () => {
    const probe = await joinNode(t.app, client, 'probe-r');
    const a = await edgeNode('target-r');
    const b = await edgeNode('target-r2');
    const g = await group('results', [await monitorOf(probe)], [a.nodeId]);
    const res = await report(probe, [
      { groupId: g.id, nodeId: a.nodeId, ok: true },
      { groupId: g.id, nodeId: b.nodeId, ok: true },
    ]);
    expect(res.json().code).toBe(101018);
    expect((await targets(g.id)).data[0].state).toBe('unknown');
    const bad = await report(probe, []);
    expect(bad.json().code).toBe(101003);
    expect((await nodeSend(t.app, { ...probe, secret: 'ns_wrong' }, getProbes, undefined)).json().code).toBe(101013);
  });
});

describe('isolation', () => {
  it("keeps a second operator away from the first one's monitors, groups, nodes and probes", async () => {
    const probe = await joinNode(t.app, client, 'probe-i');
    const monitor = await monitorOf(probe);
    const a = await edgeNode('target-i');
    const g = await group('mine', [monitor], [a.nodeId]);

    expect((await call(listMonitorNodes, undefined, other)).json()).toEqual({ data: [], total: 0 });
    expect((await call(listMonitorGroups, undefined, other)).json()).toEqual({ data: [], total: 0 });
    expect((await call(metaMonitors, undefined, other)).json().data).toEqual([]);
    expect((await call(metaMonitorGroups, undefined, other)).json().data).toEqual([]);
    expect((await call(listMonitorCandidates, undefined, other)).json().total).toBe(0);
    expect((await call(listNodesEnableStatus, undefined, other)).json().total).toBe(0);
    expect((await call(listMonitorGroupNodes, { params: { id: g.id } }, other)).json().code).toBe(101018);
    for (const [route, input] of [
      [createMonitorNode, { body: { nodeID: a.nodeId } }],
      [updateMonitorNode, { body: { id: monitor, enabled: false } }],
      [deleteMonitorNode, { body: { id: monitor } }],
      [updateMonitorGroup, { body: { id: g.id, name: 'x', ...settings, monitorIDs: [monitor], nodeIDs: [a.nodeId] } }],
      [deleteMonitorGroup, { body: { id: g.id } }],
    ] as const) {
      expect((await rawRequest(t.app, route, input, { token: other })).json().code).toBe(101018);
    }

    // The second operator's own monitor may not use the first one's nodes, nor report for them.
    const otherZone = (await call(createZone, { body: { name: 'Mine' } }, other)).json().data.id;
    const theirProbe = await joinNode(t.app, other, 'their-probe');
    const theirMonitor = await monitorOf(theirProbe, other);
    const theirs = await edgeNode('their-target', otherZone, other);
    const body = { name: 'theirs', ...settings, monitorIDs: [theirMonitor], nodeIDs: [a.nodeId] };
    expect((await call(createMonitorGroup, { body }, other)).json().code).toBe(101018);
    const borrowed = { ...body, monitorIDs: [monitor], nodeIDs: [theirs.nodeId] };
    expect((await call(createMonitorGroup, { body: borrowed }, other)).json().code).toBe(101018);
    await group('theirs', [theirMonitor], [theirs.nodeId], other);
    const probes = (await nodeSend(t.app, theirProbe, getProbes, undefined)).json().data;
    expect(probes.flatMap((p: { targets: { nodeId: number }[] }) => p.targets.map((x) => x.nodeId))).toEqual([
      theirs.nodeId,
    ]);
    expect((await report(theirProbe, [{ groupId: g.id, nodeId: a.nodeId, ok: false }])).json().code).toBe(101018);
    expect((await targets(g.id)).data[0].state).toBe('unknown');
  });

  it('does not open monitoring to the user console', async () => {
    const user = await signIn(t.app, 'user');
    expect((await call(listMonitorNodes, undefined, user)).json().code).toBe(101018);
  });
});
