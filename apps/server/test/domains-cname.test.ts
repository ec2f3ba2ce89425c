import type { AnyRoute } from '@rampart/contract';
import {
  AUTO_SSL_DOMAINS_PER_SITE_MAX,
  checkDomainsCNAME,
  createDomains,
  createSimpleDomains,
  createZonePorts,
  deleteZonePorts,
  domainSettings,
  getCnameSetting,
  listDomains,
  listZonePorts,
  putCnameSetting,
  setDomainScheme,
  setDomainsAutoSSL,
  updateDomain,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId, signInOtherOperator } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { rawInput, send, sendAs, type Token } from './helpers/call.js';
import { type DnsServer, freeDnsPort, startDnsServer, startSilentDns } from './helpers/dns-server.js';
import { operatorCalls, webProduct } from './helpers/operators.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';

// CNAME targets, checkCNAME against a real DNS server (BIND on loopback), auto SSL and port map.

let t: TestApp;
let dns: DnsServer;
let client: { accessToken: string };
let alice: { accessToken: string };
let bob: { accessToken: string };
let aliceSite: number;
let oddSite: number;
let bobSite: number;
let oddZone: number;
const d: Record<string, { id: number; cname: string }> = {};

const up = [{ ip: '127.0.0.1', port: 8080 }];
/** The domain created in beforeAll under `name`. */
function domain(name: string): { id: number; cname: string } {
  const row = d[name];
  if (!row) throw new Error(`no domain ${name}`);
  return row;
}
const label = (name: string) => domain(name).cname.split('.')[0];

function call<R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) {
  return sendAs(t.app, client, route, ...args);
}
const asAlice = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, alice, route, ...args);
const asBob = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, bob, route, ...args);

/** A zone and a product of its own, both named `name`, serving from the zone's group `web`. */
async function product(name: string) {
  const make = operatorCalls(t.app, client);
  const zoneId = await make.zone(name);
  return { zoneId, productId: await make.product(name, 7, [await make.group(zoneId, 'web')]) };
}

const NAMES = [
  'www.shop.test', // CNAME straight to its target
  'alias.shop.test', // through another zone's CNAME to its target
  '*.wild.shop.test', // a wildcard record to its target
  'plain.shop.test', // an A record, no CNAME
  'missing.shop.test', // no such name
  'wrong.shop.test', // CNAME to another domain's target
  'loop.shop.test', // a CNAME loop
  'later.shop.test', // verifiable, used for the failure cases
  'elsewhere.example', // a zone the server does not serve: it refuses
];

beforeAll(async () => {
  const port = await freeDnsPort();
  t = await createTestApp({ config: { dnsServers: [`127.0.0.1:${port}`] } });
  client = await signIn(t.app, 'client');
  expect((await call(putCnameSetting, { body: { domain: 'CNAME.Test' } })).statusCode).toBe(200);
  const main = await product('Asia');
  const odd = await product('Odd');
  oddZone = odd.zoneId;
  const aliceId = await rootId(t.app, 'user');
  const clientRoot = await rootId(t.app, 'client');
  const bobId = await addAccount(t.app, 'user', 'bob', clientRoot);
  const { site } = operatorCalls(t.app, client);
  aliceSite = await site('alice-shop', aliceId, main.productId);
  oddSite = await site('alice-odd', aliceId, odd.productId);
  bobSite = await site('bob-blog', bobId, main.productId);
  alice = await signIn(t.app, 'user');
  bob = await signIn(t.app, 'user', 'bob', TEST_PASSWORD);

  const created = await asAlice(createSimpleDomains, {
    params: { siteId: aliceSite },
    body: { names: NAMES, upstreams: up },
  });
  expect(created.statusCode).toBe(200);
  for (const row of created.json().data) d[row.name] = { id: row.id, cname: row.cname };
  dns = await startDnsServer(
    {
      'shop.test': [
        `www IN CNAME ${domain('www.shop.test').cname}.`,
        'alias IN CNAME hop.other.test.',
        `*.wild IN CNAME ${domain('*.wild.shop.test').cname}.`,
        'plain IN A 192.0.2.1',
        `wrong IN CNAME ${domain('www.shop.test').cname}.`,
        'loop IN CNAME loop2.shop.test.',
        'loop2 IN CNAME loop.shop.test.',
        `later IN CNAME ${domain('later.shop.test').cname}.`,
      ],
      'other.test': [`hop IN CNAME ${domain('alias.shop.test').cname}.`],
      // The operator's zone answers every target with its edge address.
      'cname.test': ['* IN A 192.0.2.10'],
    },
    port,
  );
}, 60_000);
afterAll(async () => {
  await dns?.stop();
  await t?.close();
});

describe("the operator's CNAME domain", () => {
  it('has a default, is set per operator in ASCII, checked, and goes back to the default with ""', async () => {
    const rival = await signInOtherOperator(t.app);
    // PUBLIC_URL of the tests is an IP address: the reserved fallback.
    expect((await call(getCnameSetting, undefined, rival)).json().data).toEqual({
      domain: 'cname.rampart.invalid',
      defaultDomain: 'cname.rampart.invalid',
      custom: false,
    });
    expect((await call(getCnameSetting)).json().data).toEqual({
      domain: 'cname.test',
      defaultDomain: 'cname.rampart.invalid',
      custom: true,
    });
    const own = await call(putCnameSetting, { body: { domain: 'Bücher.example' } }, rival);
    expect(own.json().data).toMatchObject({ domain: 'xn--bcher-kva.example', custom: true });
    // The first operator's setting is untouched by the rival's.
    expect((await call(getCnameSetting)).json().data.domain).toBe('cname.test');
    expect((await call(putCnameSetting, { body: { domain: '' } }, rival)).json().data).toMatchObject({
      domain: 'cname.rampart.invalid',
      custom: false,
    });

    const bad = await call(putCnameSetting, { body: { domain: 'not a name' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'domain' }] } });
    expect((await call(putCnameSetting, rawInput({ body: {} }))).json()).toMatchObject({ code: 101003 });
    // Customers cannot read or set it.
    expect((await call(getCnameSetting, undefined, alice)).statusCode).not.toBe(200);
    expect((await call(putCnameSetting, { body: { domain: 'x.example' } }, alice)).statusCode).not.toBe(200);
  });
});

describe('CNAME targets and checkCNAME', () => {
  it('gives every domain its own unguessable target under the CNAME domain, not checked yet', async () => {
    const labels = NAMES.map(label);
    for (const l of labels) expect(l).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(labels).size).toBe(NAMES.length);
    const one = (
      await asAlice(domainSettings, { params: { siteId: aliceSite }, query: { domainName: 'www.shop.test' } })
    ).json().data;
    expect(one).toMatchObject({ cname: `${label('www.shop.test')}.cname.test`, cnameStatus: 0, cnameCheckedAt: null });
  });

  it('resolves each name with real DNS queries and records whether it reaches its target', async () => {
    const names = NAMES.filter((n) => n !== 'later.shop.test' && n !== 'elsewhere.example');
    const ids = names.map((n) => domain(n).id);
    const res = await asAlice(checkDomainsCNAME, { params: { siteId: aliceSite }, body: { domainIDs: ids } });
    expect(res.statusCode).toBe(200);
    const status = Object.fromEntries(
      res.json().data.map((r: { name: string; cnameStatus: number }) => [r.name, r.cnameStatus]),
    );
    expect(status).toEqual({
      'www.shop.test': 1,
      'alias.shop.test': 1,
      '*.wild.shop.test': 1,
      'plain.shop.test': 2,
      'missing.shop.test': 2,
      'wrong.shop.test': 2,
      'loop.shop.test': 2,
    });
    expect(res.json().data[0]).toMatchObject({ id: domain('www.shop.test').id, cname: domain('www.shop.test').cname });
    expect(Date.parse(res.json().data[0].cnameCheckedAt)).toBeGreaterThan(Date.now() - 60_000);

    // Recorded: the list filters by status (any of several), in SQL.
    const verified = (
      await asAlice(listDomains, {
        params: { siteId: aliceSite },
        query: { cnameStatuses: 1, sortBy: 'name', orderBy: 'asc' },
      })
    ).json();
    expect(verified.data.map((x: { name: string }) => x.name)).toEqual([
      '*.wild.shop.test',
      'alias.shop.test',
      'www.shop.test',
    ]);
    expect(verified.total).toBe(3);
    const unchecked = (
      await asAlice(listDomains, {
        params: { siteId: aliceSite },
        query: { cnameStatuses: 0, sortBy: 'name', orderBy: 'asc' },
      })
    ).json();
    expect(unchecked.data.map((x: { name: string }) => x.name)).toEqual(['elsewhere.example', 'later.shop.test']);
    const either = (
      await asAlice(listDomains, { params: { siteId: aliceSite }, query: { cnameStatuses: [0, 2], pageSize: 100 } })
    ).json();
    expect(either.total).toBe(6);
    const badFilter = await asAlice(listDomains, { params: { siteId: aliceSite }, query: { cnameStatuses: 7 } });
    expect(badFilter.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'cnameStatuses' }] } });
  });

  it('answers 101010 naming the host when the resolver fails, and records nothing', async () => {
    const ids = [domain('later.shop.test').id, domain('elsewhere.example').id];
    const res = await asAlice(checkDomainsCNAME, { params: { siteId: aliceSite }, body: { domainIDs: ids } });
    expect(res.statusCode).toBe(502);
    // An authoritative-only server refuses a name outside its zones.
    expect(res.json()).toMatchObject({ code: 101010, extra: { name: 'elsewhere.example', reason: 'EREFUSED' } });
    const later = (
      await asAlice(domainSettings, { params: { siteId: aliceSite }, query: { domainName: 'later.shop.test' } })
    ).json().data;
    expect(later).toMatchObject({ cnameStatus: 0, cnameCheckedAt: null });
    // The same domain alone verifies.
    const alone = await asAlice(checkDomainsCNAME, {
      params: { siteId: aliceSite },
      body: { domainIDs: [domain('later.shop.test').id] },
    });
    expect(alone.json().data).toMatchObject([{ name: 'later.shop.test', cnameStatus: 1 }]);
  });

  it('times out on a resolver that never answers', async () => {
    const silent = await startSilentDns();
    const other = await createTestApp({ config: { dnsServers: [silent.address], dnsTimeoutMs: 400 } });
    try {
      const token = await signIn(other.app, 'client');
      const { productId } = await webProduct(other.app, token);
      const siteId = await operatorCalls(other.app, token).site('s', await rootId(other.app, 'user'), productId);
      const user = await signIn(other.app, 'user');
      const [domain] = (
        await send(
          other.app,
          createSimpleDomains,
          {
            params: { siteId },
            body: {
              names: ['a.test'],
              upstreams: up,
            },
          },
          { token: user },
        )
      ).json().data;
      const started = Date.now();
      const res = await send(
        other.app,
        checkDomainsCNAME,
        {
          params: { siteId },
          body: {
            domainIDs: [domain.id],
          },
        },
        { token: user },
      );
      expect(res.json()).toMatchObject({ code: 101010, extra: { name: 'a.test', reason: 'ETIMEOUT' } });
      // Ended by the check's own resolver (400 ms over its tries), not hung on the system resolver's
      // (5 s a try, 4 tries: 20 s); 5 s leaves room for a busy machine and still tells them apart.
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await other.close();
      await silent.stop();
    }
  });

  it('refuses ids outside the site and bad bodies, and keeps customers apart', async () => {
    const www = domain('www.shop.test').id;
    expect(
      (await asAlice(checkDomainsCNAME, { params: { siteId: aliceSite }, body: { domainIDs: [www, 999_999] } })).json(),
    ).toMatchObject({
      code: 101018,
    });
    expect(
      (await asBob(checkDomainsCNAME, { params: { siteId: bobSite }, body: { domainIDs: [www] } })).json(),
    ).toMatchObject({ code: 101018 });
    expect(
      (await call(checkDomainsCNAME, { params: { siteId: aliceSite }, body: { domainIDs: [www] } }, bob)).json(),
    ).toMatchObject({ code: 101018 });
    const empty = await asAlice(checkDomainsCNAME, { params: { siteId: aliceSite }, body: { domainIDs: [] } });
    expect(empty.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'domainIDs' }] } });
    const many = await asAlice(checkDomainsCNAME, {
      params: { siteId: aliceSite },
      body: {
        domainIDs: Array.from({ length: 101 }, (_, i) => i + 1),
      },
    });
    expect(many.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'domainIDs' }] } });
  });

  it("resets the operator's statuses when it changes its CNAME domain, and the targets follow", async () => {
    expect((await call(putCnameSetting, { body: { domain: 'edge.example' } })).statusCode).toBe(200);
    const www = (
      await asAlice(domainSettings, { params: { siteId: aliceSite }, query: { domainName: 'www.shop.test' } })
    ).json().data;
    expect(www).toMatchObject({
      cname: `${label('www.shop.test')}.edge.example`,
      cnameStatus: 0,
      cnameCheckedAt: null,
    });
    // Setting the same domain again changes nothing.
    expect((await call(putCnameSetting, { body: { domain: 'cname.test' } })).statusCode).toBe(200);
    await asAlice(checkDomainsCNAME, {
      params: { siteId: aliceSite },
      body: { domainIDs: [domain('www.shop.test').id] },
    });
    await call(putCnameSetting, { body: { domain: 'cname.test' } });
    expect(
      (await asAlice(domainSettings, { params: { siteId: aliceSite }, query: { domainName: 'www.shop.test' } })).json()
        .data.cnameStatus,
    ).toBe(1);
  });
});

describe('auto SSL', () => {
  it('turns on and off for domains, all or none, within the per-site limit (401004)', async () => {
    const www = domain('www.shop.test').id;
    const plain = domain('plain.shop.test').id;
    expect(
      (
        await asAlice(setDomainsAutoSSL, {
          params: { siteId: aliceSite },
          body: { domainIDs: [www, plain], autoSSL: true },
        })
      ).statusCode,
    ).toBe(200);
    const on = (await asAlice(listDomains, { params: { siteId: aliceSite }, query: { pageSize: 100 } }))
      .json()
      .data.filter((x: { autoSSL: boolean }) => x.autoSSL);
    expect(on.map((x: { id: number }) => x.id).sort()).toEqual([www, plain].sort());
    expect(
      (
        await asAlice(setDomainsAutoSSL, {
          params: { siteId: aliceSite },
          body: { domainIDs: [plain], autoSSL: false },
        })
      ).statusCode,
    ).toBe(200);

    // The odd site: fill it to the limit in one create, then one more fails whichever way.
    const names = Array.from({ length: AUTO_SSL_DOMAINS_PER_SITE_MAX }, (_, i) => `a${i}.odd.test`);
    const full = await asAlice(createDomains, {
      params: { siteId: oddSite },
      body: { domains: names.map((name) => ({ name, upstreams: up, autoSSL: true })) },
    });
    expect(full.statusCode).toBe(200);
    const extra = await asAlice(createDomains, {
      params: { siteId: oddSite },
      body: { domains: [{ name: 'b.odd.test', upstreams: up, autoSSL: true }] },
    });
    expect(extra.json()).toMatchObject({ code: 401004, extra: { limit: AUTO_SSL_DOMAINS_PER_SITE_MAX } });
    const plainOne = (
      await asAlice(createDomains, {
        params: { siteId: oddSite },
        body: { domains: [{ name: 'c.odd.test', upstreams: up }] },
      })
    ).json().data[0];
    expect(plainOne.autoSSL).toBe(false);
    const set = await asAlice(setDomainsAutoSSL, {
      params: { siteId: oddSite },
      body: { domainIDs: [plainOne.id], autoSSL: true },
    });
    expect(set.json()).toMatchObject({ code: 401004 });
    const edit = await asAlice(updateDomain, {
      params: { siteId: oddSite },
      body: { id: plainOne.id, upstreams: up, autoSSL: true },
    });
    expect(edit.json()).toMatchObject({ code: 401004 });
    // Nothing changed; re-asserting domains already on stays within the limit.
    expect(
      (await asAlice(domainSettings, { params: { siteId: oddSite }, query: { domainName: 'c.odd.test' } })).json().data
        .autoSSL,
    ).toBe(false);
    const first = full.json().data[0].id;
    expect(
      (await asAlice(setDomainsAutoSSL, { params: { siteId: oddSite }, body: { domainIDs: [first], autoSSL: true } }))
        .statusCode,
    ).toBe(200);
  });

  it('checks its body and keeps customers apart', async () => {
    const www = domain('www.shop.test').id;
    const bad = await asAlice(
      setDomainsAutoSSL,
      rawInput({
        params: { siteId: aliceSite },
        body: { domainIDs: [www], autoSSL: 'yes' },
      }),
    );
    expect(bad.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'autoSSL' }] } });
    expect(
      (
        await asBob(setDomainsAutoSSL, { params: { siteId: bobSite }, body: { domainIDs: [www], autoSSL: false } })
      ).json(),
    ).toMatchObject({
      code: 101018,
    });
    expect(
      (await asAlice(domainSettings, { params: { siteId: aliceSite }, query: { domainName: 'www.shop.test' } })).json()
        .data.autoSSL,
    ).toBe(true);
  });
});

describe('port map', () => {
  it('is set with the scheme and kept when left out', async () => {
    const www = domain('www.shop.test').id;
    expect(
      (
        await asAlice(setDomainScheme, {
          params: { siteId: aliceSite, domainId: www },
          body: { scheme: 0, portMap: true },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await asAlice(domainSettings, { params: { siteId: aliceSite }, query: { domainName: 'www.shop.test' } })).json()
        .data,
    ).toMatchObject({
      scheme: 0,
      portMap: true,
    });
    // The default zone listens on 80 (http) and 443 (https): either scheme maps its own listeners.
    expect(
      (await asAlice(setDomainScheme, { params: { siteId: aliceSite, domainId: www }, body: { scheme: 1 } }))
        .statusCode,
    ).toBe(200);
    expect(
      (await asAlice(domainSettings, { params: { siteId: aliceSite }, query: { domainName: 'www.shop.test' } })).json()
        .data,
    ).toMatchObject({
      scheme: 1,
      portMap: true,
    });
    const bad = await asAlice(
      setDomainScheme,
      rawInput({
        params: { siteId: aliceSite, domainId: www },
        body: { scheme: 1, portMap: 1 },
      }),
    );
    expect(bad.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'portMap' }] } });
    expect(
      (
        await asBob(setDomainScheme, {
          params: { siteId: bobSite, domainId: www },
          body: { scheme: 0, portMap: false },
        })
      ).json(),
    ).toMatchObject({
      code: 101018,
    });
  });

  it('answers 401003 naming the port when a mapped listener is the other protocol’s well-known port', async () => {
    // The odd zone serves HTTPS on port 80.
    const ports = (await call(listZonePorts, { params: { zoneID: oddZone } })).json().data;
    const port80 = ports.find((p: { port: number }) => p.port === 80);
    expect((await call(deleteZonePorts, { params: { zoneID: oddZone }, body: { ids: [port80!.id] } })).statusCode).toBe(
      200,
    );
    const add = await call(createZonePorts, {
      params: { zoneID: oddZone },
      body: {
        ports: [{ port: 80, portType: 'https' }],
      },
    });
    expect(add.statusCode).toBe(200);

    const c = (
      await asAlice(domainSettings, { params: { siteId: oddSite }, query: { domainName: 'c.odd.test' } })
    ).json().data;
    const https = await asAlice(setDomainScheme, {
      params: { siteId: oddSite, domainId: c.id },
      body: { scheme: 1, portMap: true },
    });
    expect(https.statusCode).toBe(400);
    expect(https.json().code).toBe(401003);
    expect(https.json().extra).toEqual({ port: 80, portType: 'https' });
    // Over http only the http listeners are mapped, and the zone has none on 443.
    expect(
      (
        await asAlice(setDomainScheme, {
          params: { siteId: oddSite, domainId: c.id },
          body: { scheme: 0, portMap: true },
        })
      ).statusCode,
    ).toBe(200);
    const edit = await asAlice(updateDomain, {
      params: { siteId: oddSite },
      body: { id: c.id, upstreams: up, scheme: 1 },
    });
    expect(edit.json().code).toBe(401003);
    const create = await asAlice(createDomains, {
      params: { siteId: oddSite },
      body: { domains: [{ name: 'd.odd.test', upstreams: up, scheme: 1, portMap: true }] },
    });
    expect(create.json().code).toBe(401003);
    expect(
      (await asAlice(domainSettings, { params: { siteId: oddSite }, query: { domainName: 'c.odd.test' } })).json().data,
    ).toMatchObject({
      scheme: 0,
      portMap: true,
    });
  });
});
