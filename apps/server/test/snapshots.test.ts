import type { AnyRoute, EdgeDomain, EdgeSnapshot, RouteInput } from '@rampart/contract';
import {
  addLineNodes,
  addLineVirtualNodes,
  addVirtualNodeNodeRecords,
  changeSitesProduct,
  createCertificate,
  createDomains,
  createProduct,
  createVirtualNode,
  dataPlaneSchema,
  getNodeSnapshot,
  initializeNodes,
  listClientSites,
  listDomains,
  listInitializedNodes,
  moveLineNodes,
  removeLineNodes,
  removeLineVirtualNodes,
  reportNodeStatus,
  setDomainScheme,
  setDomainsForceSSL,
  setDomainsStatus,
  setSitesExpiry,
  setSitesStatus,
  setZoneForceSSLRedirectCode,
  setZoneHttp2,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SnapshotRepository } from '../src/modules/snapshots/snapshot.repository.js';
import { RECHECK_MS } from '../src/modules/snapshots/snapshots.service.js';
import { rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { nodeSend, send, sendAs, type Token } from './helpers/call.js';
import { makeCertificate } from './helpers/certificates.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { operatorCalls, webProduct } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let client: { accessToken: string };
let user: { accessToken: string };
let zoneId: number;
let web: number;
let spare: number;
let siteId: number;
let webProductId: number;
let node: JoinedNode;

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  user = await signIn(t.app, 'user');
  const make = operatorCalls(t.app, client);
  ({ zoneId, groupId: web, productId: webProductId } = await webProduct(t.app, client));
  spare = await make.group(zoneId, 'spare');
  siteId = await make.site('shop', await rootId(t.app, 'user'), webProductId);
  node = await joinNode(t.app, client, 'edge-1');
});
afterAll(async () => t.close());

function call<R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) {
  return sendAs(t.app, client, route, ...args);
}
const site = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, user, route, ...args);

/** The snapshot's entry for `name` (fails the test when there is none). */
function byName(snap: { dataPlane: { domains: EdgeDomain[] } }, name: string): EdgeDomain {
  const found = snap.dataPlane.domains.find((d) => d.name === name);
  if (!found) throw new Error(`${name} is not in the snapshot`);
  return found;
}

async function snapshot(query?: RouteInput<typeof getNodeSnapshot>['query']) {
  const res = await nodeSend(t.app, node, getNodeSnapshot, { query });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

describe('node snapshots', () => {
  it('gives an uninitialised node an empty snapshot, and refuses an unsigned poll', async () => {
    const snap = await snapshot();
    expect(snap).toMatchObject({ initialized: false, dataPlane: { domains: [], certificates: [] } });
    expect(snap.version).toMatch(/^[0-9a-f]{32}$/);
    expect(snap.dataPlane.version).toBe(snap.version);
    const unsigned = await send(t.app, getNodeSnapshot, undefined);
    expect(unsigned.json().code).toBe(101013);
  });

  it("serves the domains of the sites whose product uses the node's group, with certificates and keys", async () => {
    await call(initializeNodes, { body: { ids: [node.nodeId], zoneID: zoneId, groupID: web } });
    const cert = await makeCertificate(['www.shop.example']);
    const certId = (
      await site(createCertificate, {
        params: { siteId },
        body: { name: 'shop', certificate: cert.certPem, privateKey: cert.keyPem },
      })
    ).json().data.id;
    await site(createDomains, {
      params: { siteId },
      body: {
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
      },
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
          // Disabled: answered with the "disabled" page, so it travels without its origin.
          {
            name: 'parked.shop.example',
            enabled: false,
            certificateId: null,
            cacheId: null,
            modules: null,
            origin: null,
          },
        ],
        certificates: [{ id: certId }],
      },
    });
    expect(snap.dataPlane.certificates[0].keyPem).toContain('-----BEGIN PRIVATE KEY-----');
  });

  it("carries the zone's HTTP/2 setting and force-SSL redirect code to its nodes", async () => {
    const before = await snapshot();
    await call(setZoneHttp2, { params: { zoneID: zoneId }, body: { enable: false } });
    await call(setZoneForceSSLRedirectCode, { params: { zoneID: zoneId }, body: { code: 307 } });
    const after = await snapshot();
    expect(after.version).not.toBe(before.version);
    expect(after.listen).toEqual({ httpPorts: [80], httpsPorts: [443], http2: false });
    expect(after.dataPlane.domains.length).toBeGreaterThan(0);
    for (const d of after.dataPlane.domains) expect(d.forceSSLCode).toBe(307);
    await call(setZoneHttp2, { params: { zoneID: zoneId }, body: { enable: true } });
    await call(setZoneForceSSLRedirectCode, { params: { zoneID: zoneId }, body: { code: 301 } });
    expect((await snapshot()).version).toBe(before.version);
  });

  it('keeps the version while nothing changes and changes it with the content', async () => {
    const a = await snapshot();
    const b = await snapshot();
    expect(b.version).toBe(a.version);
    await site(setDomainsForceSSL, {
      params: { siteId },
      body: { domainIDs: [a.dataPlane.domains[0].id], forceSSL: false },
    });
    const c = await snapshot();
    expect(c.version).not.toBe(a.version);
    expect(c.dataPlane.domains[0].forceSSL).toBe(false);
  });

  it('carries no data plane for a node that takes it as entries: its version moves with zone settings only', async () => {
    const whole = await snapshot();
    const bare = await snapshot({ wait: 0, dataPlane: 'none' });
    expect(whole.dataPlane.domains.length).toBeGreaterThan(0);
    expect(bare.dataPlane).toMatchObject({ domains: [], certificates: [], caches: [] });
    expect(bare.listen).toEqual(whole.listen);
    expect(bare.version).not.toBe(whole.version);
    // A domain change moves the whole snapshot, not the bare one.
    const domainId = whole.dataPlane.domains[0].id;
    await site(setDomainsForceSSL, { params: { siteId }, body: { domainIDs: [domainId], forceSSL: true } });
    expect((await snapshot({ wait: 0, dataPlane: 'none' })).version).toBe(bare.version);
    expect((await snapshot()).version).not.toBe(whole.version);
    // A zone setting moves both.
    await call(setZoneHttp2, { params: { zoneID: zoneId }, body: { enable: !whole.listen.http2 } });
    const after = await snapshot({ wait: 0, dataPlane: 'none' });
    expect(after.version).not.toBe(bare.version);
    expect(after.listen.http2).toBe(!whole.listen.http2);
    await call(setZoneHttp2, { params: { zoneID: zoneId }, body: { enable: whole.listen.http2 } });
    // The operator's node list compares what such a node applied with the bare snapshot.
    const list = (await call(listInitializedNodes, { query: { zoneIDs: zoneId, value: 'edge' } })).json();
    expect(list.data[0].currentVersion).toBe((await snapshot({ wait: 0, dataPlane: 'none' })).version);
    await snapshot();
  });

  it('marks domains of a paused site disabled, and drops them when the node leaves the group', async () => {
    await call(setSitesStatus, { body: { ids: [siteId], status: 'pause' } });
    const paused = await snapshot();
    expect(paused.dataPlane.domains[0]).toMatchObject({ name: 'www.shop.example', enabled: false, origin: null });
    expect(dataPlaneSchema.safeParse(paused.dataPlane).success).toBe(true);
    await call(setSitesStatus, { body: { ids: [siteId], status: 'normal' } });
    expect((await snapshot()).dataPlane.domains[0].enabled).toBe(true);

    await call(removeLineNodes, {
      params: { zoneID: zoneId, groupID: web, lineID: 'default' },
      body: { nodeIDs: [node.nodeId] },
    });
    await call(addLineNodes, {
      params: { zoneID: zoneId, groupID: spare, lineID: 'default' },
      body: { nodeIDs: [node.nodeId] },
    });
    expect((await snapshot()).dataPlane).toMatchObject({ domains: [], certificates: [] });
    await call(removeLineNodes, {
      params: { zoneID: zoneId, groupID: spare, lineID: 'default' },
      body: { nodeIDs: [node.nodeId] },
    });
    await call(addLineNodes, {
      params: { zoneID: zoneId, groupID: web, lineID: 'default' },
      body: { nodeIDs: [node.nodeId] },
    });
    expect((await snapshot()).dataPlane.domains).toHaveLength(2);
  });

  it("serves the group's sites from any of its lines, and through a virtual node on a line that names the node", async () => {
    await call(moveLineNodes, {
      params: { zoneID: zoneId, groupID: web, lineID: 'default' },
      body: { nodeIDs: [node.nodeId], toLine: 'telecom' },
    });
    expect((await snapshot()).dataPlane.domains).toHaveLength(2);
    await call(removeLineNodes, {
      params: { zoneID: zoneId, groupID: web, lineID: 'telecom' },
      body: { nodeIDs: [node.nodeId] },
    });
    expect((await snapshot()).dataPlane.domains).toHaveLength(0);

    const vn = (
      await call(createVirtualNode, { params: { zoneID: zoneId }, body: { name: 'pool', portType: 7 } })
    ).json().data.id;
    await call(addVirtualNodeNodeRecords, { params: { zoneID: zoneId, id: vn }, body: { nodeIDs: [node.nodeId] } });
    expect((await snapshot()).dataPlane.domains).toHaveLength(0); // named, but not on a line yet
    await call(addLineVirtualNodes, {
      params: { zoneID: zoneId, groupID: web, lineID: 'overseas' },
      body: { virtualNodeIDs: [vn] },
    });
    expect((await snapshot()).dataPlane.domains).toHaveLength(2);
    await call(removeLineVirtualNodes, {
      params: { zoneID: zoneId, groupID: web, lineID: 'overseas' },
      body: { virtualNodeIDs: [vn] },
    });
    expect((await snapshot()).dataPlane.domains).toHaveLength(0);
    await call(addLineNodes, {
      params: { zoneID: zoneId, groupID: web, lineID: 'default' },
      body: { nodeIDs: [node.nodeId] },
    });
    expect((await snapshot()).dataPlane.domains).toHaveLength(2);
  });

  it("publishes the operator's expiry and product changes to the node at once", async () => {
    const before = await snapshot();
    await call(setSitesExpiry, { body: { ids: [siteId], expiredAt: '2020-01-01T00:00:00Z' } });
    const expired = await snapshot();
    expect(expired.version).not.toBe(before.version);
    expect(expired.dataPlane.domains[0].enabled).toBe(false);
    await call(setSitesExpiry, { body: { ids: [siteId], expiredAt: null } });
    expect((await snapshot()).version).toBe(before.version);

    // A product served by another group: the site's domains leave this node, and come back.
    const productId = (await call(listClientSites, { query: { siteID: siteId } })).json().data[0].productID;
    const elsewhere = (
      await call(createProduct, { body: { name: 'Elsewhere', portType: 7, mainGroupIDs: [spare] } })
    ).json().data.id;
    await call(changeSitesProduct, { body: { ids: [siteId], productID: elsewhere } });
    expect((await snapshot()).dataPlane.domains).toEqual([]);
    await call(changeSitesProduct, { body: { ids: [siteId], productID: productId } });
    expect((await snapshot()).version).toBe(before.version);
  });

  it('holds a poll for a known version until a change arrives, and answers null when none does', async () => {
    const known = (await snapshot()).version;
    const started = Date.now();
    expect(await snapshot({ version: known, wait: 1 })).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    const domainId = (await snapshot()).dataPlane.domains[0].id;
    const polledAt = Date.now();
    const waiting = snapshot({ version: known, wait: 20 });
    await new Promise((r) => setTimeout(r, 200));
    await site(setDomainScheme, { params: { siteId, domainId }, body: { scheme: 1 } });
    const arrived = await waiting;
    // Woken by the change, not found by the poll's periodic re-check (RECHECK_MS after its first look).
    expect(Date.now() - polledAt).toBeLessThan(RECHECK_MS);
    expect(arrived.version).not.toBe(known);
    expect(arrived.dataPlane.domains[0].origin.scheme).toBe('https');
  });

  it('carries the port map of a domain to its nodes, and a change of it makes a new version', async () => {
    const before = await snapshot();
    const domainId = before.dataPlane.domains[0].id;
    expect(before.dataPlane.domains[0].origin.portMap).toBe(false);
    expect(
      (await site(setDomainScheme, { params: { siteId, domainId }, body: { scheme: 0, portMap: true } })).statusCode,
    ).toBe(200);
    const after = await snapshot();
    expect(after.version).not.toBe(before.version);
    expect(after.dataPlane.domains[0].origin).toMatchObject({ scheme: 'http', portMap: true });
    expect(dataPlaneSchema.safeParse(after.dataPlane).success).toBe(true);
    await site(setDomainScheme, { params: { siteId, domainId }, body: { scheme: 0, portMap: false } });
    expect((await snapshot()).dataPlane.domains[0].origin.portMap).toBe(false);
  });

  it('shows the operator what each node applied against what it should run', async () => {
    const current = (await snapshot()).version;
    await nodeSend(t.app, node, reportNodeStatus, {
      body: {
        version: '0.1.0',
        appliedVersion: 'f'.repeat(32),
        lastError: 'push refused with 400',
      },
    });
    const list = (await call(listInitializedNodes, { query: { zoneIDs: zoneId, value: 'edge' } })).json();
    expect(list).toMatchObject({
      total: 1,
      data: [
        {
          id: node.nodeId,
          zoneName: 'Asia',
          groups: [{ id: web, name: 'web', line: 'default' }],
          appliedVersion: 'f'.repeat(32),
          currentVersion: current,
          // It takes the snapshot's data plane: no plane to compare.
          appliedPlane: '',
          currentPlane: '',
          lastError: 'push refused with 400',
          connection: 'online',
        },
      ],
    });
    expect((await call(listInitializedNodes, { query: { value: 'nothing-like-this' } })).json().total).toBe(0);
  });

  it('carries a disabled domain flagged, without its upstreams, and back with them when it is enabled', async () => {
    const parked = () => snapshot().then((snap) => ({ snap, parked: byName(snap, 'parked.shop.example') }));
    const off = await parked();
    expect(off.parked).toMatchObject({ enabled: false, origin: null, modules: null, cacheId: null });
    expect(dataPlaneSchema.safeParse(off.snap.dataPlane).success).toBe(true);

    const id = off.parked.id;
    expect(
      (await site(setDomainsStatus, { params: { siteId }, body: { domainIDs: [id], status: 1 } })).statusCode,
    ).toBe(200);
    const on = await parked();
    expect(on.snap.version).not.toBe(off.snap.version);
    expect(on.parked).toMatchObject({
      enabled: true,
      origin: { scheme: 'http', upstreams: [{ ip: '127.0.0.1', port: 8080, weight: 1, backup: false }] },
    });
    await site(setDomainsStatus, { params: { siteId }, body: { domainIDs: [id], status: 0 } });
    expect((await parked()).snap.version).toBe(off.snap.version);
  });

  it('carries one entry per name: an enabled domain wins over a disabled namesake, the first disabled one over later ones', async () => {
    const make = operatorCalls(t.app, client);
    const second = await make.site('shop-two', await rootId(t.app, 'user'), webProductId);
    const created = await site(createDomains, {
      params: { siteId: second },
      body: {
        domains: [
          { name: 'www.shop.example', upstreams: [{ ip: '127.0.0.1', port: 9090 }], status: 0 },
          { name: 'parked.shop.example', upstreams: [{ ip: '127.0.0.1', port: 9090 }], status: 0 },
        ],
      },
    });
    expect(created.statusCode).toBe(200);
    const snap = await snapshot();
    expect(dataPlaneSchema.safeParse(snap.dataPlane).success).toBe(true);
    const names = snap.dataPlane.domains.map((d: { name: string }) => d.name);
    expect(names.filter((n: string) => n === 'www.shop.example')).toHaveLength(1);
    expect(names.filter((n: string) => n === 'parked.shop.example')).toHaveLength(1);
    const live = byName(snap, 'www.shop.example');
    expect(live.enabled).toBe(true);
    expect(live.origin?.upstreams.map((u) => u.port)).not.toContain(9090);
    const parked = byName(snap, 'parked.shop.example');
    const ownIds = (await site(listDomains, { params: { siteId }, query: {} }))
      .json()
      .data.map((d: { id: number }) => d.id);
    expect(ownIds).toContain(parked.id);
  });

  it('builds the plane of nodes with the same owner and groups once per change, however many poll', async () => {
    const others = [await joinNode(t.app, client, 'edge-share-2'), await joinNode(t.app, client, 'edge-share-3')];
    const elsewhere = await joinNode(t.app, client, 'edge-share-spare');
    await call(initializeNodes, { body: { ids: others.map((n) => n.nodeId), zoneID: zoneId, groupID: web } });
    await call(initializeNodes, { body: { ids: [elsewhere.nodeId], zoneID: zoneId, groupID: spare } });
    const first = await snapshot();
    const served = vi.spyOn(SnapshotRepository.prototype, 'servedDomains');
    try {
      await site(setDomainsForceSSL, {
        params: { siteId },
        body: { domainIDs: [first.dataPlane.domains[0].id], forceSSL: !first.dataPlane.domains[0].forceSSL },
      });
      const snaps: EdgeSnapshot[] = [];
      for (const n of [node, ...others, elsewhere]) {
        const res = await nodeSend(t.app, n, getNodeSnapshot, { query: {} });
        expect(res.statusCode).toBe(200);
        snaps.push(JSON.parse(res.body).data as EdgeSnapshot);
      }
      // One build for the three nodes of the web group, one for the node of the spare group.
      expect(served).toHaveBeenCalledTimes(2);
      const [a, b, c, spareSnap] = snaps as [EdgeSnapshot, EdgeSnapshot, EdgeSnapshot, EdgeSnapshot];
      expect(a.dataPlane.domains.length).toBeGreaterThan(0);
      expect(b.dataPlane.domains).toEqual(a.dataPlane.domains);
      expect(c.dataPlane.domains).toEqual(a.dataPlane.domains);
      expect(a.version).not.toBe(first.version);
      expect(spareSnap.dataPlane.domains).toEqual([]);
      // Nothing changed: polled again, nothing is rebuilt.
      for (const n of [node, ...others, elsewhere]) await nodeSend(t.app, n, getNodeSnapshot, { query: {} });
      expect(served).toHaveBeenCalledTimes(2);
    } finally {
      served.mockRestore();
      await site(setDomainsForceSSL, {
        params: { siteId },
        body: { domainIDs: [first.dataPlane.domains[0].id], forceSSL: first.dataPlane.domains[0].forceSSL },
      });
    }
  });
});
