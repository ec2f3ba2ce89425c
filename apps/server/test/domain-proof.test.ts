import type { AnyRoute } from '@rampart/contract';
import {
  checkDomainsCNAME,
  createDomains,
  createGroup,
  createProduct,
  createSite,
  createZone,
  DOMAIN_PROOF_STATUS,
  deleteDomains,
  getDomainProofSetting,
  getNodeSnapshot,
  initializeNodes,
  listDomains,
  listProducts,
  putDomainProofSetting,
  verifyDomains,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { nodeSend, sendAs, type Token } from './helpers/call.js';
import { type DnsServer, freeDnsPort, startDnsServer } from './helpers/dns-server.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';

/**
 * Proof of control of domain names between customers of two operators, against a real DNS server
 * (BIND on loopback): claims of a name nobody proved are pending and not served; the first to
 * publish its TXT record (or CNAME to its target) wins and goes live; the others lose and stay off
 * every node; a proved name refuses new claims (401001); an operator may waive proof for its own
 * customers, which a proved claim still beats.
 */

const { pending, proved, waived, lost } = DOMAIN_PROOF_STATUS;
const SQUAT = 'squat.example.org';
const up = [{ ip: '127.0.0.1', port: 8080 }];
interface Tenant {
  operator: Token;
  customer: Token;
  siteId: number;
  node: JoinedNode;
}

let t: TestApp;
let dns: DnsServer | undefined;
let dnsPort: number;
/** Alice: the root operator's customer; Carol: a customer of a second operator; Bob: Alice's neighbour. */
let alice: Tenant;
let carol: Tenant;
let bob: Token;
let bobSite: number;
let carolSecondSite: number;
/** The domains the tests claim, by owner; set as each is created. */
const ids = { alice: 0, aliceFree: 0, carol: 0, carolJob: 0, carolCopy: 0, bobCname: 0 };
const tokens: Record<string, string> = {};

const call = <R extends AnyRoute>(token: Token, route: R, ...args: CallArgs<R>) => sendAs(t.app, token, route, ...args);

async function tenant(operator: Token, customerId: number, customer: Token, nodeName: string): Promise<Tenant> {
  const zoneId = (await call(operator, createZone, { body: { name: `${nodeName} zone` } })).json().data.id;
  const groupId = (
    await call(operator, createGroup, { params: { zoneID: zoneId }, body: { name: 'web', portType: 7 } })
  ).json().data.id;
  const productID = (
    await call(operator, createProduct, { body: { name: `${nodeName} CDN`, portType: 7, mainGroupIDs: [groupId] } })
  ).json().data.id;
  const siteId = (
    await call(operator, createSite, { body: { siteName: `${nodeName}-site`, userID: customerId, productID } })
  ).json().data.siteID;
  const node = await joinNode(t.app, operator, nodeName);
  const init = await call(operator, initializeNodes, {
    body: {
      ids: [node.nodeId],
      zoneID: zoneId,
      groupID: groupId,
    },
  });
  expect(init.statusCode, init.body).toBe(200);
  return { operator, customer, siteId, node };
}

async function served(who: Tenant): Promise<string[]> {
  const res = await nodeSend(t.app, who.node, getNodeSnapshot, undefined);
  expect(res.statusCode).toBe(200);
  return (res.json().data.dataPlane.domains as { name: string }[]).map((d) => d.name).sort();
}

async function claim(who: { customer: Token; siteId: number }, name: string, status: 0 | 1 = 1) {
  return call(who.customer, createDomains, {
    params: { siteId: who.siteId },
    body: {
      domains: [{ name, status, upstreams: up }],
    },
  });
}

async function proofOf(who: { customer: Token; siteId: number }, id: number) {
  const list = (
    await call(who.customer, listDomains, { params: { siteId: who.siteId }, query: { pageSize: 100 } })
  ).json().data as {
    id: number;
    proofStatus: number;
  }[];
  return list.find((d) => d.id === id)?.proofStatus;
}

const verify = (who: { customer: Token; siteId: number }, domainIDs: number[]) =>
  call(who.customer, verifyDomains, { params: { siteId: who.siteId }, body: { domainIDs } });

beforeAll(async () => {
  dnsPort = await freeDnsPort();
  t = await createTestApp({ config: { domainProof: true, dnsServers: [`127.0.0.1:${dnsPort}`] } });
  const client = await signIn(t.app, 'client');
  const clientRoot = await rootId(t.app, 'client');
  const aliceId = await rootId(t.app, 'user');
  alice = await tenant(client, aliceId, await signIn(t.app, 'user'), 'edge-a');
  const bobId = await addAccount(t.app, 'user', 'bob', clientRoot);
  bob = await signIn(t.app, 'user', 'bob', TEST_PASSWORD);

  const rivalId = await addAccount(t.app, 'client', 'rival');
  const rival = await signIn(t.app, 'client', 'rival', TEST_PASSWORD);
  const carolId = await addAccount(t.app, 'user', 'carol', rivalId);
  carol = await tenant(rival, carolId, await signIn(t.app, 'user', 'carol', TEST_PASSWORD), 'edge-c');
  const carolProduct = (await call(rival, listProducts)).json().data[0].id;
  carolSecondSite = (
    await call(rival, createSite, { body: { siteName: 'carol-two', userID: carolId, productID: carolProduct } })
  ).json().data.siteID;
  const aliceProduct = (await call(client, listProducts)).json().data[0].id;
  bobSite = (
    await call(client, createSite, { body: { siteName: 'bob-site', userID: bobId, productID: aliceProduct } })
  ).json().data.siteID;
}, 120_000);

afterAll(async () => {
  await dns?.stop();
  await t.close();
});

describe('claims before proof', () => {
  it('a new claim is pending with its own TXT record to publish, and no node serves it', async () => {
    const res = await claim(alice, SQUAT);
    expect(res.statusCode, res.body).toBe(200);
    const row = res.json().data[0];
    expect(row).toMatchObject({
      name: SQUAT,
      status: 1,
      proofStatus: pending,
      proofRecordName: `_rampart-challenge.${SQUAT}`,
      proofCheckedAt: null,
    });
    expect(row.proofToken).toMatch(/^[0-9a-f]{32}$/);
    ids.alice = row.id;
    tokens.alice = row.proofToken;
    expect(await served(alice)).toEqual([]);
  });

  it("another operator's customer may claim the same name while nobody has proved it (not 401001)", async () => {
    const res = await claim(carol, SQUAT);
    expect(res.statusCode, res.body).toBe(200);
    const row = res.json().data[0];
    expect(row.proofStatus).toBe(pending);
    expect(row.proofToken).not.toBe(tokens.alice);
    ids.carol = row.id;
    tokens.carol = row.proofToken;
    ids.carolJob = (await claim(carol, 'job.example.org')).json().data[0].id;
    tokens.carolJob = (
      await call(carol.customer, listDomains, { params: { siteId: carol.siteId }, query: { keywords: 'job' } })
    ).json().data[0].proofToken;
    const bobs = await call(bob, createDomains, {
      params: { siteId: bobSite },
      body: {
        domains: [{ name: 'cn.example.org', upstreams: up }],
      },
    });
    expect(bobs.statusCode, bobs.body).toBe(200);
    ids.bobCname = bobs.json().data[0].id;
    tokens.bobCname = bobs.json().data[0].cname;
    expect(await served(carol)).toEqual([]);
  });
});

describe('proof', () => {
  beforeAll(async () => {
    dns = await startDnsServer(
      {
        'example.org': [
          `_rampart-challenge.squat IN TXT "${tokens.carol}"`,
          'squat IN A 192.0.2.10',
          '_rampart-challenge.job IN TXT "unrelated"',
          `_rampart-challenge.job IN TXT "${tokens.carolJob}"`,
          `cn IN CNAME ${tokens.bobCname}.`,
        ],
      },
      dnsPort,
    );
  }, 60_000);

  it("a claim whose TXT record holds another's token stays pending", async () => {
    const res = await verify(alice, [ids.alice]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      { id: ids.alice, name: SQUAT, proofStatus: pending, proofCheckedAt: expect.any(String) },
    ]);
    expect(await served(alice)).toEqual([]);
  });

  it('the customer who publishes the TXT record proves control, goes live, and the other claim loses', async () => {
    const res = await verify(carol, [ids.carol]);
    expect(res.json().data[0]).toMatchObject({ id: ids.carol, proofStatus: proved });
    expect(await proofOf(alice, ids.alice)).toBe(lost);
    expect(await served(carol)).toEqual([SQUAT]);
    expect(await served(alice)).toEqual([]);
    // Trying again changes nothing for the loser.
    expect((await verify(alice, [ids.alice])).json().data[0].proofStatus).toBe(lost);
    expect(await served(alice)).toEqual([]);
  });

  it('a proved name refuses new claims of other customers (401001) and lets its owner add it again', async () => {
    const res = await call(bob, createDomains, {
      params: { siteId: bobSite },
      body: { domains: [{ name: SQUAT, upstreams: up }] },
    });
    expect(res.json()).toMatchObject({ code: 101009, errors: [{ code: 401001, targets: [SQUAT] }] });
    const again = await claim({ customer: carol.customer, siteId: carolSecondSite }, SQUAT, 0);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data[0].proofStatus).toBe(proved);
    ids.carolCopy = again.json().data[0].id;
  });

  it('a name that CNAMEs to its own target is proved by checkCNAME', async () => {
    const res = await call(bob, checkDomainsCNAME, {
      params: { siteId: bobSite },
      body: { domainIDs: [ids.bobCname] },
    });
    expect(res.json().data[0]).toMatchObject({ cnameStatus: 1 });
    expect(await proofOf({ customer: bob, siteId: bobSite }, ids.bobCname)).toBe(proved);
    expect(await served(alice)).toEqual(['cn.example.org']);
  });

  it('the background job proves waiting claims through the same DNS servers', async () => {
    expect(await served(carol)).toEqual([SQUAT]);
    await t.app.rampart.domainProofJob.round();
    expect(await proofOf(carol, ids.carolJob)).toBe(proved);
    expect(await served(carol)).toEqual(['job.example.org', SQUAT]);
    // The loser was looked at too, and stays lost.
    expect(await proofOf(alice, ids.alice)).toBe(lost);
  });

  it("another customer's ids are not the caller's to verify (101018)", async () => {
    expect((await verify(alice, [ids.carol])).json().code).toBe(101018);
    expect((await verify(carol, [ids.alice])).json().code).toBe(101018);
  });
});

describe("the operator's setting", () => {
  it('requires proof by default, and waiving it lets its customers go live without proof', async () => {
    expect((await call(alice.operator, getDomainProofSetting)).json()).toEqual({
      data: { required: true },
    });
    const put = await call(alice.operator, putDomainProofSetting, { body: { required: false } });
    expect(put.json()).toEqual({ data: { required: false } });
    // The other operator still requires it.
    expect((await call(carol.operator, getDomainProofSetting)).json().data.required).toBe(true);
    const free = await claim(alice, 'free.example.org');
    expect(free.json().data[0].proofStatus).toBe(waived);
    ids.aliceFree = free.json().data[0].id;
    expect(await served(alice)).toEqual(['cn.example.org', 'free.example.org']);
    // A name another customer proved stays theirs.
    expect(await proofOf(alice, ids.alice)).toBe(lost);
  });

  it('a claim that proves control wins over a waived one', async () => {
    const res = await claim(carol, 'free.example.org');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data[0].proofStatus).toBe(pending);
    const carolFree = res.json().data[0];
    await dns?.stop();
    dns = await startDnsServer(
      { 'example.org': [`_rampart-challenge.free IN TXT "${carolFree.proofToken}"`] },
      dnsPort,
    );
    expect((await verify(carol, [carolFree.id])).json().data[0].proofStatus).toBe(proved);
    expect(await proofOf(alice, ids.aliceFree)).toBe(lost);
    expect(await served(alice)).toEqual(['cn.example.org']);
    expect(await served(carol)).toContain('free.example.org');
  });

  it("a lost claim can try again once the winner's claims are gone", async () => {
    for (const [siteId, id] of [
      [carol.siteId, ids.carol],
      [carolSecondSite, ids.carolCopy],
    ] as const) {
      const res = await call(carol.customer, deleteDomains, { params: { siteId }, body: { ids: [id] } });
      expect(res.statusCode, res.body).toBe(200);
    }
    // Alice's operator waives proof, so with nobody else holding the name her claim goes live.
    expect((await verify(alice, [ids.alice])).json().data[0].proofStatus).toBe(waived);
    expect(await served(alice)).toEqual(['cn.example.org', SQUAT]);
  });
});
