import type { AnyRoute, TokenSet } from '@rampart/contract';
import {
  assignCertificate,
  createCertificate,
  createDomains,
  deleteCertificates,
  getCertificate,
  listCertificates,
  listDomains,
  metaCertificates,
  updateCertificate,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { fieldNames, rawInput, sendAs } from './helpers/call.js';
import { makeCertificate, type TestCertificate } from './helpers/certificates.js';
import { operatorCalls, webProduct } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Certificates per call (spec part 1 §7 "Certificates"): sorting and paging of the list, the
 * validation of every body, and isolation — a customer never sees, changes, deletes or binds the
 * certificate of another customer's site, nor of its own other site.
 */

let t: TestApp;
let alice: TokenSet;
let bob: TokenSet;
let aliceSite: number;
let aliceOther: number;
let bobSite: number;
let certs: Record<'a' | 'b' | 'c' | 'bob', TestCertificate>;

beforeAll(async () => {
  t = await createTestApp();
  const client = await signIn(t.app, 'client');
  const { productId } = await webProduct(t.app, client);
  const aliceId = await rootId(t.app, 'user');
  const bobId = await addAccount(t.app, 'user', 'bob', await rootId(t.app, 'client'));
  const { site } = operatorCalls(t.app, client);
  aliceSite = await site('alice', aliceId, productId);
  aliceOther = await site('alice-2', aliceId, productId);
  bobSite = await site('bob', bobId, productId);
  alice = await signIn(t.app, 'user');
  bob = await signIn(t.app, 'user', 'bob');
  const [a, b, c, bobCert] = await Promise.all([
    makeCertificate(['a.example'], { days: 90 }),
    makeCertificate(['b.example'], { days: 20 }),
    makeCertificate(['c.example'], { days: 400 }),
    makeCertificate(['*.bob.example']),
  ]);
  certs = {
    a: a as TestCertificate,
    b: b as TestCertificate,
    c: c as TestCertificate,
    bob: bobCert as TestCertificate,
  };
});
afterAll(async () => t.close());

const at =
  (token: TokenSet) =>
  <R extends AnyRoute>(route: R, ...args: CallArgs<R>) =>
    sendAs(t.app, token, route, ...args);

async function upload(token: TokenSet, site: number, name: string, cert: TestCertificate) {
  const res = await at(token)(createCertificate, {
    params: { siteId: site },
    body: {
      name,
      certificate: cert.certPem,
      privateKey: cert.keyPem,
    },
  });
  expect(res.statusCode).toBe(200);
  return res.json().data as { id: number; name: string };
}

const names = (body: { data: { name: string }[] }) => body.data.map((c) => c.name);

describe('certificates: list, meta and detail', () => {
  it('sorts by name, expiry or upload time in either order, pages, and searches by name', async () => {
    await upload(alice, aliceSite, 'beta', certs.b);
    await upload(alice, aliceSite, 'alpha', certs.a);
    await upload(alice, aliceSite, 'gamma', certs.c);
    const a = at(alice);

    expect(names((await a(listCertificates, { params: { siteId: aliceSite } })).json())).toEqual([
      'gamma',
      'alpha',
      'beta',
    ]);
    expect(
      names(
        (
          await a(listCertificates, { params: { siteId: aliceSite }, query: { sortBy: 'name', orderBy: 'asc' } })
        ).json(),
      ),
    ).toEqual(['alpha', 'beta', 'gamma']);
    expect(
      names(
        (
          await a(listCertificates, { params: { siteId: aliceSite }, query: { sortBy: 'notAfter', orderBy: 'asc' } })
        ).json(),
      ),
    ).toEqual(['beta', 'alpha', 'gamma']);
    const page = (
      await a(listCertificates, {
        params: { siteId: aliceSite },
        query: { sortBy: 'name', orderBy: 'desc', page: 2, pageSize: 2 },
      })
    ).json();
    expect(page).toMatchObject({ total: 3, data: [{ name: 'alpha' }] });
    expect(names((await a(listCertificates, { params: { siteId: aliceSite }, query: { name: 'AL' } })).json())).toEqual(
      ['alpha'],
    );
    expect((await a(listCertificates, { params: { siteId: aliceSite }, query: { name: '%' } })).json().total).toBe(0);

    const list = (
      await a(listCertificates, { params: { siteId: aliceSite }, query: { sortBy: 'name', orderBy: 'asc' } })
    ).json().data;
    expect(list.map((c: { status: string }) => c.status)).toEqual(['valid', 'expiring', 'valid']);
    expect(list[0]).toMatchObject({ siteID: aliceSite, names: ['a.example'], domainCount: 0 });
    expect(JSON.stringify(list)).not.toContain('BEGIN');

    const bad = await a(
      listCertificates,
      rawInput({ params: { siteId: aliceSite }, query: { sortBy: 'issuer', orderBy: 'up', pageSize: 0 } }),
    );
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad).sort()).toEqual(['orderBy', 'pageSize', 'sortBy']);
  });

  it("answers a site's certificates for pickers and one in detail; never another site's (101018)", async () => {
    const meta = (await at(alice)(metaCertificates, { params: { siteId: aliceSite } })).json().data;
    expect(meta.map((c: { name: string }) => c.name)).toEqual(['alpha', 'beta', 'gamma']);
    expect((await at(alice)(metaCertificates, { params: { siteId: aliceOther } })).json().data).toEqual([]);
    expect((await at(bob)(listCertificates, { params: { siteId: bobSite } })).json()).toEqual({ data: [], total: 0 });
    expect((await at(bob)(listCertificates, { params: { siteId: aliceSite } })).json().code).toBe(101018);
    expect((await at(bob)(metaCertificates, { params: { siteId: aliceSite } })).json().code).toBe(101018);

    const alpha = meta[0];
    const detail = (await at(alice)(getCertificate, { params: { siteId: aliceSite, certificateId: alpha.id } })).json()
      .data;
    expect(detail).toMatchObject({ id: alpha.id, name: 'alpha', domains: [] });
    expect(detail.certificate).toContain('BEGIN CERTIFICATE');
    expect(detail.fingerprintSha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    // The right id through the wrong site is as unknown as a missing one.
    expect(
      (await at(alice)(getCertificate, { params: { siteId: aliceOther, certificateId: alpha.id } })).json().code,
    ).toBe(101018);
    expect((await at(bob)(getCertificate, { params: { siteId: bobSite, certificateId: alpha.id } })).json().code).toBe(
      101018,
    );
    expect(
      (await at(alice)(getCertificate, { params: { siteId: aliceSite, certificateId: 999999 } })).json().code,
    ).toBe(101018);
  });
});

describe('certificates: upload, edit and delete', () => {
  it('checks every field of an upload and an edit (101003 with the field names)', async () => {
    const a = at(alice);
    const empty = await a(createCertificate, {
      params: { siteId: aliceSite },
      body: { name: '', certificate: '', privateKey: '' },
    });
    expect(empty.json().code).toBe(101003);
    expect(fieldNames(empty)).toEqual(['name', 'certificate', 'privateKey']);
    const huge = await a(createCertificate, {
      params: { siteId: aliceSite },
      body: { name: 'x', certificate: 'x'.repeat(64 * 1024 + 1), privateKey: 'k' },
    });
    expect(huge.json().extra.fields).toMatchObject([{ field: 'certificate', key: 'tooLong' }]);

    const alpha = (await a(metaCertificates, { params: { siteId: aliceSite } })).json().data[0];
    const half = await a(updateCertificate, {
      params: { siteId: aliceSite },
      body: { id: alpha.id, name: 'alpha', certificate: certs.a.certPem },
    });
    expect(half.json().extra.fields).toMatchObject([{ field: 'privateKey', key: 'required' }]);
    const mismatch = await a(updateCertificate, {
      params: { siteId: aliceSite },
      body: {
        id: alpha.id,
        name: 'alpha',
        certificate: certs.a.certPem,
        privateKey: certs.b.keyPem,
      },
    });
    expect(mismatch.json().extra.fields).toMatchObject([{ field: 'privateKey', key: 'certificateKeyMismatch' }]);
    expect(
      (await a(getCertificate, { params: { siteId: aliceSite, certificateId: alpha.id } })).json().data.names,
    ).toEqual(['a.example']);
  });

  it("replaces a chain and key, but never another site's certificate (101018)", async () => {
    const a = at(alice);
    const alpha = (await a(metaCertificates, { params: { siteId: aliceSite } })).json().data[0];
    const swapped = await a(updateCertificate, {
      params: { siteId: aliceSite },
      body: {
        id: alpha.id,
        name: 'alpha',
        memo: 'renewed',
        certificate: certs.c.certPem,
        privateKey: certs.c.keyPem,
      },
    });
    expect(swapped.json().data).toMatchObject({ id: alpha.id, memo: 'renewed', names: ['c.example'] });

    const body = { id: alpha.id, name: 'stolen', certificate: certs.bob.certPem, privateKey: certs.bob.keyPem };
    expect((await at(bob)(updateCertificate, { params: { siteId: bobSite }, body })).json().code).toBe(101018);
    expect((await at(alice)(updateCertificate, { params: { siteId: aliceOther }, body })).json().code).toBe(101018);
    expect((await at(bob)(updateCertificate, { params: { siteId: aliceSite }, body })).json().code).toBe(101018);
    expect((await a(getCertificate, { params: { siteId: aliceSite, certificateId: alpha.id } })).json().data.name).toBe(
      'alpha',
    );
  });

  it('deletes all or none: one id of another site deletes nothing (101018)', async () => {
    const mine = await upload(bob, bobSite, 'bob-wild', certs.bob);
    const a = at(alice);
    const [alpha, beta] = (await a(metaCertificates, { params: { siteId: aliceSite } })).json().data;
    expect(
      (await a(deleteCertificates, { params: { siteId: aliceSite }, body: { ids: [beta.id, mine.id] } })).json().code,
    ).toBe(101018);
    expect(
      (await at(bob)(deleteCertificates, { params: { siteId: bobSite }, body: { ids: [alpha.id] } })).json().code,
    ).toBe(101018);
    expect(
      (await at(alice)(deleteCertificates, { params: { siteId: aliceOther }, body: { ids: [alpha.id] } })).json().code,
    ).toBe(101018);
    expect((await a(listCertificates, { params: { siteId: aliceSite } })).json().total).toBe(3);
    expect((await at(bob)(listCertificates, { params: { siteId: bobSite } })).json().total).toBe(1);

    expect(
      (await a(deleteCertificates, { params: { siteId: aliceSite }, body: { ids: [beta.id, beta.id] } })).json(),
    ).toEqual({ data: true });
    expect((await a(listCertificates, { params: { siteId: aliceSite } })).json().total).toBe(2);
    expect(
      (await a(deleteCertificates, { params: { siteId: aliceSite }, body: { ids: [] } })).json().extra.fields,
    ).toMatchObject([{ field: 'ids' }]);
  });
});

describe('certificates: assigning to domains', () => {
  it("binds only the site's own certificate to the site's own domains (101018), and shows it on the domain", async () => {
    const bobCert = (await at(bob)(metaCertificates, { params: { siteId: bobSite } })).json().data[0];
    const made = await at(bob)(createDomains, {
      params: { siteId: bobSite },
      body: {
        domains: [{ name: 'www.bob.example', upstreams: [{ ip: '127.0.0.1', port: 80 }] }],
      },
    });
    const bobDomain = made.json().data[0];
    const aliceDomain = (
      await at(alice)(createDomains, {
        params: { siteId: aliceSite },
        body: {
          domains: [{ name: 'c.example', upstreams: [{ ip: '127.0.0.1', port: 80 }] }],
        },
      })
    ).json().data[0];
    const aliceCert = (await at(alice)(metaCertificates, { params: { siteId: aliceSite } }))
      .json()
      .data.find((c: { names: string[] }) => c.names.includes('c.example'));

    // Alice's certificate onto Bob's domain, through either site, and Bob's onto Alice's domain.
    for (const [token, site, certificateID, domainIDs] of [
      [bob, bobSite, aliceCert!.id, [bobDomain.id]],
      [alice, aliceSite, bobCert.id, [aliceDomain.id]],
      [alice, aliceSite, aliceCert!.id, [bobDomain.id]],
      [alice, bobSite, aliceCert!.id, [bobDomain.id]],
      [alice, aliceOther, aliceCert!.id, [aliceDomain.id]],
    ] as const) {
      const res = await at(token)(assignCertificate, {
        params: { siteId: site },
        body: { certificateID, domainIDs: [...domainIDs] },
      });
      expect(res.json().code).toBe(101018);
    }
    const bobRow = (await at(bob)(listDomains, { params: { siteId: bobSite } })).json().data[0];
    expect(bobRow).toMatchObject({ certificateID: 0, certificateName: '' });

    const ok = await at(bob)(assignCertificate, {
      params: { siteId: bobSite },
      body: {
        certificateID: bobCert.id,
        domainIDs: [bobDomain.id],
      },
    });
    expect(ok.json()).toEqual({ data: true });
    expect((await at(bob)(listDomains, { params: { siteId: bobSite } })).json().data[0]).toMatchObject({
      certificateID: bobCert.id,
      certificateName: 'bob-wild',
    });
    expect(
      (await at(bob)(getCertificate, { params: { siteId: bobSite, certificateId: bobCert.id } })).json().data,
    ).toMatchObject({
      domainCount: 1,
      domains: [{ id: bobDomain.id, name: 'www.bob.example' }],
    });

    const inUse = await at(bob)(deleteCertificates, { params: { siteId: bobSite }, body: { ids: [bobCert.id] } });
    expect(inUse.json()).toMatchObject({
      code: 101003,
      extra: { fields: [{ field: 'ids.0', key: 'certificateInUse' }] },
    });
    expect(inUse.json().extra.fields[0].message).toContain('www.bob.example');

    const bad = await at(bob)(assignCertificate, {
      params: { siteId: bobSite },
      body: { certificateID: -1, domainIDs: [] },
    });
    expect(fieldNames(bad)).toEqual(['certificateID', 'domainIDs']);
  });
});
