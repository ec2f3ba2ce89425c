import {
  clientDomainStates,
  createDomains,
  type DomainState,
  domainStates,
  getNodePlane,
  initializeNodes,
  type PlaneAnswer,
  reportNodeStatus,
  setDomainsForceSSL,
  setDomainsStatus,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount } from './helpers/accounts.js';
import { manualClock, signIn } from './helpers/auth.js';
import { nodeSend, sendAs, type Token } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { edgeEvent, shipAggregated } from './helpers/events.js';
import { operatorCalls, webProduct } from './helpers/operators.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The domain list's states (routes/domain-states.ts): served by how many of the nodes serving the
// site, from the plane each node reported as applied, and the origin-down flag from the nodes'
// minute aggregates of the last minutes. Only the caller's site's domains are answered.

const clock = manualClock(Date.now());
let t: TestApp;
let f: SiteFixture;
let second: JoinedNode;
let ids: { served: number; failing: number; off: number; theirs: number; rivals: number };
let rival: Token;

async function states(domainIds: number[], who = f.user, siteId = f.siteId): Promise<Map<number, DomainState>> {
  const res = await sendAs(t.app, who, domainStates, { params: { siteId }, query: { ids: domainIds.map(String) } });
  expect(res.statusCode, res.body).toBe(200);
  return new Map((res.json().data as DomainState[]).map((s) => [s.id, s]));
}

/** The operator's call for the same ids (its list of every customer's domains). */
async function operatorStates(domainIds: number[], who: Token = f.client): Promise<DomainState[]> {
  const res = await sendAs(t.app, who, clientDomainStates, { query: { ids: domainIds.map(String) } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as DomainState[];
}

/** The node polls its plane (from `since`) and reports the sequence it now holds, as the agent does. */
async function applyPlane(node: JoinedNode, held?: PlaneAnswer): Promise<PlaneAnswer> {
  const query = held ? { since: held.to, plane: held.planeHash, meta: held.metaHash } : {};
  const res = await nodeSend(t.app, node, getNodePlane, { query });
  expect(res.statusCode, res.body).toBe(200);
  const answer = (res.json().data as PlaneAnswer | null) ?? (held as PlaneAnswer);
  const report = await nodeSend(t.app, node, reportNodeStatus, {
    body: { version: '0.1.0', appliedVersion: '', lastError: '', planeVersion: answer.to },
  });
  expect(report.statusCode, report.body).toBe(200);
  return answer;
}

beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  f = await siteFixture(t);
  second = await joinNode(t.app, f.client, 'edge-2');
  const made = await f.call(initializeNodes, { body: { ids: [second.nodeId], zoneID: f.zoneId, groupID: f.groupId } });
  expect(made.statusCode, made.body).toBe(200);
  const [served, failing, off] = (await f.addDomains([
    'served.shop.example',
    'failing.shop.example',
    'off.shop.example',
  ])) as [number, number, number];
  const [theirs] = (await f.addDomains(['theirs.next.example'], 'other')) as [number];
  // A second operator with a customer, a site and a domain of its own.
  const rivalId = await addAccount(t.app, 'client', 'rival');
  const rivalUser = await addAccount(t.app, 'user', 'rival-user', rivalId);
  rival = await signIn(t.app, 'client', 'rival');
  const rivalSite = await operatorCalls(t.app, rival).site('r', rivalUser, (await webProduct(t.app, rival)).productId);
  const made2 = await sendAs(t.app, await signIn(t.app, 'user', 'rival-user'), createDomains, {
    params: { siteId: rivalSite },
    body: { domains: [{ name: 'www.rival.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] },
  });
  expect(made2.statusCode, made2.body).toBe(200);
  const rivals = made2.json().data[0].id as number;
  ids = { served, failing, off, theirs, rivals };
  const disabled = await sendAs(t.app, f.user, setDomainsStatus, {
    params: { siteId: f.siteId },
    body: { domainIDs: [off], status: 0 },
  });
  expect(disabled.statusCode, disabled.body).toBe(200);
}, 60_000);
afterAll(async () => t.close());

describe('the states of a site’s domains', () => {
  it('counts the nodes serving the site and those that applied each domain as it is now', async () => {
    const all = [ids.served, ids.failing, ids.off];
    // No node has reported a plane yet: what they serve is unknown, so they are counted apart.
    expect((await states(all)).get(ids.served)).toMatchObject({
      nodesServing: 0,
      nodesOfZone: 0,
      nodesWithoutPlane: 2,
    });

    const held = await applyPlane(f.node);
    let now = await states(all);
    expect(now.get(ids.served)).toMatchObject({ nodesServing: 1, nodesOfZone: 1, nodesWithoutPlane: 1 });
    expect(now.get(ids.failing)).toMatchObject({ nodesServing: 1, nodesOfZone: 1, nodesWithoutPlane: 1 });
    // A disabled domain is served by no node, whatever they applied.
    expect(now.get(ids.off)).toMatchObject({ nodesServing: 0, nodesOfZone: 1, nodesWithoutPlane: 1 });

    await applyPlane(second);
    expect((await states(all)).get(ids.served)).toMatchObject({
      nodesServing: 2,
      nodesOfZone: 2,
      nodesWithoutPlane: 0,
    });

    // A node running an older agent (it takes the snapshot's data plane) reports no plane: it leaves
    // M for the "without plane" count, and comes back once it reports one.
    const older = await nodeSend(t.app, second, reportNodeStatus, {
      body: { version: '0.0.9', appliedVersion: '', lastError: '' },
    });
    expect(older.statusCode, older.body).toBe(200);
    expect((await states(all)).get(ids.served)).toMatchObject({
      nodesServing: 1,
      nodesOfZone: 1,
      nodesWithoutPlane: 1,
    });
    await applyPlane(second);

    // A change of one domain: the nodes serve its new entry only once they applied it.
    const changed = await sendAs(t.app, f.user, setDomainsForceSSL, {
      params: { siteId: f.siteId },
      body: { domainIDs: [ids.failing], forceSSL: true },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await applyPlane(f.node, held);
    now = await states(all);
    expect(now.get(ids.failing)).toMatchObject({ nodesServing: 1, nodesOfZone: 2 });
    expect(now.get(ids.served)).toMatchObject({ nodesServing: 2, nodesOfZone: 2 });
  });

  it('flags the origin of a domain whose recent requests to it mostly failed, with the counts', async () => {
    const minute = clock.now() - 60_000;
    const events = [
      // The failing domain's origin: 4 of 5 requests not reached or 5xx.
      ...[502, 502, 504, 503].map((status) =>
        edgeEvent({ time: minute, domainId: ids.failing, status, upstreamStatus: status }),
      ),
      edgeEvent({ time: minute, domainId: ids.failing }),
      // The served domain: one origin failure among four answers is not "down".
      ...[200, 200, 200].map((status) => edgeEvent({ time: minute, domainId: ids.served, status })),
      edgeEvent({ time: minute, domainId: ids.served, status: 502, upstreamStatus: 502 }),
    ];
    const res = await shipAggregated(t.app, f.node, 'states-1', events, { nowMs: clock.now() });
    expect(res.statusCode, res.body).toBe(200);

    const now = await states([ids.failing, ids.served]);
    expect(now.get(ids.failing)).toMatchObject({ originRequests: 5, originErrors: 4, originDown: true });
    expect(now.get(ids.served)).toMatchObject({ originRequests: 4, originErrors: 1, originDown: false });

    // Past the window the failures no longer count.
    clock.advance(10 * 60_000);
    expect((await states([ids.failing])).get(ids.failing)).toMatchObject({ originErrors: 0, originDown: false });
  });

  it("leaves out ids of another customer's site, and refuses another customer's site", async () => {
    const mine = await states([ids.served, ids.theirs]);
    expect([...mine.keys()]).toEqual([ids.served]);
    const res = await sendAs(t.app, f.other, domainStates, {
      params: { siteId: f.siteId },
      query: { ids: [String(ids.served)] },
    });
    expect(res.json()).toMatchObject({ code: 101018 });
  });
});

describe("the states of the operator's domains", () => {
  it("answers the customer's computation for domains of any of the operator's sites, in the order asked", async () => {
    const mine = [ids.failing, ids.served, ids.off];
    const byCustomer = await states(mine);
    const answer = await operatorStates([ids.theirs, ...mine]);
    expect(answer.map((s) => s.id)).toEqual([ids.theirs, ...mine]);
    for (const s of answer.slice(1)) expect(s).toEqual(byCustomer.get(s.id));
    // The neighbour's site is on the same product: the same nodes serve it.
    expect(answer[0]).toMatchObject({ nodesOfZone: 2, nodesWithoutPlane: 0 });
  });

  it("leaves out another operator's domains, both ways", async () => {
    expect((await operatorStates([ids.rivals, ids.served])).map((s) => s.id)).toEqual([ids.served]);
    expect(await operatorStates([ids.served, ids.theirs], rival)).toEqual([]);
    expect((await operatorStates([ids.rivals], rival)).map((s) => s.id)).toEqual([ids.rivals]);
  });

  it('refuses a customer and more ids than a page holds', async () => {
    const customer = await sendAs(t.app, f.user, clientDomainStates, { query: { ids: [String(ids.served)] } });
    expect(customer.statusCode).toBe(403);
    const many = Array.from({ length: 101 }, (_, i) => String(i + 1));
    const res = await sendAs(t.app, f.client, clientDomainStates, { query: { ids: many } });
    expect(res.json()).toMatchObject({ code: 101003 });
  });
});
