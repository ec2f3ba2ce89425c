import type { AnyRoute, RouteInput } from '@rampart/contract';
import {
  assignCertificate,
  copyDomainsToSite,
  createCertificate,
  createDomains,
  createDomainsFrom,
  createSimpleDomains,
  deleteCertificates,
  deleteDomains,
  deleteDomainsByNames,
  domainSettings,
  exportDomains,
  grantSiteUsers,
  listDomains,
  listUpstreams,
  metaDomains,
  modifyUpstreamIPs,
  replaceDomainsUpstreams,
  setDomainsStatus,
  setDomainsTags,
  updateDomain,
  userDomainIds,
  userDomainsMeta,
  userDomainsTags,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, giveRole, rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { fieldNames, rawInput, sendAs, type Token } from './helpers/call.js';
import { makeCertificate } from './helpers/certificates.js';
import { operatorCalls, webProduct } from './helpers/operators.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';

/**
 * The rest of the domain calls: the advanced filter, simple create,
 * delete by names, meta domains, tags, settings by name, batch upstream changes, copy to another
 * site, create from a domain, export, and the calls across the customer's sites.
 */

let t: TestApp;
let client: { accessToken: string };
let alice: { accessToken: string };
let bob: { accessToken: string };
let aliceSite: number;
let aliceOther: number;
let bobSite: number;

const up = (port = 8080, extra: { weight?: number; backup?: boolean; status?: 0 | 1 } = {}) => ({
  ip: '127.0.0.1',
  port,
  ...extra,
});

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  const { productId } = await webProduct(t.app, client);
  const aliceId = await rootId(t.app, 'user');
  const bobId = await addAccount(t.app, 'user', 'bob', await rootId(t.app, 'client'));
  const { site } = operatorCalls(t.app, client);
  aliceSite = await site('alice-shop', aliceId, productId);
  aliceOther = await site('alice-blog', aliceId, productId);
  bobSite = await site('bob-blog', bobId, productId);
  alice = await signIn(t.app, 'user');
  bob = await signIn(t.app, 'user', 'bob', TEST_PASSWORD);
});
afterAll(async () => t.close());

function call<R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) {
  return sendAs(t.app, client, route, ...args);
}
const asAlice = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, alice, route, ...args);
const asBob = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, bob, route, ...args);
const names = (list: { name: string }[]) => list.map((d) => d.name);

async function addDomains(domains: RouteInput<typeof createDomains>['body']['domains'], site = aliceSite) {
  const res = await asAlice(createDomains, { params: { siteId: site }, body: { domains } });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

async function wipe(site = aliceSite) {
  const ids = (await asAlice(listDomains, { params: { siteId: site }, query: { pageSize: 100 } }))
    .json()
    .data.map((d: { id: number }) => d.id);
  if (ids.length > 0)
    expect((await asAlice(deleteDomains, { params: { siteId: site }, body: { ids } })).statusCode).toBe(200);
}

describe('advanced filter', () => {
  it('filters by tags (any of), certificate status and created/updated ranges in SQL', async () => {
    const cert = await makeCertificate(['a.alice.example']);
    const certId = (
      await asAlice(createCertificate, {
        params: { siteId: aliceSite },
        body: { name: 'a', certificate: cert.certPem, privateKey: cert.keyPem },
      })
    ).json().data.id;
    const [a, b] = await addDomains([
      { name: 'a.alice.example', upstreams: [up()], tags: ['red', 'blue'], certificateID: certId },
      { name: 'b.alice.example', upstreams: [up()], tags: ['green'] },
      { name: 'c.alice.example', upstreams: [up()] },
    ]);
    const q = async (query: RouteInput<typeof listDomains>['query']) =>
      names(
        (
          await asAlice(listDomains, {
            params: { siteId: aliceSite },
            query: { sortBy: 'name', orderBy: 'asc', ...query },
          })
        ).json().data,
      );

    expect(await q({ tags: 'blue' })).toEqual(['a.alice.example']);
    expect(await q({ tags: ['blue', 'green'] })).toEqual(['a.alice.example', 'b.alice.example']);
    expect(await q({ certStatus: 1 })).toEqual(['a.alice.example']);
    expect(await q({ certStatus: 0 })).toEqual(['b.alice.example', 'c.alice.example']);
    expect(await q({ certStatus: 2 })).toEqual([]);
    const listed = (
      await asAlice(listDomains, { params: { siteId: aliceSite }, query: { keywords: 'a.alice' } })
    ).json().data[0];
    expect(listed).toMatchObject({ certStatus: 1, certificateName: 'a' });

    // A certificate past its end counts as expired (2) in the filter and in the row.
    await t.db.database.db.execute(`UPDATE certificates SET not_after = now() - interval '1 day' WHERE id = ${certId}`);
    expect(await q({ certStatus: 2 })).toEqual(['a.alice.example']);
    expect(
      (await asAlice(listDomains, { params: { siteId: aliceSite }, query: { keywords: 'a.alice' } })).json().data[0]
        .certStatus,
    ).toBe(2);

    // Ranges: b made an hour ago and updated a minute ago.
    await t.db.database.db.execute(
      `UPDATE domains SET created_at = now() - interval '1 hour', updated_at = now() - interval '1 minute' WHERE id = ${b?.id}`,
    );
    const halfHourAgo = new Date(Date.now() - 30 * 60_000).toISOString();
    const tenSecondsAgo = new Date(Date.now() - 10_000).toISOString();
    expect(await q({ createdAtEnd: halfHourAgo })).toEqual(['b.alice.example']);
    expect(await q({ createdAtStart: halfHourAgo })).toEqual(['a.alice.example', 'c.alice.example']);
    expect(await q({ updatedAtStart: halfHourAgo, updatedAtEnd: tenSecondsAgo })).toEqual(['b.alice.example']);
    expect(
      (
        await asAlice(listDomains, {
          params: { siteId: aliceSite },
          query: { tags: 'blue', createdAtEnd: halfHourAgo },
        })
      ).json().total,
    ).toBe(0);

    const bad = await asAlice(
      listDomains,
      rawInput({ params: { siteId: aliceSite }, query: { certStatus: 5, createdAtStart: 'yesterday' } }),
    );
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad)).toEqual(expect.arrayContaining(['certStatus', 'createdAtStart']));
    await asAlice(assignCertificate, { params: { siteId: aliceSite }, body: { certificateID: 0, domainIDs: [a?.id] } });
    await wipe();
    await asAlice(deleteCertificates, { params: { siteId: aliceSite }, body: { ids: [certId] } });
  });
});

describe('simple create, delete by names, meta, settings, tags', () => {
  it('adds names sharing one upstream list, all or none', async () => {
    const res = await asAlice(createSimpleDomains, {
      params: { siteId: aliceSite },
      body: {
        names: ['One.Alice.Example', 'two.alice.example'],
        upstreams: [up(81)],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject([
      { name: 'one.alice.example', status: 1, scheme: 0, upstreamURL: '127.0.0.1:81' },
      { name: 'two.alice.example', status: 1, upstreamURL: '127.0.0.1:81' },
    ]);
    const again = await asAlice(createSimpleDomains, {
      params: { siteId: aliceSite },
      body: {
        names: ['three.alice.example', 'one.alice.example'],
        upstreams: [up()],
      },
    });
    expect(again.json().code).toBe(101009);
    expect(again.json().errors).toContainEqual(
      expect.objectContaining({ code: 101025, targets: ['one.alice.example'] }),
    );
    expect(
      (await asAlice(listDomains, { params: { siteId: aliceSite }, query: { keywords: 'three' } })).json().total,
    ).toBe(0);

    const backupOnly = await asAlice(createSimpleDomains, {
      params: { siteId: aliceSite },
      body: {
        names: ['x.alice.example'],
        upstreams: [up(1, { backup: true })],
      },
    });
    expect(backupOnly.json()).toMatchObject({ code: 101009, errors: [{ code: 401008 }] });
    const invalid = await asAlice(createSimpleDomains, {
      params: { siteId: aliceSite },
      body: { names: ['bad_name..x'], upstreams: [] },
    });
    expect(invalid.json().code).toBe(101003);
    expect(fieldNames(invalid)).toEqual(expect.arrayContaining(['names.0', 'upstreams']));
  });

  it('answers meta domains and one domain by name; tags the domains given', async () => {
    const meta = (await asAlice(metaDomains, { params: { siteId: aliceSite }, query: { keyword: 'ONE' } })).json().data;
    expect(meta).toEqual([{ id: expect.any(Number), name: 'one.alice.example', status: 1 }]);
    expect((await asAlice(metaDomains, { params: { siteId: aliceSite } })).json().data).toHaveLength(2);

    const one = (
      await asAlice(domainSettings, { params: { siteId: aliceSite }, query: { domainName: 'one.alice.example' } })
    ).json().data;
    expect(one).toMatchObject({ id: meta[0].id, name: 'one.alice.example', upstreams: [{ port: 81 }] });
    expect(
      (
        await asAlice(domainSettings, { params: { siteId: aliceSite }, query: { domainName: 'nope.alice.example' } })
      ).json().code,
    ).toBe(101018);

    const two = (await asAlice(metaDomains, { params: { siteId: aliceSite }, query: { keyword: 'two' } })).json()
      .data[0].id;
    expect(
      (
        await asAlice(setDomainsTags, {
          params: { siteId: aliceSite },
          body: { domainIDs: [meta[0].id, two], tags: ['x', 'x', 'y'] },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await asAlice(listDomains, { params: { siteId: aliceSite }, query: { tags: 'y' } }))
        .json()
        .data.map((d: { tags: string[] }) => d.tags),
    ).toEqual([
      ['x', 'y'],
      ['x', 'y'],
    ]);
    expect(
      (
        await asAlice(setDomainsTags, { params: { siteId: aliceSite }, body: { domainIDs: [two], tags: ['a b'] } })
      ).json().code,
    ).toBe(101003);
  });

  it('deletes by names all or none, naming the names the site lacks', async () => {
    const missing = await asAlice(deleteDomainsByNames, {
      params: { siteId: aliceSite },
      body: { names: ['one.alice.example', 'ghost.alice.example'] },
    });
    expect(missing.json()).toMatchObject({
      code: 101009,
      errors: [{ code: 101018, targets: ['ghost.alice.example'] }],
    });
    expect((await asAlice(metaDomains, { params: { siteId: aliceSite } })).json().data).toHaveLength(2);
    const ok = await asAlice(deleteDomainsByNames, {
      params: { siteId: aliceSite },
      body: { names: ['ONE.alice.example', 'two.alice.example'] },
    });
    expect(ok.statusCode).toBe(200);
    expect((await asAlice(metaDomains, { params: { siteId: aliceSite } })).json().data).toEqual([]);
  });
});

describe('batch upstream changes', () => {
  it('changes one origin IP across the site or the domains given', async () => {
    const [a, b, c] = await addDomains([
      { name: 'a.alice.example', upstreams: [up(80), { ip: '10.0.0.2', port: 80 }] },
      { name: 'b.alice.example', upstreams: [up(81)] },
      { name: 'c.alice.example', upstreams: [up(82)] },
    ]);
    const generation = t.app.rampart.changes.generation;
    const some = await asAlice(modifyUpstreamIPs, {
      params: { siteId: aliceSite },
      body: {
        domainIDs: [a?.id, b?.id],
        oldIP: '127.0.0.1',
        newIP: '10.0.0.9',
      },
    });
    expect(some.json().data).toEqual({ domains: 2, upstreams: 2 });
    // The change reaches the edge: the configuration generation moved on, so nodes rebuild.
    expect(t.app.rampart.changes.generation).toBeGreaterThan(generation);
    const ups = async (id?: number) =>
      (await asAlice(listUpstreams, { params: { siteId: aliceSite, domainId: id } }))
        .json()
        .data.map((u: { ip: string }) => u.ip);
    expect(await ups(a?.id)).toEqual(['10.0.0.9', '10.0.0.2']);
    expect(await ups(c?.id)).toEqual(['127.0.0.1']);

    const all = await asAlice(modifyUpstreamIPs, {
      params: { siteId: aliceSite },
      body: { oldIP: '10.0.0.9', newIP: '2001:DB8::5' },
    });
    expect(all.json().data).toEqual({ domains: 2, upstreams: 2 });
    expect(await ups(b?.id)).toEqual(['2001:db8::5']);

    const bad = await asAlice(modifyUpstreamIPs, {
      params: { siteId: aliceSite },
      body: { oldIP: 'x', newIP: '10.0.0.1' },
    });
    expect(bad.json().extra.fields.map((f: { field: string; key: string }) => `${f.field}:${f.key}`)).toEqual([
      'oldIP:invalidOriginAddress',
    ]);
    const foreign = await asBob(modifyUpstreamIPs, {
      params: { siteId: bobSite },
      body: {
        domainIDs: [c?.id],
        oldIP: '127.0.0.1',
        newIP: '10.0.0.1',
      },
    });
    expect(foreign.json().code).toBe(101018);
    // Bob's site-wide change never reaches Alice's upstreams.
    expect(
      (
        await asBob(modifyUpstreamIPs, { params: { siteId: bobSite }, body: { oldIP: '127.0.0.1', newIP: '10.0.0.1' } })
      ).json().data,
    ).toEqual({
      domains: 0,
      upstreams: 0,
    });
    expect(await ups(c?.id)).toEqual(['127.0.0.1']);
  });

  it('replaces the upstreams of several domains at once (401008 when none would serve)', async () => {
    const meta = (await asAlice(metaDomains, { params: { siteId: aliceSite } })).json().data;
    const ids = meta.map((m) => m.id);
    const none = await asAlice(replaceDomainsUpstreams, {
      params: { siteId: aliceSite },
      body: { domainIDs: ids, upstreams: [up(1, { status: 0 })] },
    });
    expect(none.json().code).toBe(401008);
    const ok = await asAlice(replaceDomainsUpstreams, {
      params: { siteId: aliceSite },
      body: {
        domainIDs: ids,
        upstreams: [up(9000, { weight: 5 }), up(9001, { backup: true })],
      },
    });
    expect(ok.statusCode).toBe(200);
    const listed = (await asAlice(listDomains, { params: { siteId: aliceSite } })).json().data;
    for (const d of listed) expect(d).toMatchObject({ upstreamURL: '127.0.0.1:9000', upstreamCount: 2 });
    const foreign = await asBob(replaceDomainsUpstreams, {
      params: { siteId: bobSite },
      body: { domainIDs: [meta[0].id], upstreams: [up()] },
    });
    expect(foreign.json().code).toBe(101018);
  });
});

describe('copy and create from', () => {
  it("copies domains to another of the customer's sites, disabled and without certificate", async () => {
    const a = (
      await asAlice(domainSettings, { params: { siteId: aliceSite }, query: { domainName: 'a.alice.example' } })
    ).json().data;
    await asAlice(setDomainsTags, { params: { siteId: aliceSite }, body: { domainIDs: [a.id], tags: ['copied'] } });
    const res = await asAlice(copyDomainsToSite, {
      params: { siteId: aliceSite },
      body: { domainIDs: [a.id], siteID: aliceOther },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject([
      {
        siteID: aliceOther,
        name: 'a.alice.example',
        status: 0,
        certificateID: 0,
        tags: ['copied'],
        upstreamURL: '127.0.0.1:9000',
        upstreamCount: 2,
      },
    ]);
    const twice = await asAlice(copyDomainsToSite, {
      params: { siteId: aliceSite },
      body: { domainIDs: [a.id], siteID: aliceOther },
    });
    expect(twice.json()).toMatchObject({ code: 101009, errors: [{ code: 101025, targets: ['a.alice.example'] }] });
    // Enabling the copy collides with the enabled source (401001).
    const copy = res.json().data[0];
    const enable = await asAlice(setDomainsStatus, {
      params: { siteId: aliceOther },
      body: { domainIDs: [copy.id], status: 1 },
    });
    expect(enable.json()).toMatchObject({ code: 101009, errors: [{ code: 401001 }] });

    expect(
      (
        await asAlice(copyDomainsToSite, {
          params: { siteId: aliceSite },
          body: { domainIDs: [a.id], siteID: bobSite },
        })
      ).json().code,
    ).toBe(101018);
    expect(
      (
        await asBob(copyDomainsToSite, { params: { siteId: bobSite }, body: { domainIDs: [a.id], siteID: bobSite } })
      ).json().code,
    ).toBe(101018);
    await wipe(aliceOther);
  });

  it('adds names with the settings and upstreams of a domain; the certificate only where it covers', async () => {
    const cert = await makeCertificate(['*.alice.example']);
    const certId = (
      await asAlice(createCertificate, {
        params: { siteId: aliceSite },
        body: { name: 'wild', certificate: cert.certPem, privateKey: cert.keyPem },
      })
    ).json().data.id;
    const a = (
      await asAlice(domainSettings, { params: { siteId: aliceSite }, query: { domainName: 'a.alice.example' } })
    ).json().data;
    await asAlice(updateDomain, {
      params: { siteId: aliceSite },
      body: {
        id: a.id,
        upstreams: a.upstreams,
        certificateID: certId,
        hashType: 1,
        forceSSL: true,
      },
    });

    const res = await asAlice(createDomainsFrom, {
      params: { siteId: aliceSite },
      body: {
        domainID: a.id,
        names: ['n1.alice.example', 'deep.n2.alice.example'],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject([
      { name: 'n1.alice.example', status: 1, hashType: 1, forceSSL: true, certificateID: certId, tags: ['copied'] },
      { name: 'deep.n2.alice.example', status: 1, hashType: 1, certificateID: 0, upstreamCount: 2 },
    ]);
    const taken = await asAlice(createDomainsFrom, {
      params: { siteId: aliceSite },
      body: { domainID: a.id, names: ['n1.alice.example'] },
    });
    expect(taken.json().errors).toContainEqual(
      expect.objectContaining({ code: 101025, targets: ['n1.alice.example'] }),
    );
    expect(
      (
        await asBob(createDomainsFrom, {
          params: { siteId: bobSite },
          body: { domainID: a.id, names: ['z.bob.example'] },
        })
      ).json().code,
    ).toBe(101018);
    // Bob may not take Alice's enabled name even through createFrom.
    const [bobs] = await (async () => {
      const r = await asBob(createDomains, {
        params: { siteId: bobSite },
        body: { domains: [{ name: 'b.bob.example', upstreams: [up()] }] },
      });
      return r.json().data;
    })();
    const clash = await asBob(createDomainsFrom, {
      params: { siteId: bobSite },
      body: { domainID: bobs.id, names: ['n1.alice.example'] },
    });
    expect(clash.json()).toMatchObject({ code: 101009, errors: [{ code: 401001, targets: ['n1.alice.example'] }] });
    await asBob(deleteDomains, { params: { siteId: bobSite }, body: { ids: [bobs.id] } });
  });

  it('refuses additions beyond the site limit (401002)', async () => {
    await t.db.database.db.execute(`UPDATE sites SET max_domains = 1 WHERE id = ${aliceOther}`);
    const a = (
      await asAlice(domainSettings, { params: { siteId: aliceSite }, query: { domainName: 'a.alice.example' } })
    ).json().data;
    const b = (
      await asAlice(domainSettings, { params: { siteId: aliceSite }, query: { domainName: 'b.alice.example' } })
    ).json().data;
    const over = await asAlice(copyDomainsToSite, {
      params: { siteId: aliceSite },
      body: { domainIDs: [a.id, b.id], siteID: aliceOther },
    });
    expect(over.json().code).toBe(401002);
    expect((await asAlice(metaDomains, { params: { siteId: aliceOther } })).json().data).toEqual([]);
    await t.db.database.db.execute(`UPDATE sites SET max_domains = 0 WHERE id = ${aliceOther}`);
  });
});

describe('export', () => {
  it('answers a CSV file named in Content-Disposition, of the ids given or the whole site', async () => {
    const res = await asAlice(exportDomains, { params: { siteId: aliceSite }, body: {} });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="domains-site\d+-\d{8}T\d{6}\.csv"$/);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'name,status,scheme,hashType,hostName,forceSSL,autoSSL,portMap,cname,cnameStatus,certificateName,tags,upstreams,createdAt,updatedAt',
    );
    // The CNAME target under the default CNAME domain, not checked yet.
    expect(lines[1]).toMatch(/,false,false,[0-9a-f]{16}\.cname\.rampart\.invalid,0,/);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([
      'a.alice.example',
      'b.alice.example',
      'c.alice.example',
      'deep.n2.alice.example',
      'n1.alice.example',
    ]);
    expect(lines[1]).toContain('127.0.0.1:9000*5; 127.0.0.1:9001*1 backup');

    const b = (
      await asAlice(domainSettings, { params: { siteId: aliceSite }, query: { domainName: 'b.alice.example' } })
    ).json().data;
    const one = await asAlice(exportDomains, { params: { siteId: aliceSite }, body: { ids: [b.id] } });
    expect(one.body.trim().split('\r\n')).toHaveLength(2);
    expect((await asBob(exportDomains, { params: { siteId: bobSite }, body: { ids: [b.id] } })).json().code).toBe(
      101018,
    );
    expect(
      (await asBob(exportDomains, { params: { siteId: bobSite }, body: {} })).body.trim().split('\r\n'),
    ).toHaveLength(1);
  });
});

describe('across sites', () => {
  it("answers meta, tags and ids of the customer's own domains only", async () => {
    await addDomains([{ name: 'blog.alice.example', upstreams: [up()], tags: ['blog'] }], aliceOther);
    await asBob(createDomains, {
      params: { siteId: bobSite },
      body: { domains: [{ name: 'bob.example', upstreams: [up()], tags: ['bobtag'] }] },
    });

    const meta = (await call(userDomainsMeta, { body: { siteIDs: [aliceOther] } }, alice)).json().data;
    expect(meta).toEqual([{ id: expect.any(Number), name: 'blog.alice.example', siteID: aliceOther }]);
    const all = (await call(userDomainsMeta, { body: { name: 'alice' } }, alice)).json().data;
    expect(all.length).toBe(6);
    expect((await call(userDomainsMeta, { body: { siteIDs: [bobSite] } }, alice)).json().data).toEqual([]);

    const tags = (await call(userDomainsTags, { body: {} }, alice)).json().data;
    expect(tags).toEqual(['blog', 'copied']);
    expect((await call(userDomainsTags, { body: { siteIDs: [aliceOther] } }, alice)).json().data).toEqual(['blog']);
    expect((await call(userDomainsTags, { body: {} }, bob)).json().data).toEqual(['bobtag']);

    const ids = (await call(userDomainIds, { query: { name: 'blog.alice.example' } }, alice)).json().data;
    expect(ids).toEqual([meta[0].id]);
    expect(
      (await call(userDomainIds, { query: { name: 'blog.alice.example', siteName: 'alice-shop' } }, alice)).json().data,
    ).toEqual([]);
    expect(
      (await call(userDomainIds, { query: { name: 'blog.alice.example', siteID: aliceOther } }, alice)).json().data,
    ).toEqual(ids);
    expect((await call(userDomainIds, { query: { name: 'blog.alice.example' } }, bob)).json().data).toEqual([]);
    expect((await call(userDomainIds, { query: { name: 'bad_' } }, alice)).json().code).toBe(101003);
    // A sub-account given one of Alice's sites sees that site's domains, and only those.
    const aliceId = await rootId(t.app, 'user');
    const subId = await addAccount(t.app, 'user', 'alice-sub', aliceId);
    await giveRole(t.app, alice, 'user', subId, ['user.domains.read']);
    const sub = await signIn(t.app, 'user', 'alice-sub', TEST_PASSWORD);
    expect((await call(userDomainsMeta, { body: {} }, sub)).json().data).toEqual([]);
    const grant = await call(grantSiteUsers, { body: { siteIDs: [aliceOther], userIDs: [subId] } }, alice);
    expect(grant.statusCode).toBe(200);
    expect((await call(userDomainsMeta, { body: {} }, sub)).json().data).toEqual(meta);
    expect((await call(userDomainsTags, { body: {} }, sub)).json().data).toEqual(['blog']);
    expect((await call(userDomainIds, { query: { name: 'blog.alice.example' } }, sub)).json().data).toEqual(ids);
    // An operator token is not a customer's.
    expect((await call(userDomainsMeta, { body: {} })).statusCode).toBeGreaterThanOrEqual(400);
  });
});
