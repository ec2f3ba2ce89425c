import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { geoRecord, writeMmdb } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUpAgents, startAgent, type TestAgent } from './helpers/agent.js';
import { freePort } from './helpers/net.js';
import {
  type Client,
  inNetns,
  namespacePair,
  nginxInNamespace,
  type Pair,
  startClient,
  startServer,
} from './helpers/netns.js';
import { type ControlPlane, type OperatorSetup, startOperatorChain, waitUntil } from './helpers/real-control-plane.js';

/**
 * The layer-4 rules through the whole chain (issue 22): a customer's rules on its TCP port, set
 * through the API of a built control plane, reach a real agent, which writes them into the kernel
 * (nftables) of the namespace its nginx runs in; connections from source addresses in another
 * namespace are dropped by the kernel or let through to nginx and its upstream. Each rule is
 * checked before it exists too (the same source passes), so every drop is the rule's. The
 * operator's zone SYN rate goes the same way, from its own call to the zone's nodes.
 * Needs root and `npm run build`.
 */

const GOOD = '10.244.0.2';
const BLACK = '10.244.0.3';
const REGION = '10.244.0.4';
const LIMITED = '10.244.0.5';
const FLOOD = '10.244.0.6';
const LET_THROUGH = { timeoutMs: 3000 };

const root = process.getuid?.() === 0;

describe.skipIf(!root)('layer-4 rules from the API to the node’s kernel', () => {
  let cp: ControlPlane;
  let setup: OperatorSetup;
  let pair: Pair;
  let client: Client;
  let edge: TestAgent;
  let seen: string[];
  let work: string;
  let port: number;
  let siteId: number;
  let blacklistId: number;
  let limitId: number;

  const nft = () => ['ip', 'netns', 'exec', pair.server, 'nft'];
  const table = () => inNetns(pair.server, 'nft', 'list', 'table', 'inet', 'rampart');
  /** Connects from `from` and says whether the upstream saw a new connection. */
  const reaches = async (from: string, options = LET_THROUGH) => {
    const before = seen.length;
    const ok = await client.connect(from, port, options);
    if (!ok) {
      await new Promise((r) => setTimeout(r, 200));
      expect(seen.length, `the upstream saw ${from}`).toBe(before);
    }
    return ok;
  };

  /**
   * waitUntil, and on time-out says what the agent last reported: a failed CI run keeps only the
   * message, and a rule that did not reach the kernel is the agent's story to tell.
   */
  const until = (probe: () => Promise<boolean>, what: string, timeoutMs = 45_000) =>
    waitUntil(probe, timeoutMs, 200, () => {
      const warnings = edge.logs.filter((e) => e.level === 'warn' || e.level === 'error').slice(-6);
      return `${what}; the agent's lastError '${edge.agent.lastError}', its last warnings ${JSON.stringify(warnings).slice(0, 1500)}`;
    });

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'rampart-l4-chain-'));
    pair = await namespacePair('c', [GOOD, BLACK, REGION, LIMITED, FLOOD], []);
    // nginx runs in the server namespace (where the agent's table goes); the agent stays here.
    const nginx = await nginxInNamespace(work, pair.server);
    const upstreamPort = await freePort();
    port = await freePort();
    seen = (await startServer(pair, upstreamPort)).seen;
    client = await startClient(pair);

    ({ cp, setup } = await startOperatorChain({ PORT: String(await freePort()) }));
    const op = setup.operator;
    // A layer-4 group, product and site for the customer; the node on the group.
    const group = await op.call<{ id: number }>('POST', `client/zone/${setup.zoneId}/group`, {
      name: 'tcp',
      portType: 4,
    });
    const product = await op.call<{ id: number }>('POST', 'client/product', {
      name: 'L4',
      portType: 4,
      mainGroupIDs: [group.id],
    });
    const users = await op.call<{ id: number; account: string }[]>('GET', 'client/accounts?name=user');
    const userID = users.find((u) => u.account === 'user')?.id;
    siteId = (
      await op.call<{ siteID: number }>('POST', 'client/site', { siteName: 'game', userID, productID: product.id })
    ).siteID;
    // The test's geo database places REGION in CN.
    const form = new FormData();
    form.append(
      'file',
      new Blob([writeMmdb([{ cidr: `${REGION}/32`, data: geoRecord('CN') }], { databaseType: 'GeoLite2-Country' })]),
      'geo.mmdb',
    );
    await op.upload('PUT', 'client/setting/geoDatabase', form);

    edge = await startAgent({
      controlPlane: cp.url,
      joinToken: setup.joinToken,
      nginxBinary: nginx,
      listenAddress: undefined,
      l4Firewall: { nft: nft() },
      l4CounterIntervalMs: 1000,
    });
    let nodeId = 0;
    await waitUntil(async () => {
      nodeId = (await op.call<{ id: number }[]>('GET', 'client/nodes'))[0]?.id ?? 0;
      return nodeId > 0;
    }, 30_000);
    await op.call('POST', 'client/nodes/initialize', { ids: [nodeId], zoneID: setup.zoneId });
    await op.call('PUT', 'client/nodes/portType', { ids: [nodeId], portType: 4 });
    await op.call('POST', `client/zone/${setup.zoneId}/group/${group.id}/line/default/nodes`, { nodeIDs: [nodeId] });
    await setup.customer.call('POST', `user/site/${siteId}/ports`, {
      ports: [{ port, upstreams: [{ ip: '127.0.0.1', port: upstreamPort }] }],
    });
    await waitUntil(() => client.connect(GOOD, port, LET_THROUGH), 30_000, 200);
  }, 180_000);

  afterAll(async () => {
    await cleanUpAgents();
    await cp?.destroy();
    // The namespaces go with their veth pair and the agent's table.
    await pair?.remove();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('lets every source through while the port has no rule (the agent’s table is empty)', async () => {
    expect(await table()).not.toMatch(/10\.244\.0\.3/);
    expect(await reaches(BLACK)).toBe(true);
    expect(await reaches(REGION)).toBe(true);
    // Four connections at once from one source pass without a connection limit.
    for (let i = 0; i < 4; i++) expect(await client.connect(LIMITED, port, { ...LET_THROUGH, hold: true })).toBe(true);
    await client.closeAll();
  });

  it('drops the blacklisted and the country-denied sources in the kernel, lets another through', async () => {
    const c = setup.customer;
    const ports = await c.call<{ id: number; port: number }[]>('GET', `user/site/${siteId}/ports?page=1&pageSize=10`);
    const portID = ports.find((p) => p.port === port)?.id;
    const base = `user/site/${siteId}/firewall/setting`;
    const black = await c.call<{ id: number }[]>('POST', `${base}/l4Blacklists`, { data: [{ portID, ips: [BLACK] }] });
    blacklistId = black[0]?.id ?? 0;
    await c.call('POST', `${base}/positions`, { data: [{ portID, isBlack: true, positions: ['CN'] }] });
    limitId =
      (await c.call<{ id: number }[]>('POST', `${base}/limitConns`, { data: [{ portID, max: 3 }] }))[0]?.id ?? 0;
    await until(async () => {
      const text = await table();
      return text.includes(BLACK) && text.includes(REGION) && text.includes('ct count');
    }, 'the blacklist, the region and the connection limit in the kernel');
    expect(await reaches(BLACK, { timeoutMs: 800 }), 'the blacklisted source connects').toBe(false);
    expect(await reaches(REGION, { timeoutMs: 800 }), 'the denied region connects').toBe(false);
    expect(await reaches(GOOD), 'another source connects').toBe(true);
    // The agent reports no layer-4 error.
    expect(edge.agent.lastError).toBe('');
  }, 90_000);

  it('drops the fourth connection at once of one source over its limit of 3', async () => {
    for (let i = 0; i < 3; i++) expect(await client.connect(LIMITED, port, { ...LET_THROUGH, hold: true })).toBe(true);
    expect(await client.connect(LIMITED, port, { hold: true, timeoutMs: 1500 })).toBe(false);
    expect(await reaches(GOOD)).toBe(true);
    await client.closeAll();
  });

  it('shows the customer the drops in its network-attack statistics: the sources, the country, TCP and SYN', async () => {
    // The agent spools each minute's counts once it ended: wait for the minute to turn, then for
    // the batch to arrive (the statistics calls read what the control plane stored).
    const c = setup.customer;
    const range = () => ({
      startTime: new Date(Date.now() - 3_600_000).toISOString(),
      endTime: new Date(Date.now() + 60_000).toISOString(),
      siteIDs: [siteId],
    });
    type Row = { key: string; dropBits: number; passBits: number; dropPackets: number };
    const read = async () => ({
      total: await c.call<Row>('POST', 'user/statistics/network/outcomes/sumBits', range()),
      ips: await c.call<Row[]>('POST', 'user/statistics/network/outcomes/ips/tops', { ...range(), top: 10 }),
      countries: await c.call<Row[]>('POST', 'user/statistics/network/outcomes/countries/tops', range()),
      protocols: await c.call<Row[]>('POST', 'user/statistics/network/outcomes/ipProtocols/bits', range()),
      flags: await c.call<Row[]>('POST', 'user/statistics/network/outcomes/tcpFlags/tops', { ...range(), top: 10 }),
    });
    const droppedFrom = (rows: Row[]) => rows.filter((r) => r.dropPackets > 0).map((r) => r.key);
    // The drops of the tests above may fall in two minutes, shipped one after the other, and a
    // reading whose passing stage counted packets ahead of its entering one leaves the port's
    // protocol-level drops to the next reading (l4-counters.ts, carry): the per-source drops can show
    // a minute before the totals. Wait until every figure checked below arrived (the passed bits
    // too: a CI run under load saw the drops first), then check everything.
    let last: unknown = null;
    await waitUntil(
      async () => {
        const now = await read();
        const ips = droppedFrom(now.ips);
        // What is still missing first: a CI log keeps the start of a failure's message.
        const missing = Object.entries({
          blacklisted: ips.includes(BLACK),
          region: ips.includes(REGION),
          totalDrop: now.total.dropBits > 0,
          totalPass: now.total.passBits > 0,
          country: (now.countries.find((r) => r.key === 'CN')?.dropPackets ?? 0) > 0,
          tcp: (now.protocols.find((r) => r.key.toLowerCase() === 'tcp')?.dropBits ?? 0) > 0,
          syn: (now.flags.find((r) => r.key.toUpperCase() === 'SYN')?.dropPackets ?? 0) > 0,
        })
          .filter(([, ok]) => !ok)
          .map(([name]) => name);
        last = { missing, total: now.total, ips: now.ips };
        return missing.length === 0;
      },
      100_000,
      2000,
      () =>
        `the tops and total read ${JSON.stringify(last)}; the agent's layer-4 counter lines: ${JSON.stringify(
          edge.logs.filter((e) => String(e.event).startsWith('l4')).slice(-8),
        )}`,
    );
    const { total, ips, countries, protocols, flags } = await read();
    // Dropped: the blacklisted, country-denied and over-the-limit connection attempts (SYNs and
    // their retries); passed: every connection that got through.
    expect(total.dropBits).toBeGreaterThan(0);
    expect(total.passBits).toBeGreaterThan(0);
    expect(droppedFrom(ips)).toEqual(expect.arrayContaining([BLACK, REGION]));
    expect(ips.find((r) => r.key === GOOD)?.dropPackets ?? 0).toBe(0);
    expect(countries.find((r) => r.key === 'CN')?.dropPackets).toBeGreaterThan(0);
    expect(protocols.find((r) => r.key.toLowerCase() === 'tcp')?.dropBits).toBeGreaterThan(0);
    expect(flags.find((r) => r.key.toUpperCase() === 'SYN')?.dropPackets).toBeGreaterThan(0);
  }, 120_000);

  it('lets the address through again once the customer deletes its blacklist rule', async () => {
    await setup.customer.call('DELETE', `user/site/${siteId}/firewall/setting/l4Blacklists`, { ids: [blacklistId] });
    await until(async () => !(await table()).includes(BLACK), 'the blacklist rule gone from the kernel');
    expect(await reaches(BLACK)).toBe(true);
    // The country rule is still in force.
    expect(await reaches(REGION, { timeoutMs: 800 })).toBe(false);
  }, 90_000);

  it('holds back a SYN flood from one source once the operator sets the zone’s SYN rate, and not after it is removed', async () => {
    const op = setup.operator;
    const zone = `client/zone/${setup.zoneId}/setting/l4Protection`;
    // The port's connection limit (3 at once per source) would stop a burst by itself: gone first.
    await setup.customer.call('DELETE', `user/site/${siteId}/firewall/setting/limitConns`, { ids: [limitId] });
    await until(async () => !(await table()).includes('ct count'), 'the connection limit gone from the kernel');
    const burst = async () =>
      (await Promise.all(Array.from({ length: 40 }, () => client.connect(FLOOD, port, { timeoutMs: 1000 })))).filter(
        Boolean,
      ).length;
    // Without a rate, a burst of 40 connects from one source all get through.
    expect(await burst()).toBe(40);
    await op.call('PUT', zone, { synFlood: { rate: 5, burst: 5 }, newConnections: null, kernelBlocks: false });
    await until(async () => (await table()).includes('set syn4'), 'the SYN rate in the kernel');
    const before = seen.length;
    const passed = await burst();
    expect(passed).toBeGreaterThanOrEqual(1);
    expect(passed).toBeLessThanOrEqual(15);
    // The upstream saw the connections that got through, and no flood: the kernel dropped the
    // others' SYNs. (A client that gave up after its second may still have its SYN's retry let
    // through by the refilled rate, so the upstream may count a few more than `passed`, never many.)
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.length - before).toBeGreaterThanOrEqual(passed);
    expect(seen.length - before).toBeLessThanOrEqual(15);
    // The rate is per source: another one connects at once.
    expect(await reaches(GOOD)).toBe(true);
    expect(await inNetns(pair.server, 'nft', 'list', 'set', 'inet', 'rampart', 'syn4')).toContain(FLOOD);
    await op.call('PUT', zone, { synFlood: null, newConnections: null, kernelBlocks: false });
    await until(async () => !(await table()).includes('set syn4'), 'the SYN rate gone from the kernel');
    expect(await burst()).toBe(40);
  }, 180_000);

  it('leaves its table in the kernel when the agent stops: the node keeps its rules', async () => {
    expect(await table()).toContain(REGION);
    await edge.stop();
    // The agent and its nginx are gone; the country rule's table is still the kernel's.
    expect(await table()).toContain(REGION);
    expect(await table()).toMatch(/chain input/);
  });
});
