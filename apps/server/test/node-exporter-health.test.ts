import {
  type AnyRoute,
  getNodeExporter,
  getNodeSnapshot,
  getSystemHealth,
  HEALTH_PARTS,
  NODE_EXPORTER_DEFAULT,
  NODE_EXPORTER_WHITE_IPS_MAX,
  saveNodeExporter,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { fieldNames, nodeSend, rawInput, sendAs, type Token } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The operator's node exporter setting (contract edge/node-exporter.ts) and its system health page
// (routes/system-health.ts): each call, its validation, its effect on the nodes' snapshots and the
// isolation between operators.
let t: TestApp;
let client: Token;
let rival: Token;
let user: Token;
let node: JoinedNode;
let rivalNode: JoinedNode;
let clientId: number;
let rivalId: number;

const as = <R extends AnyRoute>(who: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, who, route, ...args);
const snapshotOf = async (n: JoinedNode) => (await nodeSend(t.app, n, getNodeSnapshot, {})).json().data;
const raw = () => t.db.database.db;

const setting = { whiteIPs: ['10.0.0.1', '2001:db8::/32', '192.0.2.0/24'], limitCountSec: 10, limitCountTimes: 5 };

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  clientId = await rootId(t.app, 'client');
  rivalId = await addAccount(t.app, 'client', 'rival');
  rival = await signIn(t.app, 'client', 'rival');
  user = await signIn(t.app, 'user');
  node = await joinNode(t.app, client, 'edge-a');
  rivalNode = await joinNode(t.app, rival, 'edge-rival');
});
afterAll(async () => {
  await t?.close();
});

describe('client/setting/nodeExporter', () => {
  it('lets nobody scrape until set', async () => {
    const res = await as(client, getNodeExporter);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: NODE_EXPORTER_DEFAULT });
    expect((await snapshotOf(node)).nodeExporter).toEqual(NODE_EXPORTER_DEFAULT);
  });

  it("saves the operator's setting, and its nodes' snapshots carry it; the other operator's do not", async () => {
    const before = (await snapshotOf(node)).version;
    const res = await as(client, saveNodeExporter, { body: setting });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: setting });
    expect((await as(client, getNodeExporter)).json().data).toEqual(setting);
    const snapshot = await snapshotOf(node);
    expect(snapshot.nodeExporter).toEqual(setting);
    expect(snapshot.version).not.toBe(before);
    expect((await snapshotOf(rivalNode)).nodeExporter).toEqual(NODE_EXPORTER_DEFAULT);
    expect((await as(rival, getNodeExporter)).json().data).toEqual(NODE_EXPORTER_DEFAULT);
  });

  it('keeps each operator to its own setting', async () => {
    const theirs = { whiteIPs: ['198.51.100.9'], limitCountSec: 60, limitCountTimes: 100 };
    expect((await as(rival, saveNodeExporter, { body: theirs })).statusCode).toBe(200);
    expect((await as(client, getNodeExporter)).json().data).toEqual(setting);
    expect((await snapshotOf(rivalNode)).nodeExporter).toEqual(theirs);
    expect((await snapshotOf(node)).nodeExporter).toEqual(setting);
  });

  it.each([
    ['not an address', { ...setting, whiteIPs: ['10.0.0.300'] }, 'whiteIPs.0'],
    ['a host name', { ...setting, whiteIPs: ['10.0.0.1', 'prometheus.example.com'] }, 'whiteIPs.1'],
    ['a bad prefix', { ...setting, whiteIPs: ['10.0.0.0/33'] }, 'whiteIPs.0'],
    ['a duplicate', { ...setting, whiteIPs: ['2001:db8::1', '2001:DB8:0::1'] }, 'whiteIPs.1'],
    [
      'too many',
      { ...setting, whiteIPs: Array.from({ length: NODE_EXPORTER_WHITE_IPS_MAX + 1 }, (_, i) => `10.1.0.${i}`) },
      'whiteIPs',
    ],
    ['a zero window', { ...setting, limitCountSec: 0 }, 'limitCountSec'],
    ['a window over an hour', { ...setting, limitCountSec: 3601 }, 'limitCountSec'],
    ['a fraction', { ...setting, limitCountTimes: 1.5 }, 'limitCountTimes'],
    ['a missing limit', { whiteIPs: [], limitCountSec: 10 }, 'limitCountTimes'],
    ['an unknown field', { ...setting, port: 9100 }, ''],
  ])('refuses %s with 101003 naming the field, and keeps the stored setting', async (_name, body, field) => {
    const res = await as(client, saveNodeExporter, rawInput({ body }));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(101003);
    if (field) expect(fieldNames(res)).toContain(field);
    expect((await as(client, getNodeExporter)).json().data).toEqual(setting);
  });

  it('is not the customer tier’s: 101018', async () => {
    for (const route of [getNodeExporter, getSystemHealth] as const) {
      const res = await as(user, route);
      expect(res.json().code).toBe(101018);
    }
    const res = await as(user, saveNodeExporter, { body: setting });
    expect(res.json().code).toBe(101018);
  });
});

describe('client/health', () => {
  const check = async (who: Token, part: string) => {
    const res = await as(who, getSystemHealth);
    expect(res.statusCode, res.body).toBe(200);
    const found = res.json().data.checks.find((c) => c.part === part);
    if (!found) throw new Error(`no ${part} check`);
    return found;
  };

  it('answers every part, ok on a fresh installation but for nodes not placed', async () => {
    const res = await as(client, getSystemHealth);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.checks.map((c) => c.part)).toEqual([...HEALTH_PARTS]);
    expect(data.checks.every((c) => c.status === 'ok')).toBe(true);
    expect(data.status).toBe('ok');
    expect((await check(client, 'nodes')).details).toEqual({ up: 0, down: 0, uninitialized: 1 });
    expect((await check(client, 'licence')).details).toEqual({ source: 'none', daysLeft: null });
  });

  it("counts the operator's nodes up and down, not another operator's", async () => {
    const now = new Date().toISOString();
    const old = new Date(Date.now() - 3600_000).toISOString();
    await raw().execute(`UPDATE nodes SET status = 'initialized', last_seen_at = '${now}' WHERE id = ${node.nodeId}`);
    await raw().execute(
      `UPDATE nodes SET status = 'initialized', last_seen_at = '${old}' WHERE id = ${rivalNode.nodeId}`,
    );
    const mine = await check(client, 'nodes');
    expect(mine).toMatchObject({ status: 'ok', details: { up: 1, down: 0, uninitialized: 0 } });
    const theirs = await check(rival, 'nodes');
    expect(theirs).toMatchObject({ status: 'error', details: { up: 0, down: 1, uninitialized: 0 } });
    expect((await as(rival, getSystemHealth)).json().data.status).toBe('error');
  });

  it("warns of the operator's DNS changes waiting for a retry, not another operator's", async () => {
    await raw().execute(
      `INSERT INTO dns_unprocessed (owner_id, name, type, line, action, ttl, error, next_attempt_at)
       VALUES (${rivalId}, 'www', 'A', 'default', 'upsert', 600, 'refused', now())`,
    );
    expect(await check(rival, 'dns')).toMatchObject({ status: 'warn', details: { unprocessed: 1 } });
    expect(await check(client, 'dns')).toMatchObject({ status: 'ok', details: { unprocessed: 0 } });
  });

  it("warns of the operator's failed node commands", async () => {
    await raw().execute(
      `INSERT INTO node_commands (owner_id, node_id, type, status, expires_at)
       VALUES (${clientId}, ${node.nodeId}, 'reboot', 'failed', now())`,
    );
    expect(await check(client, 'jobQueue')).toMatchObject({ status: 'warn', details: { failed: 1 } });
    expect(await check(rival, 'jobQueue')).toMatchObject({ status: 'ok', details: { failed: 0 } });
  });
});
