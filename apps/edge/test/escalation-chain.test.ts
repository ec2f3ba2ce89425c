import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUpAgents, startAgent, type TestAgent } from './helpers/agent.js';
import { freePort } from './helpers/net.js';
import { inNetns, namespacePair, nginxInNamespace, type Pair } from './helpers/netns.js';
import {
  addSiteDomain,
  type ControlPlane,
  initializeFirstNode,
  type OperatorSetup,
  startOperatorChain,
  waitUntil,
} from './helpers/real-control-plane.js';

/**
 * Floods escalated to the kernel, through the whole chain: two nodes serve one site, each nginx
 * in a network namespace of its own (the agents' nftables tables there), the clients in two more.
 * The site's blacklist denies the flooding addresses; the zone escalates an address refused
 * REFUSALS times within its window. Once an address crosses it on one node, that node's kernel drops
 * it (its SYNs never reach nginx), the block list shows it with the cause `escalated` for both
 * nodes, and the other node's kernel drops it too; the customer's unblock lifts it on both; a repeat
 * lasts twice as long. A whitelisted address and a trusted proxy, refused as often, are never
 * escalated. Node 1 listens on IPv4, node 2 on IPv6. Needs root and `npm run build`.
 */

const FLOOD4 = '10.244.0.2';
const WHITE = '10.244.0.3';
const TRUSTED = '10.244.0.4';
const GOOD = '10.244.0.5';
const MARK = '10.244.0.6';
const FLOOD6 = 'fd00:244::2';
const HOST = 'www.shop.example';
const REFUSALS = 20;

const root = process.getuid?.() === 0;

/** A request's status, 'dropped' (closed unanswered), or 'unreachable' (the kernel dropped the SYN). */
type Outcome = number | 'dropped' | 'unreachable';

interface Block {
  id: number;
  ip: string;
  cause: string;
  nodeID: number;
  ruleID: number | null;
  blockedAt: string;
  expiresAt: string;
}

describe.skipIf(!root)('floods escalated to the kernel', () => {
  let cp: ControlPlane;
  let setup: OperatorSetup;
  let one: Pair;
  let two: Pair;
  let edges: TestAgent[] = [];
  let nodeIds: number[] = [];
  let work: string;

  const url = (pair: Pair, from: string, agent: TestAgent, uri = '/') =>
    from.includes(':')
      ? `http://[${pair.serverV6}]:${agent.ports.http}${uri}`
      : `http://${pair.serverV4}:${agent.ports.http}${uri}`;
  const curl = (pair: Pair, from: string, urls: string[]) =>
    new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        'ip',
        // biome-ignore format: the curl command reads best on one line
        ['netns', 'exec', pair.client, 'curl', '-s', '-w', '%{http_code}\n', '--connect-timeout', '1', '-m', '3', '--interface', from, '-H', `Host: ${HOST}`, ...urls.flatMap((u) => ['-o', '/dev/null', u])],
        (error, stdout) => resolve({ code: error && 'code' in error ? Number(error.code) : 0, stdout }),
      );
    });
  const request = async (from: string, pair = one, agent = edges[0] as TestAgent): Promise<Outcome> => {
    const { code, stdout } = await curl(pair, from, [url(pair, from, agent)]);
    if (code === 0) return Number(stdout.trim());
    if (code === 52) return 'dropped';
    if (code === 28 || code === 7) return 'unreachable';
    throw new Error(`curl exited ${code}: ${stdout}`);
  };
  /** `count` requests from `from` to a node (node 1 by default) in one curl; the statuses nginx answered. */
  const flood = async (from: string, count: number, pair = one, agent = edges[0] as TestAgent) => {
    const { stdout } = await curl(
      pair,
      from,
      Array.from({ length: count }, () => url(pair, from, agent)),
    );
    return stdout.split('\n').filter((s) => s !== '' && s !== '000');
  };
  const blockedSet = (pair: Pair, family: 4 | 6) =>
    inNetns(pair.server, 'nft', 'list', 'set', 'inet', 'rampart', `blocked${family}`).catch(() => '');
  const blocks = () => setup.customer.call<Block[]>('GET', 'user/blockIPs?pageSize=100');
  const escalatedOf = async (ip: string) => (await blocks()).filter((b) => b.ip === ip && b.cause === 'escalated');
  const unblock = async (ip: string) => {
    const ids = (await blocks()).filter((b) => b.ip === ip).map((b) => b.id);
    if (ids.length > 0) await setup.customer.call('DELETE', 'user/blockIPs', { ids });
  };
  const seconds = (b: Block) => (Date.parse(b.expiresAt) - Date.parse(b.blockedAt)) / 1000;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'rampart-escalation-'));
    one = await namespacePair('e', [FLOOD4, WHITE, TRUSTED, GOOD, MARK], []);
    two = await namespacePair('f', [], [FLOOD6]);
    ({ cp, setup } = await startOperatorChain({ PORT: String(await freePort()) }));
    for (const [i, pair] of [one, two].entries()) {
      const dir = path.join(work, pair.server);
      await mkdir(dir);
      const nginx = await nginxInNamespace(dir, pair.server);
      edges.push(
        await startAgent({
          controlPlane: cp.url,
          joinToken: setup.joinToken,
          nginxBinary: nginx,
          // Node 1 listens on IPv4 (every address), node 2 on IPv6 (`[::]`, IPv6 only).
          listenAddress: i === 0 ? undefined : '::',
          hostname: `edge-test-${i + 1}`,
          ips: [`127.0.0.${i + 1}`],
          l4Firewall: { nft: ['ip', 'netns', 'exec', pair.server, 'nft'] },
        }),
      );
      // Each node registers, then is placed in the zone's layer-7 group (the first one not yet placed).
      nodeIds.push(
        nodeIds.length === 0 ? await initializeFirstNode(setup) : await placeSecondNode(setup, nodeIds[0] as number),
      );
    }
    await setup.operator.call('PUT', `client/zone/${setup.zoneId}/setting/l4Protection`, {
      synFlood: null,
      newConnections: null,
      kernelBlocks: false,
      escalation: { refusals: REFUSALS, seconds: 5 },
    });
    await setup.operator.call('PUT', `client/zone/${setup.zoneId}/setting/trust`, { proxies: [TRUSTED] });
    // No origin listens on the server namespaces' loopback: a request let through answers 502.
    await addSiteDomain(setup, HOST, await freePort());
    const site = (p: string, body: unknown) => setup.customer.call('POST', `user/site/${setup.siteId}/${p}`, body);
    const every = { get: true, post: true, head: true, put: true, delete: true, options: true, patch: true };
    await site('firewall/setting/blacklists', {
      data: [{ ips: [FLOOD4, WHITE, TRUSTED, MARK, FLOOD6], url: '.*', methods: every, blockType: 10 }],
    });
    // WHITE is whitelisted for one path only: its other requests meet the blacklist's deny.
    await site('firewall/setting/whitelists', { data: [{ ips: [WHITE], url: '/only-here', methods: every }] });
    await waitUntil(async () => (await request(GOOD)) === 502 && (await request(FLOOD4)) === 403, 30_000, 200);
    await waitUntil(async () => (await request(FLOOD6, two, edges[1])) === 403, 30_000, 200);
    // The kernel tables are in (the zone escalates: its nodes' web ports drop the blocked sets).
    for (const pair of [one, two]) {
      await waitUntil(
        async () => /@blocked4 drop/.test(await inNetns(pair.server, 'nft', 'list', 'table', 'inet', 'rampart')),
        30_000,
        200,
      );
    }
  }, 240_000);

  afterAll(async () => {
    await cleanUpAgents();
    edges = [];
    nodeIds = [];
    await cp?.destroy();
    await one?.remove();
    await two?.remove();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('drops an IPv4 flood in the kernel of both nodes and lists it as escalated', async () => {
    const answered = await flood(FLOOD4, REFUSALS + 5);
    // nginx refused the flood until the address was escalated, then answered it no more.
    expect(answered.length).toBeLessThan(REFUSALS + 5);
    expect(new Set(answered)).toEqual(new Set(['403']));
    await waitUntil(async () => (await blockedSet(one, 4)).includes(FLOOD4), 15_000, 50);
    expect(await request(FLOOD4)).toBe('unreachable');
    // Listed once per node, with the cause and no rule; node 2 got it through the control plane.
    await waitUntil(async () => (await escalatedOf(FLOOD4)).length === 2, 15_000, 100);
    const listed = await escalatedOf(FLOOD4);
    expect(listed.map((b) => b.nodeID).sort()).toEqual([...nodeIds].sort());
    expect(listed.every((b) => b.ruleID === null && seconds(b) === 60)).toBe(true);
    await waitUntil(async () => (await blockedSet(two, 4)).includes(FLOOD4), 15_000, 50);
    // Another address is served as before.
    expect(await request(GOOD)).toBe(502);
  });

  it('never escalates a whitelisted address or a trusted proxy', async () => {
    for (const from of [WHITE, TRUSTED]) {
      const answered = await flood(from, REFUSALS * 3);
      expect(answered).toEqual(Array.from({ length: REFUSALS * 3 }, () => '403'));
    }
    // MARK's escalation is queued after anything the two floods before it would have made.
    await flood(MARK, REFUSALS + 5);
    await waitUntil(async () => (await escalatedOf(MARK)).length === 2, 15_000, 100);
    const listed = (await blocks()).map((b) => b.ip);
    expect(listed).not.toContain(WHITE);
    expect(listed).not.toContain(TRUSTED);
    expect(await blockedSet(one, 4)).not.toContain(WHITE);
    expect(await blockedSet(one, 4)).not.toContain(TRUSTED);
    expect(await request(WHITE)).toBe(403);
    expect(await request(TRUSTED)).toBe(403);
  });

  it('drops an IPv6 flood in the kernel of the node it hit and of the other node', async () => {
    await flood(FLOOD6, REFUSALS + 5, two, edges[1]);
    await waitUntil(async () => (await blockedSet(two, 6)).includes(FLOOD6), 15_000, 50);
    expect(await request(FLOOD6, two, edges[1])).toBe('unreachable');
    await waitUntil(async () => (await escalatedOf(FLOOD6)).length === 2, 15_000, 100);
    await waitUntil(async () => (await blockedSet(one, 6)).includes(FLOOD6), 15_000, 50);
  });

  it('lifts an escalation on both nodes when the customer unblocks it, and a repeat lasts twice as long', async () => {
    await unblock(FLOOD4);
    for (const pair of [one, two])
      await waitUntil(async () => !(await blockedSet(pair, 4)).includes(FLOOD4), 15_000, 50);
    expect(await request(FLOOD4)).toBe(403);
    // Flooded again (a crossing escalates once per window: flood until the list shows it again).
    await waitUntil(
      async () => {
        if ((await escalatedOf(FLOOD4)).length > 0) return true;
        await flood(FLOOD4, REFUSALS + 5);
        return false;
      },
      30_000,
      200,
    );
    await waitUntil(async () => (await escalatedOf(FLOOD4)).length === 2, 15_000, 100);
    expect((await escalatedOf(FLOOD4)).map(seconds)).toEqual([120, 120]);
    await waitUntil(async () => (await blockedSet(one, 4)).includes(FLOOD4), 15_000, 50);
    expect(await request(FLOOD4)).toBe('unreachable');
  });
});

/** Waits for a second node to register and places it in the zone's layer-7 group; its id. */
async function placeSecondNode(setup: OperatorSetup, first: number): Promise<number> {
  let id = 0;
  await waitUntil(
    async () => {
      const nodes = await setup.operator.call<{ id: number }[]>('GET', 'client/nodes');
      id = nodes.find((n) => n.id !== first)?.id ?? 0;
      return id !== 0;
    },
    30_000,
    100,
  );
  await setup.operator.call('POST', 'client/nodes/initialize', {
    ids: [id],
    zoneID: setup.zoneId,
    groupID: setup.groupId,
  });
  return id;
}
