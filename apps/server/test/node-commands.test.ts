import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOtherOperator } from './helpers/accounts.js';
import { callApi, type Method, manualClock, signIn } from './helpers/auth.js';
import { type JoinedNode, joinNode, nodeRequest } from './helpers/edge-node.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The command channel: the operator queues reboot, reset and log rotation; each node long-polls
// for its own commands and answers their results.

const clock = manualClock();
let t: TestApp;
let client: { accessToken: string };
let rival: { accessToken: string };
let zoneId: number;
let otherZoneId: number;
let a: JoinedNode;
let b: JoinedNode;
let elsewhere: JoinedNode;
let waiting: JoinedNode;

beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  client = await signIn(t.app, 'client');
  rival = await signInOtherOperator(t.app);
  zoneId = (await call('POST', 'client/zone', { name: 'Asia' })).json().data.id;
  otherZoneId = (await call('POST', 'client/zone', { name: 'Europe' })).json().data.id;
  [a, b, elsewhere, waiting] = [
    await joinNode(t.app, client, 'edge-a'),
    await joinNode(t.app, client, 'edge-b'),
    await joinNode(t.app, client, 'edge-eu'),
    await joinNode(t.app, client, 'edge-new'),
  ];
  await call('POST', 'client/nodes/initialize', { ids: [a.nodeId, b.nodeId], zoneID: zoneId });
  await call('POST', 'client/nodes/initialize', { ids: [elsewhere.nodeId], zoneID: otherZoneId });
});
afterAll(async () => t.close());

function call(method: Method, url: string, payload?: Record<string, unknown>, token = client) {
  return callApi(t.app, token, method, url, payload);
}
const node = (n: JoinedNode, method: 'GET' | 'POST', path: string, body?: unknown) =>
  nodeRequest(t.app, n, method, path, body, { nowMs: clock.now() });
async function history(n: JoinedNode, zone = zoneId) {
  const res = await call('GET', `client/zone/${zone}/node/${n.nodeId}/commands?page=1&pageSize=20`);
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('node commands', () => {
  it('queues a reboot, hands it only to its node, and records the result the node reports', async () => {
    const queued = await call('POST', `client/zone/${zoneId}/node/reboot`, { ids: [a.nodeId] });
    expect(queued.statusCode).toBe(200);
    const [command] = queued.json().data;
    expect(command).toMatchObject({ nodeId: a.nodeId, type: 'reboot', status: 'queued', message: '' });

    expect((await node(b, 'GET', '/commands')).json().data).toEqual([]);
    const taken = await node(a, 'GET', '/commands?wait=0');
    expect(taken.json().data).toEqual([{ id: command.id, type: 'reboot', payload: {} }]);
    expect((await history(a)).data[0]).toMatchObject({ id: command.id, status: 'sent' });
    // Handed out once: the next poll has nothing.
    expect((await node(a, 'GET', '/commands')).json().data).toEqual([]);

    const forged = await node(b, 'POST', `/commands/${command.id}/result`, { ok: true, message: 'not mine' });
    expect(forged.json().code).toBe(101018);
    const result = await node(a, 'POST', `/commands/${command.id}/result`, { ok: true, message: 'master 10 → 20' });
    expect(result.statusCode).toBe(200);
    expect((await history(a)).data[0]).toMatchObject({ status: 'succeeded', message: 'master 10 → 20' });
    expect((await history(a)).data[0].finishedAt).not.toBeNull();
    // A finished command cannot be answered again.
    const again = await node(a, 'POST', `/commands/${command.id}/result`, { ok: false, message: 'late' });
    expect(again.json().code).toBe(101018);
  });

  it('answers a waiting poll as soon as a command is queued for its node', async () => {
    const poll = node(a, 'GET', '/commands?wait=20');
    await new Promise((r) => setTimeout(r, 200));
    const queuedAt = Date.now();
    const command = (await call('POST', 'client/nodes/logRotate', { ids: [a.nodeId] })).json().data[0];
    const answered = (await poll).json().data;
    expect(Date.now() - queuedAt).toBeLessThan(1000);
    expect(answered).toEqual([{ id: command.id, type: 'logRotate', payload: {} }]);
    await node(a, 'POST', `/commands/${command.id}/result`, { ok: false, message: 'rename refused' });
    expect((await history(a)).data[0]).toMatchObject({
      type: 'logRotate',
      status: 'failed',
      message: 'rename refused',
    });
  });

  it('expires a command no node picked up within ten minutes, and one never answered', async () => {
    const [reset] = (await call('POST', `client/zone/${zoneId}/node/reset`, { ids: [b.nodeId] })).json().data;
    const [reboot] = (await call('POST', `client/zone/${zoneId}/node/reboot`, { ids: [a.nodeId] })).json().data;
    expect((await node(a, 'GET', '/commands')).json().data.map((c: { id: number }) => c.id)).toEqual([reboot.id]);
    clock.advance(601_000);
    expect((await history(b)).data[0]).toMatchObject({ id: reset.id, status: 'expired' });
    expect((await history(b)).data[0].message).toMatch(/not picked up/);
    expect((await node(b, 'GET', '/commands')).json().data).toEqual([]);
    const late = await node(a, 'POST', `/commands/${reboot.id}/result`, { ok: true, message: '' });
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
      expect((await call('POST', `client/zone/${zoneId}/node/reboot`, { ids })).json().code).toBe(101018);
    }
    expect((await call('POST', 'client/nodes/logRotate', { ids: [a.nodeId, waiting.nodeId] })).json().code).toBe(
      101018,
    );
    expect((await history(a)).total).toBe(before);
    // Both zones' nodes in one call are fine where the path names no zone.
    const both = await call('POST', 'client/nodes/logRotate', { ids: [a.nodeId, elsewhere.nodeId] });
    expect(both.json().data.map((c: { nodeId: number }) => c.nodeId)).toEqual([a.nodeId, elsewhere.nodeId]);
  });

  it('refuses bad input with 101003 naming the field', async () => {
    const empty = await call('POST', `client/zone/${zoneId}/node/reset`, { ids: [] });
    expect(empty.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'ids' }] } });
    const badZone = await call('POST', 'client/zone/abc/node/reboot', { ids: [a.nodeId] });
    expect(badZone.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'zoneID' }] } });
    const badWait = await node(a, 'GET', '/commands?wait=31');
    expect(badWait.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'wait' }] } });
    const badResult = await node(a, 'POST', '/commands/1/result', { ok: 'yes', message: 'x'.repeat(2001) });
    expect(
      badResult
        .json()
        .extra.fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['message', 'ok']);
  });

  it('keeps commands to their operator: another operator can neither queue nor read them', async () => {
    expect((await call('POST', `client/zone/${zoneId}/node/reboot`, { ids: [a.nodeId] }, rival)).json().code).toBe(
      101018,
    );
    expect((await call('POST', 'client/nodes/logRotate', { ids: [a.nodeId] }, rival)).json().code).toBe(101018);
    const read = await call('GET', `client/zone/${zoneId}/node/${a.nodeId}/commands`, undefined, rival);
    expect(read.json().code).toBe(101018);
    // The node's own zone is part of the path: the right node under another zone is not found either.
    expect((await call('GET', `client/zone/${otherZoneId}/node/${a.nodeId}/commands`)).json().code).toBe(101018);
    const unsigned = await t.app.inject({ method: 'GET', url: '/api/edge/v1/commands' });
    expect(unsigned.json().code).toBe(101013);
  });
});
