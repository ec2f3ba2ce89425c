import { dataPlaneSchema } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, type Method, signIn } from './helpers/auth.js';
import { makeCertificate } from './helpers/certificates.js';
import { type JoinedNode, joinNode, nodeRequest } from './helpers/edge-node.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let client: { accessToken: string };
let user: { accessToken: string };
let zoneId: number;
let web: number;
let spare: number;
let siteId: number;
let node: JoinedNode;

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  user = await signIn(t.app, 'user');
  zoneId = (await call('POST', 'client/zone', { name: 'Asia' })).json().data.id;
  web = (await call('POST', `client/zone/${zoneId}/group`, { name: 'web', portType: 7 })).json().data.id;
  spare = (await call('POST', `client/zone/${zoneId}/group`, { name: 'spare', portType: 7 })).json().data.id;
  const productId = (await call('POST', 'client/product', { name: 'CDN', portType: 7, mainGroupIDs: [web] })).json()
    .data.id;
  const userID = (await t.app.rampart.accounts.findRoot('user'))?.id;
  siteId = (await call('POST', 'client/site', { siteName: 'shop', userID, productID: productId })).json().data.siteID;
  node = await joinNode(t.app, client, 'edge-1');
});
afterAll(async () => t.close());

function call(method: Method, url: string, payload?: Record<string, unknown>, token = client) {
  return callApi(t.app, token, method, url, payload);
}
const site = (method: Method, url: string, payload?: Record<string, unknown>) =>
  call(method, `user/site/${siteId}/${url}`, payload, user);

async function snapshot(query = '') {
  const res = await nodeRequest(t.app, node, 'GET', `/snapshot${query}`);
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

describe('node snapshots', () => {
  it('gives an uninitialised node an empty snapshot, and refuses an unsigned poll', async () => {
    const snap = await snapshot();
    expect(snap).toMatchObject({ initialized: false, dataPlane: { domains: [], certificates: [] } });
    expect(snap.version).toMatch(/^[0-9a-f]{32}$/);
    expect(snap.dataPlane.version).toBe(snap.version);
    const unsigned = await t.app.inject({ method: 'GET', url: '/api/edge/v1/snapshot' });
    expect(unsigned.json().code).toBe(101013);
  });

  it("serves the domains of the sites whose product uses the node's group, with certificates and keys", async () => {
    await call('POST', 'client/nodes/initialize', { ids: [node.nodeId], zoneID: zoneId, groupID: web });
    const cert = await makeCertificate(['www.shop.example']);
    const certId = (
      await site('POST', 'certificate', { name: 'shop', certificate: cert.certPem, privateKey: cert.keyPem })
    ).json().data.id;
    await site('POST', 'domains', {
      domains: [
        {
          name: 'www.shop.example',
          upstreams: [
            { ip: '127.0.0.1', port: 8080, weight: 2 },
            { ip: '127.0.0.1', port: 8081, backup: true },
            { ip: '127.0.0.1', port: 8082, status: 0 },
          ],
          forceSSL: true,
          certificateID: certId,
          hashType: 1,
        },
        { name: 'parked.shop.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }], status: 0 },
      ],
    });
    const snap = await snapshot();
    expect(dataPlaneSchema.safeParse(snap.dataPlane).success).toBe(true);
    expect(snap).toMatchObject({
      initialized: true,
      listen: { httpPorts: [80], httpsPorts: [443], http2: true },
      dataPlane: {
        domains: [
          {
            name: 'www.shop.example',
            enabled: true,
            forceSSL: true,
            forceSSLCode: 301,
            certificateId: certId,
            origin: {
              scheme: 'http',
              host: null,
              balance: 'ip_hash',
              upstreams: [
                { ip: '127.0.0.1', port: 8080, weight: 2, backup: false },
                { ip: '127.0.0.1', port: 8081, weight: 1, backup: true },
              ],
            },
          },
        ],
        certificates: [{ id: certId }],
      },
    });
    expect(snap.dataPlane.certificates[0].keyPem).toContain('-----BEGIN PRIVATE KEY-----');
  });

  it("carries the zone's HTTP/2 setting and force-SSL redirect code to its nodes", async () => {
    const before = await snapshot();
    await call('PUT', `client/zone/${zoneId}/setting/http2`, { enable: false });
    await call('PUT', `client/zone/${zoneId}/setting/forceSSLRedirectCode`, { code: 307 });
    const after = await snapshot();
    expect(after.version).not.toBe(before.version);
    expect(after.listen).toEqual({ httpPorts: [80], httpsPorts: [443], http2: false });
    expect(after.dataPlane.domains.length).toBeGreaterThan(0);
    for (const d of after.dataPlane.domains) expect(d.forceSSLCode).toBe(307);
    await call('PUT', `client/zone/${zoneId}/setting/http2`, { enable: true });
    await call('PUT', `client/zone/${zoneId}/setting/forceSSLRedirectCode`, { code: 301 });
    expect((await snapshot()).version).toBe(before.version);
  });

  it('keeps the version while nothing changes and changes it with the content', async () => {
    const a = await snapshot();
    const b = await snapshot();
    expect(b.version).toBe(a.version);
    await site('PATCH', 'domain/setting/forceSSL', { domainIDs: [a.dataPlane.domains[0].id], forceSSL: false });
    const c = await snapshot();
    expect(c.version).not.toBe(a.version);
    expect(c.dataPlane.domains[0].forceSSL).toBe(false);
  });

  it('marks domains of a paused site disabled, and drops them when the node leaves the group', async () => {
    await call('PATCH', 'client/site/status', { ids: [siteId], status: 'pause' });
    expect((await snapshot()).dataPlane.domains[0].enabled).toBe(false);
    await call('PATCH', 'client/site/status', { ids: [siteId], status: 'normal' });
    expect((await snapshot()).dataPlane.domains[0].enabled).toBe(true);

    await call('DELETE', `client/zone/${zoneId}/group/${web}/line/default/nodes`, { nodeIDs: [node.nodeId] });
    await call('POST', `client/zone/${zoneId}/group/${spare}/line/default/nodes`, { nodeIDs: [node.nodeId] });
    expect((await snapshot()).dataPlane).toMatchObject({ domains: [], certificates: [] });
    await call('DELETE', `client/zone/${zoneId}/group/${spare}/line/default/nodes`, { nodeIDs: [node.nodeId] });
    await call('POST', `client/zone/${zoneId}/group/${web}/line/default/nodes`, { nodeIDs: [node.nodeId] });
    expect((await snapshot()).dataPlane.domains).toHaveLength(1);
  });

  it("serves the group's sites from any of its lines, and through a virtual node on a line that names the node", async () => {
    const lines = `client/zone/${zoneId}/group/${web}/line`;
    await call('PATCH', `${lines}/default/nodes`, { nodeIDs: [node.nodeId], toLine: 'telecom' });
    expect((await snapshot()).dataPlane.domains).toHaveLength(1);
    await call('DELETE', `${lines}/telecom/nodes`, { nodeIDs: [node.nodeId] });
    expect((await snapshot()).dataPlane.domains).toHaveLength(0);

    const vn = (await call('POST', `client/zone/${zoneId}/virtualNode`, { name: 'pool', portType: 7 })).json().data.id;
    await call('POST', `client/zone/${zoneId}/virtualNode/${vn}/record/node`, { nodeIDs: [node.nodeId] });
    expect((await snapshot()).dataPlane.domains).toHaveLength(0); // named, but not on a line yet
    await call('POST', `${lines}/overseas/virtualNodes`, { virtualNodeIDs: [vn] });
    expect((await snapshot()).dataPlane.domains).toHaveLength(1);
    await call('DELETE', `${lines}/overseas/virtualNodes`, { virtualNodeIDs: [vn] });
    expect((await snapshot()).dataPlane.domains).toHaveLength(0);
    await call('POST', `${lines}/default/nodes`, { nodeIDs: [node.nodeId] });
    expect((await snapshot()).dataPlane.domains).toHaveLength(1);
  });

  it("publishes the operator's expiry and product changes to the node at once", async () => {
    const before = await snapshot();
    await call('PATCH', 'client/site/expired', { ids: [siteId], expiredAt: '2020-01-01T00:00:00Z' });
    const expired = await snapshot();
    expect(expired.version).not.toBe(before.version);
    expect(expired.dataPlane.domains[0].enabled).toBe(false);
    await call('PATCH', 'client/site/expired', { ids: [siteId], expiredAt: null });
    expect((await snapshot()).version).toBe(before.version);

    // A product served by another group: the site's domains leave this node, and come back.
    const productId = (await call('GET', `client/sites?siteID=${siteId}`)).json().data[0].productID;
    const elsewhere = (
      await call('POST', 'client/product', { name: 'Elsewhere', portType: 7, mainGroupIDs: [spare] })
    ).json().data.id;
    await call('PATCH', 'client/site/product/change', { ids: [siteId], productID: elsewhere });
    expect((await snapshot()).dataPlane.domains).toEqual([]);
    await call('PATCH', 'client/site/product/change', { ids: [siteId], productID: productId });
    expect((await snapshot()).version).toBe(before.version);
  });

  it('holds a poll for a known version until a change arrives, and answers null when none does', async () => {
    const known = (await snapshot()).version;
    const started = Date.now();
    expect(await snapshot(`?version=${known}&wait=1`)).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    const domainId = (await snapshot()).dataPlane.domains[0].id;
    const waiting = snapshot(`?version=${known}&wait=20`);
    await new Promise((r) => setTimeout(r, 200));
    const changedAt = Date.now();
    await site('PUT', `domain/${domainId}/scheme`, { scheme: 1 });
    const arrived = await waiting;
    expect(Date.now() - changedAt).toBeLessThan(1000);
    expect(arrived.version).not.toBe(known);
    expect(arrived.dataPlane.domains[0].origin.scheme).toBe('https');
  });

  it('carries the port map of a domain to its nodes, and a change of it makes a new version', async () => {
    const before = await snapshot();
    const domainId = before.dataPlane.domains[0].id;
    expect(before.dataPlane.domains[0].origin.portMap).toBe(false);
    expect((await site('PUT', `domain/${domainId}/scheme`, { scheme: 0, portMap: true })).statusCode).toBe(200);
    const after = await snapshot();
    expect(after.version).not.toBe(before.version);
    expect(after.dataPlane.domains[0].origin).toMatchObject({ scheme: 'http', portMap: true });
    expect(dataPlaneSchema.safeParse(after.dataPlane).success).toBe(true);
    await site('PUT', `domain/${domainId}/scheme`, { scheme: 0, portMap: false });
    expect((await snapshot()).dataPlane.domains[0].origin.portMap).toBe(false);
  });

  it('shows the operator what each node applied against what it should run', async () => {
    const current = (await snapshot()).version;
    await nodeRequest(t.app, node, 'POST', '/status', {
      version: '0.1.0',
      appliedVersion: 'f'.repeat(32),
      lastError: 'push refused with 400',
    });
    const list = (await call('GET', `client/nodes/initialized?zoneIDs=${zoneId}&value=edge`)).json();
    expect(list).toMatchObject({
      total: 1,
      data: [
        {
          id: node.nodeId,
          zoneName: 'Asia',
          groups: [{ id: web, name: 'web', line: 'default' }],
          appliedVersion: 'f'.repeat(32),
          currentVersion: current,
          lastError: 'push refused with 400',
          connection: 'online',
        },
      ],
    });
    expect((await call('GET', 'client/nodes/initialized?value=nothing-like-this')).json().total).toBe(0);
  });
});
