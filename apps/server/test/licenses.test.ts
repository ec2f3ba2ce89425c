import { generateKeyPairSync } from 'node:crypto';
import {
  activateOfflineLicense,
  addSitePorts,
  createDomains,
  createLicense,
  createSite,
  createZone,
  deleteLicenses,
  deleteOfflineLicenses,
  getLicenseOrder,
  getOwnLicense,
  INVALID_LICENSE_KEY,
  issueLicense,
  issueOfflineLicense,
  type LicenseSetting,
  listLicenses,
  listOfflineLicenses,
  putLicenseOrder,
  putOfflineLicense,
  registerNode,
  setDomainsAutoSSL,
  unregisterOfflineLicense,
  updateLicense,
  updateOfflineLicenseKey,
} from '@rampart/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawPublicKeyOf, signLicense, type VendorSigningKey } from '../src/modules/licenses/license-document.js';
import { addAccount, rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { call, rawInput, send, sendAs, type Token } from './helpers/call.js';
import { joinToken } from './helpers/edge-node.js';
import { operatorCalls, webProduct } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

function testKey(kid: string): VendorSigningKey {
  const { privateKey } = generateKeyPairSync('ed25519');
  return { kid, privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() };
}
const vendor = testKey('test-1');
const trusted = [{ kid: vendor.kid, publicKey: rawPublicKeyOf(vendor.privateKeyPem) }];

const DAY = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
function setting(change: Partial<LicenseSetting> = {}): LicenseSetting {
  return {
    nodes: 10,
    sites: 10,
    domains: 10,
    autoSSLDomains: 10,
    ports: 10,
    zones: 10,
    expiredAt: inDays(90),
    ...change,
  };
}

let t: TestApp;
let admin: Token;
let client: Token;
let clientId: number;
let userId: number;
beforeAll(async () => {
  t = await createTestApp({ licenseKeys: { trusted, signing: vendor } });
  admin = await signIn(t.app, 'admin');
  client = await signIn(t.app, 'client');
  clientId = await rootId(t.app, 'client');
  userId = await rootId(t.app, 'user');
});
afterAll(async () => t.close());

const adminCall = () => ({ token: admin });

/** A fresh operator with a customer and a product, signed in: each test's own tenant. */
async function freshOperator(name: string) {
  const operatorId = await addAccount(t.app, 'client', name);
  const token = await signIn(t.app, 'client', name);
  const customerId = await addAccount(t.app, 'user', `${name}-customer`, operatorId);
  const { productId } = await webProduct(t.app, token);
  return { operatorId, token, customerId, productId };
}

describe('online licences (admin)', () => {
  it('drafts, lists, edits and issues a licence; only an issued one applies to its operator', async () => {
    const op = await freshOperator('online-op');
    const draft = await send(
      t.app,
      createLicense,
      { body: { userID: op.operatorId, licenseSetting: setting({ sites: 0 }) } },
      adminCall(),
    );
    expect(draft.statusCode).toBe(200);
    const created = draft.json().data;
    expect(created).toMatchObject({ userID: op.operatorId, userName: 'online-op', issued: false, issuedAt: null });
    expect(created.licenseSetting.sites).toBe(0);
    // A draft limits nothing: the operator still has no licence.
    expect((await call(t.app, getOwnLicense, undefined, { token: op.token })).data.source).toBe('none');
    await call(
      t.app,
      createSite,
      { body: { siteName: 'before', userID: op.customerId, productID: op.productId } },
      { token: op.token },
    );

    const list = await call(t.app, listLicenses, { query: { page: 1, pageSize: 100 } }, adminCall());
    expect(list.data.find((l) => l.id === created.id)).toMatchObject({ userName: 'online-op', issued: false });

    const updated = await call(
      t.app,
      updateLicense,
      { body: { id: created.id, licenseSetting: setting({ sites: 2 }) } },
      adminCall(),
    );
    expect(updated.data.licenseSetting.sites).toBe(2);
    const issued = await call(t.app, issueLicense, { body: { id: created.id } }, adminCall());
    expect(issued.data.issued).toBe(true);

    const own = (await call(t.app, getOwnLicense, undefined, { token: op.token })).data;
    expect(own).toMatchObject({ source: 'online', expired: false, key: null });
    expect(own.usage.sites).toEqual({ used: 1, limit: 2, left: 1 });
    expect(own.daysLeft).toBeGreaterThanOrEqual(89);
    const order = (await call(t.app, getLicenseOrder, { params: { userId: op.operatorId } }, adminCall())).data;
    expect(order.usage.sites).toEqual({ used: 1, limit: 2, left: 1 });
  });

  it('sets an operator licence in one step with the order call, and answers 101018 for an id that is no operator', async () => {
    const op = await freshOperator('order-op');
    const res = await send(
      t.app,
      putLicenseOrder,
      { params: { userId: op.operatorId }, body: { licenseSetting: setting({ zones: 3 }) } },
      adminCall(),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ source: 'online', licenseSetting: { zones: 3 } });
    for (const id of [op.customerId, userId, 999_999]) {
      const refused = await send(t.app, getLicenseOrder, { params: { userId: id } }, adminCall());
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe(101018);
      const create = await send(t.app, createLicense, { body: { userID: id, licenseSetting: setting() } }, adminCall());
      expect(create.json().code).toBe(101018);
    }
  });

  it('answers 101022 for a licence that does not exist, and deletes all or none', async () => {
    const op = await freshOperator('delete-op');
    const { data } = await call(
      t.app,
      createLicense,
      { body: { userID: op.operatorId, licenseSetting: setting() } },
      adminCall(),
    );
    for (const res of [
      await send(t.app, updateLicense, { body: { id: 999_999, licenseSetting: setting() } }, adminCall()),
      await send(t.app, issueLicense, { body: { id: 999_999 } }, adminCall()),
      await send(t.app, deleteLicenses, { body: { ids: [data.id, 999_999] } }, adminCall()),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(101022);
    }
    const kept = await call(t.app, listLicenses, { query: { page: 1, pageSize: 100 } }, adminCall());
    expect(kept.data.some((l) => l.id === data.id)).toBe(true);
    expect((await send(t.app, deleteLicenses, { body: { ids: [data.id] } }, adminCall())).statusCode).toBe(200);
    const after = await call(t.app, listLicenses, { query: { page: 1, pageSize: 100 } }, adminCall());
    expect(after.data.some((l) => l.id === data.id)).toBe(false);
  });

  it('is the admin tier only: an operator is refused every admin licence call', async () => {
    for (const res of [
      await sendAs(t.app, client, listLicenses, { query: { page: 1, pageSize: 10 } }),
      await sendAs(t.app, client, putLicenseOrder, {
        params: { userId: clientId },
        body: { licenseSetting: setting({ sites: 1_000 }) },
      }),
      await sendAs(t.app, client, listOfflineLicenses, { query: { page: 1, pageSize: 10 } }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(101018);
    }
  });
});

describe('limits where objects are made', () => {
  it('refuses the site past the licence (205001), and the licence of one operator never limits another', async () => {
    const op = await freshOperator('sites-op');
    const rival = await freshOperator('sites-rival');
    await call(
      t.app,
      putLicenseOrder,
      { params: { userId: op.operatorId }, body: { licenseSetting: setting({ sites: 1 }) } },
      adminCall(),
    );
    const site = (name: string, o: typeof op) =>
      sendAs(t.app, o.token, createSite, { body: { siteName: name, userID: o.customerId, productID: o.productId } });
    expect((await site('one', op)).statusCode).toBe(200);
    const refused = await site('two', op);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 205001, extra: { limit: 1 } });
    // The rival has no licence: nothing limits it, and its licence view shows only its own.
    expect((await site('one', rival)).statusCode).toBe(200);
    expect((await site('two', rival)).statusCode).toBe(200);
    const rivalView = (await call(t.app, getOwnLicense, undefined, { token: rival.token })).data;
    expect(rivalView).toMatchObject({ source: 'none', licenseSetting: null });
    expect(rivalView.usage.sites).toEqual({ used: 2, limit: -1, left: -1 });
  });

  it('of two requests racing for the last site exactly one wins', async () => {
    const op = await freshOperator('race-op');
    await call(
      t.app,
      putLicenseOrder,
      { params: { userId: op.operatorId }, body: { licenseSetting: setting({ sites: 1 }) } },
      adminCall(),
    );
    const replies = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        sendAs(t.app, op.token, createSite, {
          body: { siteName: name, userID: op.customerId, productID: op.productId },
        }),
      ),
    );
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 422, 422]);
    expect(replies.filter((r) => r.statusCode === 422).map((r) => r.json().code)).toEqual([205001, 205001]);
    expect((await call(t.app, getOwnLicense, undefined, { token: op.token })).data.usage.sites.used).toBe(1);
  });

  it('refuses zones past the licence (201003) and nodes past it (202002)', async () => {
    const op = await freshOperator('zones-op');
    // webProduct made one zone.
    await call(
      t.app,
      putLicenseOrder,
      { params: { userId: op.operatorId }, body: { licenseSetting: setting({ zones: 1, nodes: 1 }) } },
      adminCall(),
    );
    const zone = await sendAs(t.app, op.token, createZone, { body: { name: 'Europe' } });
    expect(zone.json()).toMatchObject({ code: 201003, extra: { limit: 1 } });
    const token = await joinToken(t.app, op.token);
    const register = (hostname: string) =>
      send(t.app, registerNode, { body: { joinToken: token, hostname, ips: ['127.0.0.1'], version: '0.1.0' } });
    expect((await register('edge-a')).statusCode).toBe(200);
    const second = await register('edge-b');
    expect(second.statusCode).toBe(422);
    expect(second.json()).toMatchObject({ code: 202002, extra: { limit: 1 } });
  });

  it('refuses creations after the licence expired (101019) and says it expired', async () => {
    const op = await freshOperator('expired-op');
    await call(
      t.app,
      putLicenseOrder,
      { params: { userId: op.operatorId }, body: { licenseSetting: setting({ expiredAt: inDays(-1) }) } },
      adminCall(),
    );
    const res = await sendAs(t.app, op.token, createSite, {
      body: { siteName: 'late', userID: op.customerId, productID: op.productId },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(101019);
    expect((await sendAs(t.app, op.token, createZone, { body: { name: 'Late' } })).json().code).toBe(101019);
    const view = (await call(t.app, getOwnLicense, undefined, { token: op.token })).data;
    expect(view).toMatchObject({ expired: true });
    expect(view.daysLeft).toBeLessThan(0);
  });
});

describe('limits on domains, auto-SSL domains and ports', () => {
  it('counts across the operator: 401002 past its domains, 401004 past its auto-SSL domains, 401007 past its ports', async () => {
    const op = await freshOperator('domains-op');
    const make = operatorCalls(t.app, op.token);
    const customer = await signIn(t.app, 'user', 'domains-op-customer');
    const siteId = await make.site('shop', op.customerId, op.productId);
    const zoneId = await make.zone('L4 zone');
    const l4Product = await make.product('L4', 4, [await make.group(zoneId, 'tcp', 4)]);
    const l4Site = await make.site('game', op.customerId, l4Product);
    await call(
      t.app,
      putLicenseOrder,
      {
        params: { userId: op.operatorId },
        body: { licenseSetting: setting({ domains: 2, autoSSLDomains: 1, ports: 1 }) },
      },
      adminCall(),
    );
    const domain = (name: string, autoSSL = false) => ({ name, autoSSL, upstreams: [{ ip: '127.0.0.1', port: 8080 }] });
    const added = await sendAs(t.app, customer, createDomains, {
      params: { siteId },
      body: { domains: [domain('a.example', true), domain('b.example')] },
    });
    expect(added.statusCode).toBe(200);
    const third = await sendAs(t.app, customer, createDomains, {
      params: { siteId },
      body: { domains: [domain('c.example')] },
    });
    expect(third.statusCode).toBe(422);
    expect(third.json()).toMatchObject({ code: 401002, extra: { scope: 'license', limit: 2 } });

    const ids = (added.json().data as { id: number; name: string }[]).map((d) => d.id);
    const autoSSL = await sendAs(t.app, customer, setDomainsAutoSSL, {
      params: { siteId },
      body: { domainIDs: ids, autoSSL: true },
    });
    expect(autoSSL.json()).toMatchObject({ code: 401004, extra: { limit: 1 } });
    // Turning it on again for the one that has it adds nothing.
    const again = await sendAs(t.app, customer, setDomainsAutoSSL, {
      params: { siteId },
      body: { domainIDs: [ids[0] ?? 0], autoSSL: true },
    });
    expect(again.statusCode).toBe(200);

    const port = (n: number) => ({ port: n, upstreams: [{ ip: '198.51.100.7', port: n }] });
    const two = await sendAs(t.app, customer, addSitePorts, {
      params: { siteId: l4Site },
      body: { ports: [port(25565), port(25566)] },
    });
    expect(two.json()).toMatchObject({ code: 401007, extra: { max: 1 } });
    const one = await sendAs(t.app, customer, addSitePorts, {
      params: { siteId: l4Site },
      body: { ports: [port(25565)] },
    });
    expect(one.statusCode).toBe(200);
    const usage = (await call(t.app, getOwnLicense, undefined, { token: op.token })).data.usage;
    expect([usage.domains, usage.autoSSLDomains, usage.ports]).toEqual([
      { used: 2, limit: 2, left: 0 },
      { used: 1, limit: 1, left: 0 },
      { used: 1, limit: 1, left: 0 },
    ]);
  });
});

describe('offline licences', () => {
  async function installId(token: Token) {
    return (await call(t.app, getOwnLicense, undefined, { token })).data.installID;
  }

  async function issuedKey(install: string, change: Partial<LicenseSetting> = {}, operator = 'client') {
    const made = await call(
      t.app,
      putOfflineLicense,
      { body: { customer: 'Acme hosting', installID: install, operator, licenseSetting: setting(change) } },
      adminCall(),
    );
    const issued = await call(t.app, issueOfflineLicense, { body: { id: made.data.id } }, adminCall());
    if (!issued.data.key) throw new Error('no key issued');
    return { id: made.data.id, key: issued.data.key };
  }

  function tamperPayload(key: string, change: (payload: Record<string, unknown>) => void): string {
    const [prefix, body, signature] = key.split('.');
    const payload = JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    change(payload);
    return `${prefix}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
  }

  it('round trip: the vendor issues a key for this installation, the operator activates it, its limits hold', async () => {
    const op = await freshOperator('offline-op');
    const install = await installId(op.token);
    expect(install).toMatch(/^[0-9a-f-]{36}$/);
    // The account the vendor names beside the installation.
    expect((await call(t.app, getOwnLicense, undefined, { token: op.token })).data.operator).toBe('offline-op');
    const { id, key } = await issuedKey(install, { sites: 1 }, 'offline-op');
    const listed = await call(t.app, listOfflineLicenses, { query: { page: 1, pageSize: 100 } }, adminCall());
    expect(listed.data.find((l) => l.id === id)).toMatchObject({
      customer: 'Acme hosting',
      installID: install,
      operator: 'offline-op',
      key,
    });

    const activated = await sendAs(t.app, op.token, activateOfflineLicense, { query: { key } });
    expect(activated.statusCode).toBe(200);
    expect(activated.json().data).toMatchObject({ source: 'offline', key, licenseSetting: { sites: 1 } });
    await call(
      t.app,
      createSite,
      { body: { siteName: 'first', userID: op.customerId, productID: op.productId } },
      { token: op.token },
    );
    const refused = await sendAs(t.app, op.token, createSite, {
      body: { siteName: 'second', userID: op.customerId, productID: op.productId },
    });
    expect(refused.json()).toMatchObject({ code: 205001, extra: { limit: 1 } });

    // A renewal with more sites replaces it.
    const renewal = await issuedKey(install, { sites: 5 }, 'offline-op');
    const updated = await sendAs(t.app, op.token, updateOfflineLicenseKey, { query: { key: renewal.key } });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data.usage.sites).toEqual({ used: 1, limit: 5, left: 4 });
    // An online licence does not override the offline one the vendor signed.
    await call(
      t.app,
      putLicenseOrder,
      { params: { userId: op.operatorId }, body: { licenseSetting: setting({ sites: 0 }) } },
      adminCall(),
    );
    expect((await call(t.app, getOwnLicense, undefined, { token: op.token })).data.source).toBe('offline');
  });

  it('refuses a tampered, foreign, expired, unknown-key or unreadable key with the catalogue codes', async () => {
    const op = await freshOperator('tamper-op');
    const install = await installId(op.token);
    const { key } = await issuedKey(install, { sites: 1 }, 'tamper-op');
    const stranger = testKey(vendor.kid);
    const otherVendor = testKey('other-1');
    const signed = (by: VendorSigningKey, installId = install) =>
      signLicense(by, {
        id: 1,
        installId,
        operator: 'tamper-op',
        customer: 'x',
        settings: setting({ sites: 1000 }),
        issuedAt: new Date().toISOString(),
      });
    const signature = key.split('.')[2] ?? '';
    const flipped = `${key.slice(0, -signature.length)}${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    const cases: [string, string, number, unknown?][] = [
      [
        'more sites in the payload',
        tamperPayload(key, (p) => Object.assign(p, { settings: setting({ sites: 1000 }) })),
        900001,
      ],
      ['a changed byte of the signature', flipped, 900001],
      ['another installation', (await issuedKey('00000000-0000-4000-8000-000000000000', {}, 'tamper-op')).key, 900001],
      ['another operator of this installation', (await issuedKey(install, {}, 'someone-else')).key, 900001],
      [
        'the payload moved to another operator',
        tamperPayload((await issuedKey(install, {}, 'someone-else')).key, (p) =>
          Object.assign(p, { operator: 'tamper-op' }),
        ),
        900001,
      ],
      [
        'the payload moved to another installation',
        tamperPayload(key, (p) => Object.assign(p, { installId: 'x' })),
        900001,
      ],
      ['the vendor key id but another private key', signed(stranger), 900001],
      ['a key id the control plane does not know', signed(otherVendor), 900001],
      ['an expired licence', (await issuedKey(install, { expiredAt: inDays(-1) }, 'tamper-op')).key, 101019],
      ['not a licence at all', 'hello', 101003, INVALID_LICENSE_KEY],
      [
        'a payload that is not JSON',
        `RL1.${Buffer.from('{nope').toString('base64url')}.AAAA`,
        101003,
        INVALID_LICENSE_KEY,
      ],
    ];
    for (const [what, bad, code, extra] of cases) {
      const res = await sendAs(t.app, op.token, activateOfflineLicense, { query: { key: bad } });
      expect({ what, code: res.json().code }).toEqual({ what, code });
      if (extra !== undefined) expect(res.json().extra).toBe(extra);
    }
    // None of them became the licence.
    expect((await call(t.app, getOwnLicense, undefined, { token: op.token })).data.source).toBe('none');
    // A renewal needs an activated offline licence first.
    const renewal = await sendAs(t.app, op.token, updateOfflineLicenseKey, { query: { key } });
    expect(renewal.json().code).toBe(101022);
  });

  it('edits, unregisters and deletes the vendor records (101022 for unknown ids)', async () => {
    const install = '11111111-1111-4111-8111-111111111111';
    const { id } = await issuedKey(install);
    const edited = await call(
      t.app,
      putOfflineLicense,
      {
        body: {
          id,
          customer: 'Renamed',
          installID: install,
          operator: 'client',
          licenseSetting: setting({ nodes: 2 }),
        },
      },
      adminCall(),
    );
    // An edit takes back the issued key: it no longer says what the record does.
    expect(edited.data).toMatchObject({ customer: 'Renamed', key: null, issuedAt: null, licenseSetting: { nodes: 2 } });
    await call(t.app, issueOfflineLicense, { body: { id } }, adminCall());
    const unregistered = await call(t.app, unregisterOfflineLicense, { body: { id } }, adminCall());
    expect(unregistered.data).toMatchObject({ key: null, issuedAt: null });
    for (const res of [
      await send(
        t.app,
        putOfflineLicense,
        { body: { id: 999_999, customer: 'x', installID: install, operator: 'client', licenseSetting: setting() } },
        adminCall(),
      ),
      await send(t.app, issueOfflineLicense, { body: { id: 999_999 } }, adminCall()),
      await send(t.app, unregisterOfflineLicense, { body: { id: 999_999 } }, adminCall()),
      await send(t.app, deleteOfflineLicenses, { body: { ids: [id, 999_999] } }, adminCall()),
    ]) {
      expect(res.json().code).toBe(101022);
    }
    expect((await send(t.app, deleteOfflineLicenses, { body: { ids: [id] } }, adminCall())).statusCode).toBe(200);
    const listed = await call(t.app, listOfflineLicenses, { query: { page: 1, pageSize: 100 } }, adminCall());
    expect(listed.data.some((l) => l.id === id)).toBe(false);
  });

  it('binds a licence to the one operator it names: another operator of the installation is refused', async () => {
    const owner = await freshOperator('bound-op');
    const other = await freshOperator('other-op');
    const install = await installId(owner.token);
    const { key } = await issuedKey(install, { sites: 3 }, 'bound-op');
    const refused = await sendAs(t.app, other.token, activateOfflineLicense, { query: { key } });
    expect(refused.json().code).toBe(900001);
    expect((await call(t.app, getOwnLicense, undefined, { token: other.token })).data.source).toBe('none');
    expect((await sendAs(t.app, owner.token, activateOfflineLicense, { query: { key } })).statusCode).toBe(200);
    // Nor can the other operator renew its own offline licence with it.
    await sendAs(t.app, other.token, activateOfflineLicense, {
      query: { key: (await issuedKey(install, {}, 'other-op')).key },
    });
    const renewal = await sendAs(t.app, other.token, updateOfflineLicenseKey, { query: { key } });
    expect(renewal.json().code).toBe(900001);
    expect((await call(t.app, getOwnLicense, undefined, { token: other.token })).data.licenseSetting?.sites).toBe(10);
  });

  it('gives a document issued before licences named their operator to the first operator that activates it only', async () => {
    const first = await freshOperator('legacy-first');
    const second = await freshOperator('legacy-second');
    const install = await installId(first.token);
    const legacy = signLicense(vendor, {
      id: 77,
      installId: install,
      customer: 'from before',
      settings: setting({ sites: 4 }),
      issuedAt: new Date().toISOString(),
    });
    expect((await sendAs(t.app, first.token, activateOfflineLicense, { query: { key: legacy } })).statusCode).toBe(200);
    expect((await sendAs(t.app, second.token, activateOfflineLicense, { query: { key: legacy } })).json().code).toBe(
      900001,
    );
    expect((await call(t.app, getOwnLicense, undefined, { token: second.token })).data.source).toBe('none');
    // Its holder may enter it again.
    expect((await sendAs(t.app, first.token, updateOfflineLicenseKey, { query: { key: legacy } })).statusCode).toBe(
      200,
    );
  });

  it('issues no document from a record that names no operator (made before licences named one)', async () => {
    const install = '22222222-2222-4222-8222-222222222222';
    const { id } = await issuedKey(install);
    await t.db.database.db.execute(sql`UPDATE offline_licenses SET operator = '', key = NULL WHERE id = ${id}`);
    const res = await send(t.app, issueOfflineLicense, { body: { id } }, adminCall());
    expect(res.json().code).toBe(101003);
    expect(res.json().extra.fields.map((f: { field: string }) => f.field)).toEqual(['operator']);
  });

  it('refuses an installID that is not an installation id (101003 naming the field)', async () => {
    const res = await send(
      t.app,
      putOfflineLicense,
      rawInput({ body: { customer: 'x', installID: 'not-an-id', operator: 'a b', licenseSetting: setting() } }),
      adminCall(),
    );
    expect(res.json().code).toBe(101003);
    expect(res.json().extra.fields.map((f: { field: string }) => f.field)).toEqual(['installID', 'operator']);
  });
});

describe('an installation without the vendor signing key', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await createTestApp();
  });
  afterAll(async () => plain.close());

  it('is no licence server: issuing answers 101024; its built-in keys refuse a test-signed key', async () => {
    const vendorAdmin = await signIn(plain.app, 'admin');
    const operator = await signIn(plain.app, 'client');
    const install = (await call(plain.app, getOwnLicense, undefined, { token: operator })).data.installID;
    const made = await call(
      plain.app,
      putOfflineLicense,
      { body: { customer: 'x', installID: install, operator: 'client', licenseSetting: setting() } },
      { token: vendorAdmin },
    );
    const res = await send(plain.app, issueOfflineLicense, { body: { id: made.data.id } }, { token: vendorAdmin });
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe(101024);
    const key = signLicense(vendor, {
      id: 1,
      installId: install,
      customer: 'x',
      settings: setting(),
      issuedAt: new Date().toISOString(),
    });
    const activated = await sendAs(plain.app, operator, activateOfflineLicense, { query: { key } });
    expect(activated.json().code).toBe(900001);
  });
});
