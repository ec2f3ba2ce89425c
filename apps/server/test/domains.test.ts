import type { AnyRoute } from '@rampart/contract';
import {
  addUpstreams,
  assignCertificate,
  createCertificate,
  createDomains,
  deleteCertificates,
  deleteDomains,
  deleteSites,
  deleteUpstreams,
  getCertificate,
  listAccounts,
  listCertificates,
  listDomains,
  listUpstreams,
  metaCertificates,
  setDomainScheme,
  setDomainsBalance,
  setDomainsForceSSL,
  setDomainsStatus,
  updateCertificate,
  updateDomain,
  updateUpstream,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/platform/crypto/passwords.js';
import { rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { send, sendAs, type Token } from './helpers/call.js';
import { makeCertificate } from './helpers/certificates.js';
import { operatorCalls, webProduct } from './helpers/operators.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let client: { accessToken: string };
let alice: { accessToken: string };
let bob: { accessToken: string };
let aliceSite: number;
let bobSite: number;

const up = (port = 8080, extra: Record<string, unknown> = {}) => ({ ip: '127.0.0.1', port, ...extra });

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  const { productId } = await webProduct(t.app, client);
  const bobRow = await t.app.rampart.accounts.insert({
    tier: 'user',
    parentId: await rootId(t.app, 'client'),
    account: 'bob',
    name: 'Bob',
    passwordHash: await hashPassword(TEST_PASSWORD),
  });
  const { site } = operatorCalls(t.app, client);
  aliceSite = await site('alice-shop', await rootId(t.app, 'user'), productId);
  bobSite = await site('bob-blog', bobRow.id, productId);
  alice = await signIn(t.app, 'user');
  bob = await signIn(t.app, 'user', 'bob', TEST_PASSWORD);
});
afterAll(async () => t.close());

function call<R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) {
  return sendAs(t.app, client, route, ...args);
}
const asAlice = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, alice, route, ...args);
const asBob = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, bob, route, ...args);

describe('domains', () => {
  it('adds domains with upstreams and lists them paged, searched and sorted', async () => {
    const res = await asAlice(createDomains, {
      params: { siteId: aliceSite },
      body: {
        domains: [
          { name: 'WWW.Alice.Example', upstreams: [up(8080, { weight: 3 }), up(8081, { backup: true })] },
          { name: '*.img.alice.example', upstreams: [{ ip: '2001:db8::1', port: 443 }], scheme: 1, hashType: 1 },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    const [www, img] = res.json().data;
    expect(www).toMatchObject({
      name: 'www.alice.example',
      status: 1,
      scheme: 0,
      hashType: 0,
      forceSSL: false,
      certificateID: 0,
      upstreamURL: '127.0.0.1:8080',
      upstreamCount: 2,
      upstreams: [
        { ip: '127.0.0.1', port: 8080, weight: 3, backup: false, status: 1 },
        { ip: '127.0.0.1', port: 8081, weight: 1, backup: true, status: 1 },
      ],
    });
    expect(img).toMatchObject({
      name: '*.img.alice.example',
      scheme: 1,
      hashType: 1,
      upstreamURL: '[2001:db8::1]:443',
    });

    const list = (
      await asAlice(listDomains, { params: { siteId: aliceSite }, query: { keywords: 'WWW', pageSize: 1 } })
    ).json();
    expect(list).toMatchObject({ total: 1, data: [{ id: www.id }] });
    const sorted = (
      await asAlice(listDomains, { params: { siteId: aliceSite }, query: { sortBy: 'name', orderBy: 'asc' } })
    ).json();
    expect(sorted.data.map((d: { name: string }) => d.name)).toEqual(['*.img.alice.example', 'www.alice.example']);
    expect((await asAlice(listDomains, { params: { siteId: aliceSite }, query: { keywords: '%' } })).json().total).toBe(
      0,
    );
  });

  it('reports each taken name with its code through 101009 and adds none of the batch', async () => {
    const res = await asAlice(createDomains, {
      params: { siteId: aliceSite },
      body: {
        domains: [
          { name: 'new.alice.example', upstreams: [up()] },
          { name: 'twice.alice.example', upstreams: [up()] },
          { name: 'twice.alice.example', upstreams: [up()] },
          { name: 'www.alice.example', upstreams: [up()] },
          { name: 'only-backup.alice.example', upstreams: [up(1, { backup: true })] },
        ],
      },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe(101009);
    expect(body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 101025, targets: ['twice.alice.example', 'www.alice.example'] }),
        expect.objectContaining({ code: 401008, targets: ['only-backup.alice.example'] }),
      ]),
    );
    expect(
      (await asAlice(listDomains, { params: { siteId: aliceSite }, query: { keywords: 'new.alice' } })).json().total,
    ).toBe(0);
  });

  it("refuses an enabled name another customer's site already serves (401001), allows it disabled", async () => {
    const taken = await asBob(createDomains, {
      params: { siteId: bobSite },
      body: { domains: [{ name: 'www.alice.example', upstreams: [up()] }] },
    });
    expect(taken.json()).toMatchObject({ code: 101009, errors: [{ code: 401001, targets: ['www.alice.example'] }] });

    const parked = await asBob(createDomains, {
      params: { siteId: bobSite },
      body: {
        domains: [{ name: 'www.alice.example', upstreams: [up()], status: 0 }],
      },
    });
    expect(parked.statusCode).toBe(200);
    const id = parked.json().data[0].id;
    const enable = await asBob(setDomainsStatus, { params: { siteId: bobSite }, body: { domainIDs: [id], status: 1 } });
    expect(enable.json()).toMatchObject({ code: 101009, errors: [{ code: 401001 }] });
    expect((await asBob(deleteDomains, { params: { siteId: bobSite }, body: { ids: [id] } })).statusCode).toBe(200);
  });

  it('validates names and upstreams from the contract, naming the fields', async () => {
    const res = await asAlice(createDomains, {
      params: { siteId: aliceSite },
      body: {
        domains: [{ name: 'bad_name..example', upstreams: [{ ip: '999.1.1.1', port: 70000 }] }],
      },
    });
    expect(res.statusCode).toBe(400);
    const fields = res.json().extra.fields.map((f: { field: string; key: string }) => `${f.field}:${f.key}`);
    expect(fields).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^domains\.0\.name:/),
        'domains.0.upstreams.0.ip:invalidOriginAddress',
        'domains.0.upstreams.0.port:invalidPort',
      ]),
    );
  });

  it('keeps each customer to their own sites and domains (101018)', async () => {
    const www = (await asAlice(listDomains, { params: { siteId: aliceSite }, query: { keywords: 'www' } })).json()
      .data[0];
    expect((await call(listDomains, { params: { siteId: aliceSite } }, bob)).json().code).toBe(101018);
    expect((await asBob(deleteDomains, { params: { siteId: bobSite }, body: { ids: [www.id] } })).json().code).toBe(
      101018,
    );
    expect((await asBob(listUpstreams, { params: { siteId: bobSite, domainId: www.id } })).json().code).toBe(101018);
    expect(
      (
        await asBob(setDomainsForceSSL, { params: { siteId: bobSite }, body: { domainIDs: [www.id], forceSSL: true } })
      ).json().code,
    ).toBe(101018);
    expect(
      (await asAlice(listUpstreams, { params: { siteId: aliceSite, domainId: www.id } })).json().data,
    ).toHaveLength(2);
  });

  it('edits a domain and its upstreams, and refuses to leave none enabled (401008)', async () => {
    const www = (await asAlice(listDomains, { params: { siteId: aliceSite }, query: { keywords: 'www' } })).json()
      .data[0];
    const edited = await asAlice(updateDomain, {
      params: { siteId: aliceSite },
      body: {
        id: www.id,
        upstreams: [up(9001, { weight: 5 }), up(9002)],
        forceSSL: true,
        hostName: 'origin.alice.example',
        tags: ['a'],
      },
    });
    expect(edited.json().data).toMatchObject({
      forceSSL: true,
      hostName: 'origin.alice.example',
      tags: ['a'],
      upstreams: [{ port: 9001, weight: 5 }, { port: 9002 }],
    });
    const [first, second] = edited.json().data.upstreams;
    const disabled = await asAlice(updateUpstream, {
      params: { siteId: aliceSite, domainId: www.id },
      body: { ...up(9002), id: second.id, status: 0 },
    });
    expect(disabled.json().data).toMatchObject({ id: second.id, status: 0 });
    expect(
      (
        await asAlice(deleteUpstreams, { params: { siteId: aliceSite, domainId: www.id }, body: { ids: [first.id] } })
      ).json().code,
    ).toBe(401008);
    const added = await asAlice(addUpstreams, {
      params: { siteId: aliceSite, domainId: www.id },
      body: { upstreams: [up(9003)] },
    });
    expect(added.json().data).toMatchObject([{ port: 9003, status: 1 }]);
    expect(
      (await asAlice(deleteUpstreams, { params: { siteId: aliceSite, domainId: www.id }, body: { ids: [first.id] } }))
        .statusCode,
    ).toBe(200);
    expect(
      (await asAlice(listUpstreams, { params: { siteId: aliceSite, domainId: www.id } }))
        .json()
        .data.map((u: { port: number }) => u.port),
    ).toEqual([9002, 9003]);
    expect(
      (await asAlice(setDomainsBalance, { params: { siteId: aliceSite }, body: { domainIDs: [www.id], hashType: 1 } }))
        .statusCode,
    ).toBe(200);
    expect(
      (await asAlice(setDomainScheme, { params: { siteId: aliceSite, domainId: www.id }, body: { scheme: 1 } }))
        .statusCode,
    ).toBe(200);
    expect(
      (await asAlice(listDomains, { params: { siteId: aliceSite }, query: { keywords: 'www' } })).json().data[0],
    ).toMatchObject({ hashType: 1, scheme: 1 });

    // An edit that gives only the upstreams keeps every other setting.
    const kept = await asAlice(updateDomain, {
      params: { siteId: aliceSite },
      body: { id: www.id, upstreams: [up(9004)] },
    });
    expect(kept.json().data).toMatchObject({
      forceSSL: true,
      hostName: 'origin.alice.example',
      tags: ['a'],
      hashType: 1,
      scheme: 1,
      status: 1,
      upstreams: [{ port: 9004 }],
    });
  });

  it('refuses a site that still has domains (205005)', async () => {
    const res = await call(deleteSites, { body: { ids: [aliceSite] } });
    expect(res.json().code).toBe(205005);
  });

  it("lists the operator's customers for the site owner picker", async () => {
    const res = await call(listAccounts, { params: { auth: 'client' }, query: { name: 'bo' } });
    expect(res.json()).toMatchObject({ total: 1, data: [{ account: 'bob', name: 'Bob', status: 'normal' }] });
    expect((await call(listAccounts, { params: { auth: 'client' } })).json().total).toBe(2);
  });
});

describe('origin address policy', () => {
  it('refuses loopback, private and metadata origins unless the installation allows them', async () => {
    const strict = await createTestApp({ config: { allowPrivateOrigins: false } });
    try {
      const c = await signIn(strict.app, 'client');
      const { productId } = await webProduct(strict.app, c);
      const site = await operatorCalls(strict.app, c).site('s', await rootId(strict.app, 'user'), productId);
      const u = await signIn(strict.app, 'user');
      const res = await send(
        strict.app,
        createDomains,
        {
          params: { siteId: site },
          body: {
            domains: [
              {
                name: 'a.example.com',
                upstreams: [
                  { ip: '127.0.0.1', port: 80 },
                  { ip: '169.254.169.254', port: 80 },
                  { ip: '10.0.0.1', port: 80 },
                  { ip: '::ffff:192.168.1.1', port: 80 },
                  // IPv6 forms that carry a loopback or link-local IPv4 address
                  { ip: '::127.0.0.1', port: 80 },
                  { ip: '::ffff:0:127.0.0.1', port: 80 },
                  { ip: '2002:7f00:1::1', port: 80 },
                  { ip: '2002:a9fe:a9fe::1', port: 80 },
                  { ip: '64:ff9b::a9fe:a9fe', port: 80 },
                  { ip: '1.1.1.1', port: 80 },
                ],
              },
            ],
          },
        },
        { token: u },
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().extra.fields.map((f: { field: string; key: string }) => `${f.field}:${f.key}`)).toEqual([
        'domains.0.upstreams.0.ip:originNotAllowed',
        'domains.0.upstreams.1.ip:originNotAllowed',
        'domains.0.upstreams.2.ip:originNotAllowed',
        'domains.0.upstreams.3.ip:originNotAllowed',
        'domains.0.upstreams.4.ip:originNotAllowed',
        'domains.0.upstreams.5.ip:originNotAllowed',
        'domains.0.upstreams.6.ip:originNotAllowed',
        'domains.0.upstreams.7.ip:originNotAllowed',
        'domains.0.upstreams.8.ip:originNotAllowed',
      ]);
      const ok = await send(
        strict.app,
        createDomains,
        {
          params: { siteId: site },
          body: {
            domains: [{ name: 'a.example.com', upstreams: [{ ip: '1.1.1.1', port: 80 }] }],
          },
        },
        { token: u },
      );
      expect(ok.statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('certificates', () => {
  let chain: Awaited<ReturnType<typeof makeCertificate>>;
  let other: Awaited<ReturnType<typeof makeCertificate>>;
  beforeAll(async () => {
    [chain, other] = await Promise.all([
      makeCertificate(['www.alice.example', '*.shop.alice.example'], { withCA: true }),
      makeCertificate(['elsewhere.example']),
    ]);
  });

  it('uploads a chain with its key: names, issuer and validity parsed, the key sealed and never returned', async () => {
    const res = await asAlice(createCertificate, {
      params: { siteId: aliceSite },
      body: {
        name: 'alice-main',
        certificate: chain.certPem,
        privateKey: chain.keyPem,
      },
    });
    expect(res.statusCode).toBe(200);
    const cert = res.json().data;
    expect(cert).toMatchObject({
      name: 'alice-main',
      names: ['www.alice.example', '*.shop.alice.example'],
      issuer: 'Rampart Test CA',
      status: 'valid',
      domainCount: 0,
      domains: [],
    });
    expect(cert.certificate.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(JSON.stringify(cert)).not.toContain('PRIVATE KEY');
    expect(new Date(cert.notAfter).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    const stored = (await t.db.database.db.execute('SELECT key_sealed FROM certificates')) as unknown as {
      rows: { key_sealed: string }[];
    };
    expect(stored.rows[0]?.key_sealed).toMatch(/^v1\./);
    expect(stored.rows[0]?.key_sealed).not.toContain('PRIVATE KEY');

    const list = (await asAlice(listCertificates, { params: { siteId: aliceSite }, query: { name: 'main' } })).json();
    expect(list).toMatchObject({ total: 1, data: [{ id: cert.id, status: 'valid' }] });
    expect((await asAlice(metaCertificates, { params: { siteId: aliceSite } })).json().data).toMatchObject([
      { id: cert.id, name: 'alice-main' },
    ]);
    expect((await asBob(getCertificate, { params: { siteId: bobSite, certificateId: cert.id } })).json().code).toBe(
      101018,
    );
  });

  it('refuses a key that does not match, text that is not PEM, and an expired certificate', async () => {
    const mismatch = await asAlice(createCertificate, {
      params: { siteId: aliceSite },
      body: {
        name: 'x',
        certificate: chain.certPem,
        privateKey: other.keyPem,
      },
    });
    expect(mismatch.json().extra.fields).toMatchObject([{ field: 'privateKey', key: 'certificateKeyMismatch' }]);
    const garbage = await asAlice(createCertificate, {
      params: { siteId: aliceSite },
      body: {
        name: 'x',
        certificate: 'hello',
        privateKey: other.keyPem,
      },
    });
    expect(garbage.json().extra.fields).toMatchObject([{ field: 'certificate', key: 'certificateInvalid' }]);
    const encrypted = await asAlice(createCertificate, {
      params: { siteId: aliceSite },
      body: {
        name: 'x',
        certificate: other.certPem,
        privateKey: '-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n',
      },
    });
    expect(encrypted.json().extra.fields).toMatchObject([{ field: 'privateKey', key: 'certificateKeyInvalid' }]);

    const later = await createTestApp({ clock: () => Date.now() + 100 * 86_400_000 });
    try {
      const c = await signIn(later.app, 'client');
      const { productId } = await webProduct(later.app, c);
      const site = await operatorCalls(later.app, c).site('s', await rootId(later.app, 'user'), productId);
      const u = await signIn(later.app, 'user');
      const expired = await send(
        later.app,
        createCertificate,
        {
          params: { siteId: site },
          body: {
            name: 'old',
            certificate: chain.certPem,
            privateKey: chain.keyPem,
          },
        },
        { token: u },
      );
      expect(expired.json().extra.fields).toMatchObject([{ field: 'certificate', key: 'certificateExpired' }]);
    } finally {
      await later.close();
    }
  });

  it('assigns a certificate only to domains it covers (301001), and refuses deleting it while assigned', async () => {
    const cert = (await asAlice(metaCertificates, { params: { siteId: aliceSite } })).json().data[0];
    const made = await asAlice(createDomains, {
      params: { siteId: aliceSite },
      body: {
        domains: [
          { name: 'a.shop.alice.example', upstreams: [up()] },
          { name: 'b.c.shop.alice.example', upstreams: [up()] },
        ],
      },
    });
    const [covered, deep] = made.json().data;
    const www = (await asAlice(listDomains, { params: { siteId: aliceSite }, query: { keywords: 'www' } })).json()
      .data[0];

    const refused = await asAlice(assignCertificate, {
      params: { siteId: aliceSite },
      body: {
        certificateID: cert.id,
        domainIDs: [www.id, deep.id],
      },
    });
    expect(refused.json()).toMatchObject({ code: 301001, extra: { targets: ['b.c.shop.alice.example'] } });
    const ok = await asAlice(assignCertificate, {
      params: { siteId: aliceSite },
      body: {
        certificateID: cert.id,
        domainIDs: [www.id, covered.id],
      },
    });
    expect(ok.statusCode).toBe(200);
    const detail = (await asAlice(getCertificate, { params: { siteId: aliceSite, certificateId: cert.id } })).json()
      .data;
    expect(detail.domains.map((d: { name: string }) => d.name)).toEqual(['a.shop.alice.example', 'www.alice.example']);
    expect(
      (await asAlice(listDomains, { params: { siteId: aliceSite }, query: { keywords: 'www' } })).json().data[0],
    ).toMatchObject({
      certificateID: cert.id,
      certificateName: 'alice-main',
    });

    const del = await asAlice(deleteCertificates, { params: { siteId: aliceSite }, body: { ids: [cert.id] } });
    expect(del.json().extra.fields).toMatchObject([{ key: 'certificateInUse' }]);
    expect(del.json().extra.fields[0].message).toContain('www.alice.example');

    const swap = await asAlice(updateCertificate, {
      params: { siteId: aliceSite },
      body: {
        id: cert.id,
        name: 'renamed',
        certificate: other.certPem,
        privateKey: other.keyPem,
      },
    });
    expect(swap.json()).toMatchObject({ code: 301001 });
    expect(
      (
        await asAlice(updateCertificate, { params: { siteId: aliceSite }, body: { id: cert.id, name: 'renamed' } })
      ).json().data.name,
    ).toBe('renamed');

    expect(
      (
        await asAlice(assignCertificate, {
          params: { siteId: aliceSite },
          body: { certificateID: 0, domainIDs: [covered.id] },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await asAlice(deleteDomains, { params: { siteId: aliceSite }, body: { ids: [deep.id, covered.id] } }))
        .statusCode,
    ).toBe(200);
  });
});
