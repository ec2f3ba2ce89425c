import {
  createCertificate,
  createZone,
  getClientOverview,
  putCnameSetting,
  putDomainProofSetting,
  reportNodeStatus,
  setAccountZones,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, giveRole, signInOtherOperator } from './helpers/accounts.js';
import { manualClock, signIn } from './helpers/auth.js';
import { nodeSend, sendAs } from './helpers/call.js';
import { makeCertificate } from './helpers/certificates.js';
import { joinNode } from './helpers/edge-node.js';
import { initializedNode } from './helpers/operators.js';
import { siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

const clock = manualClock();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
});
afterAll(async () => t.close());

const overviewAs = async (token: { accessToken: string }) => {
  const res = await sendAs(t.app, token, getClientOverview);
  expect(res.statusCode).toBe(200);
  return res.json().data;
};

const NOTHING = {
  zone: false,
  group: false,
  node: false,
  product: false,
  site: false,
  domain: false,
  certificate: false,
  cnameDomain: false,
  domainProof: false,
};

describe('the operator overview', () => {
  it('walks the first-run checklist and counts nodes, sites, domains and certificates', async () => {
    const operator = await signIn(t.app, 'client');
    expect(await overviewAs(operator)).toEqual({
      checklist: NOTHING,
      // The test app's installation default (RAMPART_DOMAIN_PROOF=0) holds until the operator chooses.
      domainProofRequired: false,
      nodes: { total: 0, online: 0, offline: 0, uninitialized: 0, problems: [], versions: [] },
      sites: { sites: 0, domains: 0, proofPending: 0, cnameUnverified: 0 },
      certificates: { total: 0, expiringSoon: 0, expired: 0 },
    });

    // Zone, group, product, two sites and one initialised node; a second node joined but waits to be
    // placed. Joining is the agent's first contact, so both are online.
    const f = await siteFixture(t);
    await joinNode(t.app, f.client, 'edge-waiting');
    let view = await overviewAs(operator);
    expect(view.checklist).toEqual({ ...NOTHING, zone: true, group: true, node: true, product: true, site: true });
    expect(view.nodes).toEqual({
      total: 2,
      online: 2,
      offline: 0,
      uninitialized: 1,
      problems: [],
      versions: [{ version: '0.1.0', nodes: 2 }],
    });

    // The placed node reports a newer agent and an apply error: still online, listed for its error.
    const report = await nodeSend(t.app, f.node, reportNodeStatus, {
      body: { version: '0.2.0', appliedVersion: 'v1', lastError: 'nginx -t failed' },
    });
    expect(report.statusCode).toBe(200);
    view = await overviewAs(operator);
    expect(view.nodes?.problems).toEqual([
      {
        id: f.node.nodeId,
        name: 'edge-1',
        ip: '127.0.0.1',
        connection: 'online',
        lastError: 'nginx -t failed',
        lastSeenAt: expect.any(String),
      },
    ]);
    expect(view.nodes?.versions).toEqual([
      { version: '0.1.0', nodes: 1 },
      { version: '0.2.0', nodes: 1 },
    ]);

    // Two minutes of silence: both offline; only the placed one is listed (the other is not serving yet).
    clock.advance(120_000);
    view = await overviewAs(operator);
    expect(view.nodes).toMatchObject({ online: 0, offline: 2 });
    expect(view.nodes?.problems).toMatchObject([{ id: f.node.nodeId, connection: 'offline' }]);

    // Domains (proof is off in tests, so they are live; none has had its CNAME checked) and certificates.
    await f.addDomains(['a.example.com', 'b.example.com']);
    await f.addDomains(['c.example.net'], 'other');
    for (const [name, days] of [
      ['soon', 10],
      ['later', 90],
    ] as const) {
      const cert = await makeCertificate([`${name}.example.com`], { days });
      const res = await sendAs(t.app, f.user, createCertificate, {
        params: { siteId: f.siteId },
        body: { name, certificate: cert.certPem, privateKey: cert.keyPem },
      });
      expect(res.statusCode).toBe(200);
    }
    await sendAs(t.app, operator, putCnameSetting, { body: { domain: 'cdn.example.org' } });
    // Choosing the domain-proof setting ticks its step, whichever way it is chosen.
    await sendAs(t.app, operator, putDomainProofSetting, { body: { required: true } });
    view = await overviewAs(operator);
    expect(view.domainProofRequired).toBe(true);
    expect(view.checklist).toEqual({
      zone: true,
      group: true,
      node: true,
      product: true,
      site: true,
      domain: true,
      certificate: true,
      cnameDomain: true,
      domainProof: true,
    });
    expect(view.sites).toEqual({ sites: 2, domains: 3, proofPending: 0, cnameUnverified: 3 });
    expect(view.certificates).toEqual({ total: 2, expiringSoon: 1, expired: 0 });

    // 60 days on: one certificate has ended, the other is now within 30 days; the node went silent.
    clock.advance(60 * 86_400_000);
    view = await overviewAs(await signIn(t.app, 'client'));
    expect(view.certificates).toEqual({ total: 2, expiringSoon: 1, expired: 1 });
    expect(view.nodes).toMatchObject({ online: 0, offline: 2 });
  });

  it("keeps to the caller's operator, its keys and its zones", async () => {
    const rival = await signInOtherOperator(t.app);
    const view = await overviewAs(rival);
    // Another operator's domain-proof choice is not this one's.
    expect(view.checklist).toEqual(NOTHING);
    expect(view.domainProofRequired).toBe(false);
    expect(view.nodes).toMatchObject({ total: 0, problems: [], versions: [] });
    expect(view.sites).toEqual({ sites: 0, domains: 0, proofPending: 0, cnameUnverified: 0 });
    expect(view.certificates).toEqual({ total: 0, expiringSoon: 0, expired: 0 });

    // A sub-account without the nodes and sites keys sees the checklist only.
    const operator = await signIn(t.app, 'client');
    const operatorId = (await t.app.rampart.accounts.findRoot('client'))?.id;
    const subId = await addAccount(t.app, 'client', 'overview-sub', operatorId);
    await giveRole(t.app, operator, 'client', subId, ['client.zones.read']);
    const sub = await signIn(t.app, 'client', 'overview-sub');
    const limited = await overviewAs(sub);
    expect(limited).toMatchObject({ nodes: null, sites: null, certificates: null });
    expect(limited.checklist.zone).toBe(true);

    // One limited to a new zone counts only that zone's nodes.
    const zoned = await addAccount(t.app, 'client', 'overview-zoned', operatorId);
    await giveRole(t.app, operator, 'client', zoned);
    const zoneRes = await sendAs(t.app, operator, createZone, {
      body: { name: 'Europe' },
    });
    const zoneId = zoneRes.json().data.id;
    await initializedNode(t, operator, zoneId, 'edge-eu', ['192.0.2.90']);
    await sendAs(t.app, operator, setAccountZones, { params: { clientId: zoned }, body: { zoneIDs: [zoneId] } });
    const inZone = await overviewAs(await signIn(t.app, 'client', 'overview-zoned'));
    expect(inZone.nodes).toEqual({
      total: 1,
      online: 1,
      offline: 0,
      uninitialized: 0,
      problems: [],
      versions: [{ version: '0.1.0', nodes: 1 }],
    });
    // The whole operator has three nodes (two silent for 60 days).
    expect((await overviewAs(operator)).nodes).toMatchObject({ total: 3, online: 1, offline: 2, uninitialized: 1 });

    // A customer has no overview.
    expect((await sendAs(t.app, await signIn(t.app, 'user'), getClientOverview)).statusCode).toBe(403);
  });
});
