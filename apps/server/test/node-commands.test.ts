import type { AnyRoute } from '@rampart/contract';
import {
  getNodeCommands,
  initializeNodes,
  listNodeCommands,
  rebootZoneNodes,
  reportNodeCommandResult,
  resetZoneNodes,
  rotateNodeLogs,
} from '@rampart/contract';
import type { CallInput } from '@rampart/contract/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { RECHECK_MS } from '../src/modules/nodes/node-commands.service.js';
import { manualClock } from './helpers/auth.js';
import { fieldNames, nodeSend, rawInput, send } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { twoZonesFile } from './helpers/operators.js';

// The command channel: the operator queues reboot, reset and log rotation; each node long-polls
// for its own commands and answers their results.

const clock = manualClock();
const z = twoZonesFile({ clock: clock.now });
const { call } = z;
let a: JoinedNode;
let b: JoinedNode;
let elsewhere: JoinedNode;
let waiting: JoinedNode;

beforeAll(async () => {
  [a, b, elsewhere, waiting] = [
    await joinNode(z.t.app, z.client, 'edge-a'),
    await joinNode(z.t.app, z.client, 'edge-b'),
    await joinNode(z.t.app, z.client, 'edge-eu'),
    await joinNode(z.t.app, z.client, 'edge-new'),
  ];
  await call(initializeNodes, { body: { ids: [a.nodeId, b.nodeId], zoneID: z.zoneId } });
  await call(initializeNodes, { body: { ids: [elsewhere.nodeId], zoneID: z.otherZoneId } });
});

const node = <R extends AnyRoute>(n: JoinedNode, route: R, input?: CallInput<R>) =>
  nodeSend(z.t.app, n, route, input as CallInput<R>, { nowMs: clock.now() });
async function history(n: JoinedNode, zone = z.zoneId) {
  const res = await call(listNodeCommands, {
    params: { zoneID: zone, id: n.nodeId },
    query: { page: 1, pageSize: 20 },
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('node commands', () => {
  it('queues a reboot, hands it only to its node, and records the result the node reports', async () => {
    const queued = await call(rebootZoneNodes, { params: { zoneID: z.zoneId }, body: { ids: [a.nodeId] } });
    expect(queued.statusCode).toBe(200);
    const [command] = queued.json().data;
    expect(command).toMatchObject({ nodeId: a.nodeId, type: 'reboot', status: 'queued', message: '' });

    expect((await node(b, getNodeCommands)).json().data).toEqual([]);
    const taken = await node(a, getNodeCommands, { query: { wait: 0 } });
    expect(taken.json().data).toEqual([{ id: command.id, type: 'reboot', payload: {} }]);
    expect((await history(a)).data[0]).toMatchObject({ id: command.id, status: 'sent' });
    // Handed out once: the next poll has nothing.
    expect((await node(a, getNodeCommands)).json().data).toEqual([]);

    const forged = await node(b, reportNodeCommandResult, {
      params: { id: command.id },
      body: { ok: true, message: 'not mine' },
    });
    expect(forged.json().code).toBe(101018);
    const result = await node(a, reportNodeCommandResult, {
      params: { id: command.id },
      body: { ok: true, message: 'master 10 → 20' },
    });
    expect(result.statusCode).toBe(200);
    expect((await history(a)).data[0]).toMatchObject({ status: 'succeeded', message: 'master 10 → 20' });
    expect((await history(a)).data[0].finishedAt).not.toBeNull();
    // A finished command cannot be answered again.
    const again = await node(a, reportNodeCommandResult, {
      params: { id: command.id },
      body: { ok: false, message: 'late' },
    });
    expect(again.json().code).toBe(101018);
  });

  it('answers a waiting poll as soon as a command is queued for its node', async () => {
    const polledAt = Date.now();
    const poll = node(a, getNodeCommands, { query: { wait: 20 } });
    await new Promise((r) => setTimeout(r, 200));
    const command = (await call(rotateNodeLogs, { body: { ids: [a.nodeId] } })).json().data[0];
    const answered = (await poll).json().data;
    // Woken by the queueing, not found by the poll's periodic re-check (RECHECK_MS after its first look).
    expect(Date.now() - polledAt).toBeLessThan(RECHECK_MS);
    expect(answered).toEqual([{ id: command.id, type: 'logRotate', payload: {} }]);
    await node(a, reportNodeCommandResult, {
      params: { id: command.id },
      body: { ok: false, message: 'rename refused' },
    });
    expect((await history(a)).data[0]).toMatchObject({
      type: 'logRotate',
      status: 'failed',
      message: 'rename refused',
    });
  });

  it('expires a command no node picked up within ten minutes, and one never answered', async () => {
    const [reset] = (await call(resetZoneNodes, { params: { zoneID: z.zoneId }, body: { ids: [b.nodeId] } })).json()
      .data;
    const [reboot] = (await call(rebootZoneNodes, { params: { zoneID: z.zoneId }, body: { ids: [a.nodeId] } })).json()
      .data;
    expect((await node(a, getNodeCommands)).json().data.map((c: { id: number }) => c.id)).toEqual([reboot.id]);
    clock.advance(601_000);
    expect((await history(b)).data[0]).toMatchObject({ id: reset.id, status: 'expired' });
    expect((await history(b)).data[0].message).toMatch(/not picked up/);
    expect((await node(b, getNodeCommands)).json().data).toEqual([]);
    const late = await node(a, reportNodeCommandResult, { params: { id: reboot.id }, body: { ok: true, message: '' } });
    expect(late.json().code).toBe(101018);
    expect((await history(a)).data[0]).toMatchObject({ id: reboot.id, status: 'expired' });
  });

  it('queues all or none: a node of another zone, an uninitialised or unknown one refuses the whole call', async () => {
    const before = (await history(a)).total;
    for (const ids of [
      [a.nodeId, elsewhere.nodeId],
      [a.nodeId, waiting.nodeId],
      [a.nodeId, 987_654],
    ]) {
      expect((await call(rebootZoneNodes, { params: { zoneID: z.zoneId }, body: { ids } })).json().code).toBe(101018);
    }
    expect((await call(rotateNodeLogs, { body: { ids: [a.nodeId, waiting.nodeId] } })).json().code).toBe(101018);
    expect((await history(a)).total).toBe(before);
    // Both zones' nodes in one call are fine where the path names no zone.
    const both = await call(rotateNodeLogs, { body: { ids: [a.nodeId, elsewhere.nodeId] } });
    expect(both.json().data.map((c: { nodeId: number }) => c.nodeId)).toEqual([a.nodeId, elsewhere.nodeId]);
  });

  it('refuses bad input with 101003 naming the field', async () => {
    const empty = await call(resetZoneNodes, { params: { zoneID: z.zoneId }, body: { ids: [] } });
    expect(empty.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'ids' }] } });
    const badZone = await call(rebootZoneNodes, { params: { zoneID: 'abc' }, body: { ids: [a.nodeId] } });
    expect(badZone.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'zoneID' }] } });
    const badWait = await node(a, getNodeCommands, { query: { wait: 31 } });
    expect(badWait.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'wait' }] } });
    const badResult = await node(
      a,
      reportNodeCommandResult,
      rawInput({
        params: { id: 1 },
        body: { ok: 'yes', message: 'x'.repeat(2001) },
      }),
    );
    expect(fieldNames(badResult).sort()).toEqual(['message', 'ok']);
  });

  it('keeps commands to their operator: another operator can neither queue nor read them', async () => {
    expect(
      (await call(rebootZoneNodes, { params: { zoneID: z.zoneId }, body: { ids: [a.nodeId] } }, z.rival)).json().code,
    ).toBe(101018);
    expect((await call(rotateNodeLogs, { body: { ids: [a.nodeId] } }, z.rival)).json().code).toBe(101018);
    const read = await call(listNodeCommands, { params: { zoneID: z.zoneId, id: a.nodeId } }, z.rival);
    expect(read.json().code).toBe(101018);
    // The node's own zone is part of the path: the right node under another zone is not found either.
    expect((await call(listNodeCommands, { params: { zoneID: z.otherZoneId, id: a.nodeId } })).json().code).toBe(
      101018,
    );
    const unsigned = await send(z.t.app, getNodeCommands, undefined);
    expect(unsigned.json().code).toBe(101013);
  });
});
