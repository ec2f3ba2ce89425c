import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AnyRoute, RouteInput } from '@rampart/contract';
import {
  createZone,
  getLatestNodeVersion,
  getNodeCommands,
  getNodeRelease,
  getNodeReleaseFile,
  initializeNodes,
  listInitializedNodes,
  listNodeUpgradeLogs,
  reportNodeCommandResult,
  reportNodeStatus,
  reportNodeUpgradeProgress,
  upgradeNodes,
} from '@rampart/contract';
import type { CallArgs, CallInput } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentReleases } from '../src/modules/nodes/agent-releases.js';
import { signInOtherOperator } from './helpers/accounts.js';
import { manualClock, signIn } from './helpers/auth.js';
import { nodeSend, rawInput, send, sendAs, type Token } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Node upgrade: the control plane serves the agent release of its own version (1.2.0 here) over the
// signed node API, queues upgrade commands, records each stage per node and ends an upgrade when the
// node reports the new version, or when its command fails or expires.

const VERSION = '1.2.0';
const BUNDLE = `#!/usr/bin/env node\n// rampart-edge-version: ${VERSION}\nconsole.log('agent');\n`;
const INIT_LUA = 'return {}\n';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

const clock = manualClock();
let releaseDir: string;
let t: TestApp;
let bare: TestApp;
let client: { accessToken: string };
let rival: { accessToken: string };
let zoneId: number;
let a: JoinedNode;
let b: JoinedNode;
let c: JoinedNode;

beforeAll(async () => {
  releaseDir = await mkdtemp(path.join(tmpdir(), 'rampart-release-'));
  await mkdir(path.join(releaseDir, 'dist'));
  await mkdir(path.join(releaseDir, 'lua/rampart'), { recursive: true });
  await writeFile(path.join(releaseDir, 'dist/rampart-edge.js'), BUNDLE);
  await writeFile(path.join(releaseDir, 'dist/rampart-edge.js.map'), '{}');
  await writeFile(path.join(releaseDir, 'lua/rampart/init.lua'), INIT_LUA);
  await writeFile(path.join(releaseDir, 'secret.txt'), 'not part of the release');
  t = await createTestApp({ clock: clock.now, config: { version: VERSION, agentReleaseDir: releaseDir } });
  bare = await createTestApp({ config: { version: VERSION, agentReleaseDir: null } });
  client = await signIn(t.app, 'client');
  rival = await signInOtherOperator(t.app);
  zoneId = (await call(createZone, { body: { name: 'Asia' } })).json().data.id;
  [a, b, c] = [
    await joinNode(t.app, client, 'edge-a'),
    await joinNode(t.app, client, 'edge-b'),
    await joinNode(t.app, client, 'edge-c'),
  ];
  await call(initializeNodes, { body: { ids: [a.nodeId, b.nodeId, c.nodeId], zoneID: zoneId } });
});
afterAll(async () => {
  await t.close();
  await bare.close();
  await rm(releaseDir, { recursive: true, force: true });
});

function call<R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) {
  return sendAs(t.app, client, route, ...args);
}
const node = <R extends AnyRoute>(n: JoinedNode, route: R, input?: CallInput<R>) =>
  nodeSend(t.app, n, route, input as CallInput<R>, { nowMs: clock.now() });
const report = (n: JoinedNode, version: string) =>
  node(n, reportNodeStatus, { body: { version, appliedVersion: '', lastError: '' } });
async function logs(n: JoinedNode, query: RouteInput<typeof listNodeUpgradeLogs>['query'] = { page: 1, pageSize: 50 }) {
  const res = await call(listNodeUpgradeLogs, { params: { id: n.nodeId }, query });
  expect(res.statusCode).toBe(200);
  return res.json();
}
async function listed(n: JoinedNode) {
  const res = await call(listInitializedNodes, { query: { page: 1, pageSize: 50 } });
  return res.json().data.find((x: { id: number }) => x.id === n.nodeId);
}

describe('node upgrade', () => {
  it('answers the latest version and whether this control plane has its release', async () => {
    expect((await call(getLatestNodeVersion)).json().data).toEqual({ version: VERSION, available: true });
    const other = await signIn(bare.app, 'client');
    const res = await send(bare.app, getLatestNodeVersion, undefined, { token: other });
    expect(res.json().data).toEqual({ version: VERSION, available: false });
  });

  it('serves a release only when its bundle declares the control plane’s version, and sees a rebuild', async () => {
    expect(await new AgentReleases(releaseDir, '9.9.9').manifest()).toBeNull();
    const releases = new AgentReleases(releaseDir, VERSION);
    const lua = path.join(releaseDir, 'lua/rampart/extra.lua');
    await writeFile(lua, '-- more\n');
    try {
      const manifest = await releases.manifest();
      expect(manifest?.files.map((f) => f.path)).toContain('lua/rampart/extra.lua');
      expect((await releases.file(VERSION, 'lua/rampart/extra.lua'))?.toString()).toBe('-- more\n');
    } finally {
      await rm(lua);
    }
    expect((await releases.manifest())?.files.map((f) => f.path)).not.toContain('lua/rampart/extra.lua');
  });

  it('serves the release manifest and its files to signed nodes only, and nothing outside it', async () => {
    const manifest = (await node(a, getNodeRelease)).json().data;
    expect(manifest).toEqual({
      version: VERSION,
      files: [
        { path: 'dist/rampart-edge.js', sha256: sha(BUNDLE), size: BUNDLE.length },
        { path: 'lua/rampart/init.lua', sha256: sha(INIT_LUA), size: INIT_LUA.length },
      ],
    });
    const file = await node(a, getNodeReleaseFile, { query: { version: '1.2.0', path: 'dist/rampart-edge.js' } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/octet-stream');
    expect(file.body).toBe(BUNDLE);

    const unsigned = await send(t.app, getNodeRelease, undefined);
    expect(unsigned.json().code).toBe(101013);
    const unsignedFile = await send(t.app, getNodeReleaseFile, {
      query: { version: '1.2.0', path: 'dist/rampart-edge.js' },
    });
    expect(unsignedFile.json().code).toBe(101013);
    // Not in the manifest (a map, a file beside the release, another version): as if missing.
    for (const query of [
      { version: VERSION, path: 'dist/rampart-edge.js.map' },
      { version: VERSION, path: 'lua/missing.lua' },
      { version: '1.1.0', path: 'dist/rampart-edge.js' },
    ]) {
      expect((await node(a, getNodeReleaseFile, { query })).json().code).toBe(101018);
    }
    // Paths that leave the release are not even release paths.
    for (const bad of ['lua/../secret.txt', '../secret.txt', 'secret.txt', '/etc/passwd']) {
      const res = await node(a, getNodeReleaseFile, { query: { version: '1.2.0', path: bad } });
      expect(res.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'path' }] } });
    }
    const other = await joinNode(bare.app, await signIn(bare.app, 'client'), 'bare-node');
    const none = await nodeSend(bare.app, other, getNodeRelease, undefined);
    expect(none.json().code).toBe(202008);
  });

  it('queues an upgrade per node, records each stage and succeeds when the node reports the version', async () => {
    const queued = await call(upgradeNodes, { body: { ids: [a.nodeId, b.nodeId] } });
    expect(queued.statusCode).toBe(200);
    const [command] = queued.json().data;
    expect(command).toMatchObject({ nodeId: a.nodeId, type: 'upgrade', status: 'queued' });
    expect(await listed(a)).toMatchObject({ upgradeStatus: 'upgrading' });
    const upgrading = await call(listInitializedNodes, { query: { upgradeStatuses: 'upgrading' } });
    expect(
      upgrading
        .json()
        .data.map((n: { id: number }) => n.id)
        .sort(),
    ).toEqual([a.nodeId, b.nodeId].sort());

    expect((await node(a, getNodeCommands)).json().data).toEqual([
      { id: command.id, type: 'upgrade', payload: { version: VERSION } },
    ]);
    for (const stage of ['downloading', 'verified', 'switched'] as const) {
      const res = await node(a, reportNodeUpgradeProgress, {
        body: { commandId: command.id, stage, message: `${stage} ok` },
      });
      expect(res.statusCode).toBe(200);
    }
    // Another node cannot report on a's upgrade.
    const forged = await node(b, reportNodeUpgradeProgress, {
      body: {
        commandId: command.id,
        stage: 'verified',
        message: '',
      },
    });
    expect(forged.json().code).toBe(101018);
    await node(a, reportNodeCommandResult, {
      params: { id: command.id },
      body: { ok: true, message: `restarting onto ${VERSION}` },
    });
    // The old agent's heartbeat still says 0.1.0: the upgrade runs on.
    await report(a, '0.1.0');
    expect(await listed(a)).toMatchObject({ upgradeStatus: 'upgrading' });
    await report(a, VERSION);
    expect(await listed(a)).toMatchObject({ upgradeStatus: 'succeeded', version: VERSION });

    const history = await logs(a);
    expect(history.data.map((l: { stage: string }) => l.stage).reverse()).toEqual([
      'queued',
      'downloading',
      'verified',
      'switched',
      'restarting',
      'reported',
    ]);
    expect(history.data[0]).toMatchObject({
      nodeId: a.nodeId,
      version: VERSION,
      message: `the node reports version ${VERSION}`,
    });
    expect(history.data[1]).toMatchObject({ commandId: command.id, message: `restarting onto ${VERSION}` });
    const page = await logs(a, { page: 2, pageSize: 4 });
    expect(page.total).toBe(6);
    expect(page.data.map((l: { stage: string }) => l.stage)).toEqual(['downloading', 'queued']);
    const succeeded = await call(listInitializedNodes, { query: { upgradeStatuses: ['succeeded', 'failed'] } });
    expect(succeeded.json().data.map((n: { id: number }) => n.id)).toEqual([a.nodeId]);
  });

  it('marks an upgrade failed with the reason when the agent fails it or never picks it up', async () => {
    const [command] = (await node(b, getNodeCommands)).json().data;
    expect(command.type).toBe('upgrade');
    await node(b, reportNodeCommandResult, {
      params: { id: command.id },
      body: {
        ok: false,
        message: 'sha256 of lua/rampart/init.lua differs',
      },
    });
    expect(await listed(b)).toMatchObject({ upgradeStatus: 'failed' });
    expect((await logs(b)).data[0]).toMatchObject({
      stage: 'failed',
      message: 'sha256 of lua/rampart/init.lua differs',
    });
    // A finished upgrade takes no more progress.
    const late = await node(b, reportNodeUpgradeProgress, {
      body: { commandId: command.id, stage: 'switched', message: '' },
    });
    expect(late.json().code).toBe(101018);

    await call(upgradeNodes, { body: { ids: [c.nodeId] } });
    clock.advance(601_000);
    expect((await node(c, getNodeCommands)).json().data).toEqual([]);
    expect(await listed(c)).toMatchObject({ upgradeStatus: 'failed' });
    expect((await logs(c)).data[0]).toMatchObject({ stage: 'failed', message: 'not picked up by the node in time' });
  });

  it('refuses with 202008 when there is no release to serve or a node runs a newer version, queuing nothing', async () => {
    const other = await signIn(bare.app, 'client');
    const zone = (await send(bare.app, createZone, { body: { name: 'Bare' } }, { token: other })).json().data.id;
    const n = await joinNode(bare.app, other, 'bare-edge');
    await send(bare.app, initializeNodes, { body: { ids: [n.nodeId], zoneID: zone } }, { token: other });
    const none = await send(bare.app, upgradeNodes, { body: { ids: [n.nodeId] } }, { token: other });
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({ code: 202008, extra: { version: VERSION } });

    await report(c, '1.10.0');
    const before = (await logs(a)).total;
    const newer = await call(upgradeNodes, { body: { ids: [a.nodeId, c.nodeId] } });
    expect(newer.json()).toMatchObject({ code: 202008, extra: { nodeIDs: [c.nodeId], version: VERSION } });
    expect((await logs(a)).total).toBe(before);
    expect((await node(a, getNodeCommands)).json().data).toEqual([]);
  });

  it('refuses bad input with 101003 naming the field', async () => {
    const empty = await call(upgradeNodes, { body: { ids: [] } });
    expect(empty.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'ids' }] } });
    const filter = await call(listInitializedNodes, rawInput({ query: { upgradeStatuses: 'done' } }));
    expect(filter.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'upgradeStatuses' }] } });
    const id = await call(listNodeUpgradeLogs, rawInput({ params: { id: 'abc' } }));
    expect(id.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'id' }] } });
    const stage = await node(
      a,
      reportNodeUpgradeProgress,
      rawInput({ body: { commandId: 1, stage: 'reported', message: '' } }),
    );
    expect(stage.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'stage' }] } });
  });

  it('keeps upgrades to their operator: another operator can neither upgrade nor read them', async () => {
    const all = await call(upgradeNodes, { body: { ids: [a.nodeId, 987_654] } });
    expect(all.json().code).toBe(101018);
    expect((await call(upgradeNodes, { body: { ids: [a.nodeId] } }, rival)).json().code).toBe(101018);
    expect((await call(listNodeUpgradeLogs, { params: { id: a.nodeId } }, rival)).json().code).toBe(101018);
    const list = await call(listInitializedNodes, { query: { upgradeStatuses: 'succeeded' } }, rival);
    expect(list.json()).toMatchObject({ data: [], total: 0 });
    expect((await logs(a)).data[0].stage).toBe('reported');
  });

  it('lists the initialised nodes not on a version (the upgrade page), paged, for their operator only', async () => {
    await report(a, VERSION);
    await report(b, '0.9.0');
    await report(c, '1.10.0');
    const ids = async (query: RouteInput<typeof listInitializedNodes>['query'], as = client) => {
      const res = await call(listInitializedNodes, { query }, as);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      return { ids: body.data.map((n: { id: number; version: string }) => n.id), total: body.total };
    };
    const notOn = await ids({ notVersion: VERSION, page: 1, pageSize: 50 });
    expect(notOn.ids.sort()).toEqual([b.nodeId, c.nodeId].sort());
    expect(notOn.total).toBe(2);
    const first = await ids({ notVersion: VERSION, page: 1, pageSize: 1 });
    const second = await ids({ notVersion: VERSION, page: 2, pageSize: 1 });
    expect(first.total).toBe(2);
    expect([...first.ids, ...second.ids].sort()).toEqual([b.nodeId, c.nodeId].sort());
    expect(await ids({ notVersion: VERSION, upgradeStatuses: 'failed', page: 1, pageSize: 50 })).toMatchObject({
      total: 2,
    });
    expect(await ids({ notVersion: '0.9.0', page: 1, pageSize: 50 })).toMatchObject({ total: 2 });
    expect((await ids({ notVersion: '0.9.0', page: 1, pageSize: 50 })).ids).not.toContain(b.nodeId);

    // Another operator sees its own node only.
    const zone = (await call(createZone, { body: { name: 'Rival' } }, rival)).json().data.id;
    const theirs = await joinNode(t.app, rival, 'rival-edge');
    await call(initializeNodes, { body: { ids: [theirs.nodeId], zoneID: zone } }, rival);
    await report(theirs, '0.1.0');
    expect(await ids({ notVersion: VERSION, page: 1, pageSize: 50 }, rival)).toEqual({
      ids: [theirs.nodeId],
      total: 1,
    });
    expect((await ids({ notVersion: VERSION, page: 1, pageSize: 50 })).ids).not.toContain(theirs.nodeId);

    const empty = await call(listInitializedNodes, rawInput({ query: { notVersion: '' } }));
    expect(empty.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'notVersion' }] } });
  });
});
