import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
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
 * The layer-7 firewall's blocks pushed down to the node's kernel, through the whole chain (issue
 * 22): the operator turns its zone's `kernelBlocks` on through the API; a customer's DROP +
 * Blacklist rule catches an address at nginx; the agent, which reports the block to the control
 * plane, also puts the address into its nftables table's blocked set, so the address's next
 * connection to the node's web ports never reaches nginx (the SYN is dropped). With the switch off,
 * the same block stays nginx's (the connection is accepted, then dropped) and the kernel set stays
 * empty. nginx runs in a network namespace the test makes; the requests come from addresses in
 * another. Needs root and `npm run build`.
 */

const OFF_ADDR = '10.244.0.2';
const ON_ADDR = '10.244.0.3';
const GOOD = '10.244.0.4';
const HOST = 'www.shop.example';

const root = process.getuid?.() === 0;

/**
 * One HTTP request from `from` (in the client namespace) to the node: its status, 'dropped' when
 * nginx closed it without an answer (444), 'unreachable' when no connection was made at all (the
 * kernel dropped the SYN).
 */
type Outcome = number | 'dropped' | 'unreachable';

describe.skipIf(!root)('layer-7 blocks pushed down to the node’s kernel', () => {
  let cp: ControlPlane;
  let setup: OperatorSetup;
  let pair: Pair;
  let edge: TestAgent;
  let work: string;

  const request = (from: string, userAgent: string) =>
    new Promise<Outcome>((resolve, reject) => {
      const url = `http://${pair.serverV4}:${edge.ports.http}/`;
      execFile(
        'ip',
        // biome-ignore format: the curl command reads best on one line
        ['netns', 'exec', pair.client, 'curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', '--connect-timeout', '1', '-m', '3', '--interface', from, '-H', `Host: ${HOST}`, '-A', userAgent, url],
        (error, stdout) => {
          const code = error && 'code' in error ? Number(error.code) : 0;
          if (code === 0) resolve(Number(stdout));
          else if (code === 52) resolve('dropped');
          else if (code === 28 || code === 7) resolve('unreachable');
          else reject(new Error(`curl exited ${code}: ${stdout}`));
        },
      );
    });
  /** The kernel's blocked set ('' while the agent has no table: no layer-4 rule asks for one). */
  const blockedSet = () => inNetns(pair.server, 'nft', 'list', 'set', 'inet', 'rampart', 'blocked4').catch(() => '');
  const table = () => inNetns(pair.server, 'nft', 'list', 'table', 'inet', 'rampart').catch(() => '');
  const zone = () => `client/zone/${setup.zoneId}/setting/l4Protection`;
  const unblockAll = async () => {
    const blocks = await setup.customer.call<{ id: number }[]>('GET', 'user/blockIPs');
    if (blocks.length > 0) await setup.customer.call('DELETE', 'user/blockIPs', { ids: blocks.map((b) => b.id) });
  };

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'rampart-l4-pushdown-'));
    pair = await namespacePair('p', [OFF_ADDR, ON_ADDR, GOOD], []);
    // nginx runs in the server namespace (where the agent's table goes); the agent stays here.
    const nginx = await nginxInNamespace(work, pair.server);
    ({ cp, setup } = await startOperatorChain({ PORT: String(await freePort()) }));
    edge = await startAgent({
      controlPlane: cp.url,
      joinToken: setup.joinToken,
      nginxBinary: nginx,
      listenAddress: undefined,
      l4Firewall: { nft: ['ip', 'netns', 'exec', pair.server, 'nft'] },
    });
    await initializeFirstNode(setup);
    // No origin listens on the server namespace's loopback: a request let through answers 502.
    await addSiteDomain(setup, HOST, await freePort());
    await waitUntil(async () => (await request(GOOD, 'Mozilla/5.0')) === 502, 30_000, 200);
    await setup.customer.call('POST', `user/site/${setup.siteId}/firewall/setting/userAgents`, {
      data: [{ urlRegex: '.*', userAgentRegex: 'evil-bot', blockType: 12 }],
    });
    await waitUntil(async () => (await request(GOOD, 'evil-bot/1.0')) === 'dropped', 30_000, 200);
    // That test request blocked GOOD at nginx: lift it.
    await waitUntil(async () => (await setup.customer.call<unknown[]>('GET', 'user/blockIPs')).length > 0, 10_000, 100);
    await unblockAll();
    await waitUntil(async () => (await request(GOOD, 'Mozilla/5.0')) === 502, 10_000, 100);
  }, 180_000);

  afterAll(async () => {
    await cleanUpAgents();
    await cp?.destroy();
    await pair?.remove();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('keeps a block in nginx while the zone’s kernel blocks are off: the address still connects, to be dropped', async () => {
    expect(await request(OFF_ADDR, 'evil-bot/1.0')).toBe('dropped');
    await waitUntil(
      async () => (await setup.customer.call<{ ip: string }[]>('GET', 'user/blockIPs')).some((b) => b.ip === OFF_ADDR),
      10_000,
      100,
    );
    // Blocked: a request the rule does not cover is dropped too, but by nginx, after the connection.
    expect(await request(OFF_ADDR, 'Mozilla/5.0')).toBe('dropped');
    expect(await blockedSet()).not.toContain(OFF_ADDR);
  });

  it('drops a blocked address’s connections in the kernel once the operator turns kernel blocks on', async () => {
    await setup.operator.call('PUT', zone(), { synFlood: null, newConnections: null, kernelBlocks: true });
    // The guarded web ports' rule is in the node's table once the snapshot arrived.
    await waitUntil(async () => /@blocked4 drop/.test(await table()), 30_000, 200);
    // The block nginx held from before goes down too, with the rest of its time.
    await waitUntil(async () => (await blockedSet()).includes(OFF_ADDR), 30_000, 100);
    expect(await request(OFF_ADDR, 'Mozilla/5.0')).toBe('unreachable');
    expect(await request(ON_ADDR, 'evil-bot/1.0')).toBe('dropped');
    // The agent reports the block and puts the address into the kernel's set.
    await waitUntil(async () => (await blockedSet()).includes(ON_ADDR), 30_000, 100);
    expect(await request(ON_ADDR, 'Mozilla/5.0')).toBe('unreachable');
    // Another address is served as before.
    expect(await request(GOOD, 'Mozilla/5.0')).toBe(502);
  });

  it('lets the addresses in again, in the kernel too, once the customer unblocks them', async () => {
    await unblockAll();
    await waitUntil(async () => !/10\.244\.0\.[23]/.test(await blockedSet()), 30_000, 100);
    expect(await request(ON_ADDR, 'Mozilla/5.0')).toBe(502);
    expect(await request(OFF_ADDR, 'Mozilla/5.0')).toBe(502);
  });
});
