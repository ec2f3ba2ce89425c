import type { PlaneFull } from '@rampart/contract';
import { entryHash } from '@rampart/contract/plane-hash';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DnsServer, freeDnsPort, startDnsServer } from '../../server/test/helpers/dns-server.js';
import { cleanUpAgents, startAgent, type TestAgent } from './helpers/agent.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type FakeControlPlane, snapshotOf, startFakeControlPlane } from './helpers/fake-control-plane.js';
import { request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import { initializeFirstNode, startOperatorChain, waitUntil } from './helpers/real-control-plane.js';

// A domain whose origin is a host name (docs/decisions "Hostname origins"): the agent resolves it
// with the DNS servers it is given, here a real BIND on a loopback port that the test controls (no
// /etc/hosts, no system resolver: a name and its answer are the test's alone, and a changed answer
// is a changed zone). nginx is never reloaded for it: the plane's record carries the addresses.
// Origins on loopback need the installation's private-origin allowance; without it the name is
// refused at the node and reported. A domain with no address left is answered by the balancer as an
// origin that cannot be reached (502), as one whose only origin is the node itself.

const NAME = 'app.origins.example';
let dnsPort: number;
let dns: DnsServer | null = null;
let first: Origin;
let second: Origin;
let cp: FakeControlPlane | null = null;

/** BIND answering NAME with `address` (TTL 1 s) on the test's port. */
async function answer(address: string): Promise<void> {
  await dns?.stop();
  dns = await startDnsServer({ 'origins.example': [`app 1 IN A ${address}`] }, dnsPort);
}

beforeAll(async () => {
  dnsPort = await freeDnsPort();
  // Two origins on the same port of two loopback addresses: only the name's answer tells them apart.
  first = await startOrigin('first', { address: '127.0.0.2' });
  second = await startOrigin('second', { address: '127.0.0.3', port: first.port });
}, 30_000);

afterAll(async () => {
  await first?.close();
  await second?.close();
  await dns?.stop();
});

afterEach(async () => {
  await cleanUpAgents();
  await cp?.close();
  cp = null;
});

async function edgeFor(allowPrivate: boolean): Promise<{ edge: TestAgent; cp: FakeControlPlane }> {
  cp = await startFakeControlPlane();
  cp.servePlanes({ streams: true });
  cp.setSnapshot(snapshotOf(document('one', [domain(1, 'site.example.com', [upstream(first.port, { ip: NAME })])])));
  const edge = await startAgent({
    controlPlane: cp.url,
    joinToken: cp.joinToken,
    origins: { servers: [`127.0.0.1:${dnsPort}`], allowPrivate, minTtlSeconds: 1 },
  });
  await cp.waitForReport((r) => r.appliedVersion !== '', 30_000);
  return { edge, cp };
}

async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const get = (edge: TestAgent) => request(edge.ports.http, 'site.example.com').catch(() => null);

describe('an origin named by a host name', () => {
  it('is served at the address its name resolves to, and follows a changed answer without a reload', async () => {
    await answer('127.0.0.2');
    const { edge } = await edgeFor(true);
    await until(async () => servedBy((await get(edge))?.body ?? '') === 'first', 'the name served by the first origin');
    // No snapshot is applied again (an apply is what reloads nginx): the plane's record changes.
    const appliesBefore = edge.logs.filter((e) => e.event === 'snapshot.applied').length;

    await answer('127.0.0.3');
    await until(async () => servedBy((await get(edge))?.body ?? '') === 'second', 'the changed answer served');
    expect(edge.logs.some((e) => e.event === 'plane.origins_resolved')).toBe(true);
    expect(edge.logs.filter((e) => e.event === 'snapshot.applied').length).toBe(appliesBefore);
    // The origin saw the client's Host, as for an IP origin.
    expect(second.seen.at(-1)?.host).toBe('site.example.com');
  }, 60_000);

  it('is refused at the node when its name resolves to loopback and private origins are not allowed', async () => {
    await answer('127.0.0.2');
    const { edge, cp: plane } = await edgeFor(false);
    const report = await plane.waitForReport((r) => r.lastError.includes('origins not served'), 20_000);
    expect(report.lastError).toContain(`${NAME} resolves only to addresses an origin may not have`);
    expect(edge.logs.find((e) => e.event === 'plane.origin_refused')).toMatchObject({ level: 'warn' });
    const seenBefore = first.seen.length;
    // The balancer has no peer for it and refuses the request as for any origin it will not use.
    const res = await get(edge);
    expect(res?.status).toBe(502);
    expect(first.seen.length).toBe(seenBefore);
  }, 60_000);

  it('refuses and reports a name that stops resolving, and serves it once it does again', async () => {
    await answer('127.0.0.2');
    const { edge, cp: plane } = await edgeFor(true);
    await until(async () => servedBy((await get(edge))?.body ?? '') === 'first', 'the name served');
    await dns?.stop();
    dns = await startDnsServer({ 'origins.example': ['other 1 IN A 127.0.0.2'] }, dnsPort);
    await plane.waitForReport((r) => r.lastError.includes(`${NAME} does not resolve`), 30_000);
    await until(async () => (await get(edge))?.status === 502, 'the unresolved name refused');
    await answer('127.0.0.3');
    await until(async () => servedBy((await get(edge))?.body ?? '') === 'second', 'the name served again');
    await plane.waitForReport((r) => r.lastError === '', 30_000);
  }, 90_000);
});

/** The plane the fake answers now, one sequence on, with the operator's private-origin choice in its meta. */
function withPrivateOrigins(plane: PlaneFull, allowed: boolean): PlaneFull {
  const { allowPrivateOrigins: _, ...rest } = plane.meta;
  const meta = allowed ? { ...rest, allowPrivateOrigins: true as const } : rest;
  return { ...plane, to: String(Number(plane.to) + 1), meta, metaHash: entryHash('meta', '', meta) };
}

describe("the operator's private-origin choice, carried in the plane's meta", () => {
  it('refuses a private origin by default, serves it once the meta allows it and refuses it again, without a reload', async () => {
    await answer('127.0.0.2');
    const { edge, cp: plane } = await edgeFor(false);
    await plane.waitForReport((r) => r.lastError.includes('origins not served'), 20_000);
    expect((await get(edge))?.status).toBe(502);
    const appliesBefore = edge.logs.filter((e) => e.event === 'snapshot.applied').length;

    const allowing = withPrivateOrigins(plane.plane as PlaneFull, true);
    plane.answerPlaneOnce(allowing, allowing);
    await until(async () => servedBy((await get(edge))?.body ?? '') === 'first', 'the private origin served');
    await plane.waitForReport((r) => r.lastError === '', 20_000);

    const refusing = withPrivateOrigins(allowing, false);
    plane.answerPlaneOnce(refusing, refusing);
    await until(async () => (await get(edge))?.status === 502, 'the private origin refused again');
    await plane.waitForReport((r) => r.lastError.includes('origins not served'), 20_000);
    // Taken as a plane answer: nginx was never reloaded for it.
    expect(edge.logs.filter((e) => e.event === 'snapshot.applied').length).toBe(appliesBefore);
  }, 90_000);

  it("serves a private origin on a node whose own override allows it, whatever the operator's meta says", async () => {
    await answer('127.0.0.2');
    const { edge, cp: plane } = await edgeFor(true);
    expect((plane.plane as PlaneFull).meta.allowPrivateOrigins).toBeUndefined();
    await until(async () => servedBy((await get(edge))?.body ?? '') === 'first', 'the private origin served');
  }, 60_000);
});

describe('a host name origin through the whole chain', () => {
  it('a domain added through the API with a host name origin is served by the node (needs npm run build)', async () => {
    await answer('127.0.0.3');
    const { cp: control, setup } = await startOperatorChain();
    try {
      const edge = await startAgent({
        controlPlane: control.url,
        joinToken: setup.joinToken,
        origins: { servers: [`127.0.0.1:${dnsPort}`], allowPrivate: true, minTtlSeconds: 1 },
      });
      await initializeFirstNode(setup);
      await setup.customer.call('POST', `user/site/${setup.siteId}/domains`, {
        domains: [{ name: 'chain.paas.example', upstreams: [{ ip: 'App.Origins.Example', port: second.port }] }],
      });
      await waitUntil(
        async () =>
          servedBy((await request(edge.ports.http, 'chain.paas.example').catch(() => null))?.body ?? '') === 'second',
        30_000,
      );
    } finally {
      await cleanUpAgents();
      await control.destroy();
    }
  }, 120_000);
});
