import { listUninitializedNodes, nodeInfo, registerNode } from '@rampart/contract';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, manualClock, signIn } from './helpers/auth.js';
import { fieldNames, send } from './helpers/call.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

const clock = manualClock();
let t: TestApp;
let client: { accessToken: string };
beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  client = await signIn(t.app, 'client');
});
afterAll(async () => t.close());

async function joinToken(): Promise<string> {
  const res = await send(t.app, nodeInfo, undefined, { headers: bearer(client) });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/text\/plain/);
  expect(res.headers['cache-control']).toBe('no-store');
  const lines = Object.fromEntries(
    res.body
      .trim()
      .split('\n')
      .map((l) => l.split(/=(.*)/s).slice(0, 2)),
  );
  expect(lines.control_plane_url).toBe('http://127.0.0.1:9');
  const token = lines.join_token;
  // Both commands run as printed: the install script on a fresh machine, the checkout beside the
  // control plane; the token only in the environment.
  expect(lines.install_command).toBe(
    `curl -fsSL http://127.0.0.1:9/api/edge/v1/install.sh | sudo RAMPART_JOIN_TOKEN=${token} sh -s -- --control-plane http://127.0.0.1:9`,
  );
  expect(lines.install_script_url).toBe('http://127.0.0.1:9/api/edge/v1/install.sh');
  expect(lines.local_command).toBe(
    `RAMPART_JOIN_TOKEN=${token} npm run edge -- --control-plane http://127.0.0.1:9 --state-dir .edge-node` +
      ' --port-map 80=18080,443=18443 --listen-address 127.0.0.1 --ips 127.0.0.1',
  );
  expect(Object.keys(lines)).toEqual([
    'control_plane_url',
    'join_token',
    'install_command',
    'install_script_url',
    'local_command',
  ]);
  return token;
}

async function register(token: string, hostname = 'edge-1') {
  return send(t.app, registerNode, {
    body: { joinToken: token, hostname, ips: ['192.0.2.10', '2001:db8::10'], version: '0.1.0' },
  });
}

function signed(
  nodeId: number,
  secret: string,
  body: unknown,
  over: Partial<{ timestamp: string; nonce: string }> = {},
) {
  const payload = JSON.stringify(body);
  const path = '/api/edge/v1/status';
  return {
    method: 'POST' as const,
    url: path,
    payload,
    headers: {
      'content-type': 'application/json',
      ...signedNodeHeaders({ nodeId, nodeSecret: secret }, 'POST', path, payload, { nowMs: clock.now(), ...over }),
    },
  };
}

const status = { version: '0.1.1', appliedVersion: 'v-abc', lastError: '' };

describe('node join and reports', () => {
  it('shows the same join token each time, and a node joins with it as uninitialised', async () => {
    const token = await joinToken();
    expect(await joinToken()).toBe(token);
    const res = await register(token);
    expect(res.statusCode).toBe(200);
    const { nodeId, nodeSecret } = res.json().data;
    expect(nodeSecret).toMatch(/^ns_/);
    const list = await send(
      t.app,
      listUninitializedNodes,
      { query: { page: 1, pageSize: 10 } },
      { headers: bearer(client) },
    );
    expect(list.json()).toMatchObject({
      total: 1,
      data: [{ id: nodeId, name: 'edge-1', ips: ['192.0.2.10', '2001:db8::10'] }],
    });
    expect(JSON.stringify(list.json())).not.toContain(nodeSecret);
  });

  it('refuses an unknown join token and malformed node data', async () => {
    expect((await register('jt_forged')).json().code).toBe(101013);
    const token = await joinToken();
    const bad = await send(t.app, registerNode, {
      body: { joinToken: token, hostname: 'edge;rm -rf', ips: ['999.1.1.1'], version: '1 0' },
    });
    expect(fieldNames(bad).sort()).toEqual(['hostname', 'ips.0', 'version']);
  });

  it('accepts a signed report once and refuses a replay, a stale one, a bad signature and another node id', async () => {
    const { nodeId, nodeSecret } = (await register(await joinToken(), 'edge-2')).json().data;
    const request = signed(nodeId, nodeSecret, status);
    expect((await t.app.inject(request)).statusCode).toBe(200);
    const node = await t.app.rampart.nodes.findNode(nodeId);
    expect(node).toMatchObject({ version: '0.1.1', appliedVersion: 'v-abc', lastError: '' });

    const replay = await t.app.inject(request);
    expect(replay.json().code).toBe(101013);

    const stale = signed(nodeId, nodeSecret, status, { timestamp: String(Math.floor(clock.now() / 1000) - 301) });
    expect((await t.app.inject(stale)).json().code).toBe(101013);

    const tampered = signed(nodeId, nodeSecret, status);
    tampered.payload = JSON.stringify({ ...status, lastError: 'forged' });
    expect((await t.app.inject(tampered)).json().code).toBe(101013);

    const wrongKey = signed(nodeId, 'ns_not-the-secret', status);
    expect((await t.app.inject(wrongKey)).json().code).toBe(101013);

    const otherId = signed(nodeId + 1000, nodeSecret, status);
    expect((await t.app.inject(otherId)).json().code).toBe(101013);
  });

  it("does not show one operator's nodes or join token to a user or another console", async () => {
    const user = await signIn(t.app, 'user');
    for (const route of [listUninitializedNodes, nodeInfo]) {
      const res = await send(t.app, route, undefined, { token: user });
      expect(res.json().code).toBe(101018);
      expect(res.body).not.toMatch(/jt_/);
    }
  });
});
