import type { AnyRoute } from '@rampart/contract';
import {
  addBlacklistRules,
  addWhitelistRules,
  dataPlaneSchema,
  deleteBlacklistRules,
  deleteWhitelistRules,
  FIREWALL_LIST_RULES_PER_SITE,
  listBlacklistRules,
  listWhitelistRules,
  updateBlacklistRule,
  updateWhitelistRule,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldNames, rawInput, sendAs, type Token } from './helpers/call.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The site firewall's whitelist and blacklist (user/site/{id}/firewall/setting/whitelists …): the
// calls, their validation, tenant isolation, and what reaches the nodes.

let t: TestApp;
let f: SiteFixture;
let siteId: number;
let otherSiteId: number;

const as = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, f.user, route, ...args);
const asOther = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, f.other, route, ...args);

const GET_ONLY = { get: true, post: false, put: false, delete: false, head: false, patch: false, options: false };
const rule = { ips: ['203.0.113.7', '198.51.100.0/24'], url: '.*', methods: { get: true } };

async function plane() {
  const { dataPlane } = await f.snapshot();
  expect(dataPlaneSchema.safeParse(dataPlane).success).toBe(true);
  return dataPlane;
}

beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t, 'blog');
  ({ siteId, otherSiteId } = f);
  await f.addDomains(['www.shop.example']);
  await f.addDomains(['www.blog.example'], 'other');
});
afterAll(async () => t.close());

describe('whitelist and blacklist calls', () => {
  it('start empty, and a site without rules sends no firewall to the nodes', async () => {
    const res = await as(listWhitelistRules, { params: { siteId } });
    expect(res.json()).toEqual({ data: [], total: 0 });
    const p = await plane();
    expect(p.firewalls).toEqual([]);
    expect(p.domains.every((d) => d.firewallId === null)).toBe(true);
  });

  it('adds, lists (newest first, paged), edits and deletes whitelist rules', async () => {
    const added = await as(addWhitelistRules, {
      params: { siteId },
      body: { data: [rule, { ...rule, url: 'https://www.shop.example:1234', memo: 'custom port' }] },
    });
    expect(added.statusCode).toBe(200);
    const [first, second] = added.json().data;
    expect(first).toMatchObject({ siteID: siteId, ips: rule.ips, url: '.*', methods: GET_ONLY, memo: '' });
    const page1 = (await as(listWhitelistRules, { params: { siteId }, query: { page: 1, pageSize: 1 } })).json();
    expect(page1.total).toBe(2);
    expect(page1.data.map((r: { id: number }) => r.id)).toEqual([second.id]);

    const edited = await as(updateWhitelistRule, {
      params: { siteId },
      body: { id: first.id, ips: ['::1'], url: 'www.shop.example', methods: { post: true }, memo: 'edited' },
    });
    expect(edited.json().data).toMatchObject({ id: first.id, ips: ['::1'], methods: { get: false, post: true } });

    expect(
      (await as(deleteWhitelistRules, { params: { siteId }, body: { ids: [first.id, second.id] } })).statusCode,
    ).toBe(200);
    expect((await as(listWhitelistRules, { params: { siteId } })).json().total).toBe(0);
  });

  it('sends the rules to the nodes as merged IP ranges, on the domains of the site only', async () => {
    const white = (
      await as(addWhitelistRules, { params: { siteId }, body: { data: [{ ...rule, ips: ['10.0.0.1', '::1'] }] } })
    ).json().data[0];
    const black = (
      await as(addBlacklistRules, {
        params: { siteId },
        body: {
          data: [
            { ...rule, blockType: 10, methods: { get: true, post: true } },
            { ...rule, ips: ['1.1.1.1-1.1.1.9', '1.1.1.10'], blockType: 11 },
          ],
        },
      })
    ).json().data;
    const p = await plane();
    expect(p.domains.find((d) => d.name === 'www.shop.example')?.firewallId).toBe(siteId);
    expect(p.domains.find((d) => d.name === 'www.blog.example')?.firewallId).toBeNull();
    expect(p.firewalls).toEqual([
      {
        id: siteId,
        whitelist: [
          {
            id: white.id,
            url: '.*',
            methods: ['GET'],
            v4: [['0a000001', '0a000001']],
            v6: [['00000000000000000000000000000001', '00000000000000000000000000000001']],
          },
        ],
        blacklist: [
          {
            id: black[0].id,
            url: '.*',
            methods: ['GET', 'POST'],
            v4: [
              ['c6336400', 'c63364ff'],
              ['cb007107', 'cb007107'],
            ],
            v6: [],
            action: 'deny',
          },
          { id: black[1].id, url: '.*', methods: ['GET'], v4: [['01010101', '0101010a']], v6: [], action: 'drop' },
        ],
        userAgents: [],
        headers: [],
        intervals: [],
        rates: [],
        antiCC: [],
      },
    ]);
    await as(deleteWhitelistRules, { params: { siteId }, body: { ids: [white.id] } });
    await as(deleteBlacklistRules, { params: { siteId }, body: { ids: black.map((r: { id: number }) => r.id) } });
    expect((await plane()).firewalls).toEqual([]);
  });

  it('edits a blacklist rule, mode included', async () => {
    const [created] = (
      await as(addBlacklistRules, { params: { siteId }, body: { data: [{ ...rule, blockType: 10 }] } })
    ).json().data;
    expect(created.blockType).toBe(10);
    const res = await as(updateBlacklistRule, { params: { siteId }, body: { id: created.id, ...rule, blockType: 11 } });
    expect(res.json().data).toMatchObject({ id: created.id, blockType: 11 });
    expect((await as(listBlacklistRules, { params: { siteId } })).json().data[0].blockType).toBe(11);
    await as(deleteBlacklistRules, { params: { siteId }, body: { ids: [created.id] } });
  });
});

describe('validation', () => {
  it.each([
    [{ ...rule, ips: [] }, 'data.0.ips'],
    [{ ...rule, ips: ['1.2.3.4', '1.2.3.4'] }, 'data.0.ips.1'],
    [{ ...rule, ips: ['1.2.3.4', 'not-an-ip'] }, 'data.0.ips.1'],
    [{ ...rule, ips: ['1.2.3.4 '] }, 'data.0.ips.0'],
    [{ ...rule, url: '' }, 'data.0.url'],
    [{ ...rule, url: '(a+)+$' }, 'data.0.url'],
    [{ ...rule, url: '(unclosed' }, 'data.0.url'],
    [{ ...rule, url: 'a'.repeat(257) }, 'data.0.url'],
    [{ ...rule, methods: {} }, 'data.0.methods'],
    [{ ...rule, methods: { get: false } }, 'data.0.methods'],
    [{ ...rule, methods: { get: true, trace: true } }, 'data.0.methods'],
    [{ ...rule, memo: 'm'.repeat(257) }, 'data.0.memo'],
  ])('refuses the whitelist rule %j with 101003 naming %s', async (item, field) => {
    const res = await as(addWhitelistRules, rawInput({ params: { siteId }, body: { data: [item] } }));
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
  });

  it('names the runaway pattern and the duplicate in the reply', async () => {
    const res = await as(
      addWhitelistRules,
      rawInput({ params: { siteId }, body: { data: [{ ...rule, url: '(a|a)*' }] } }),
    );
    expect(res.json().extra.fields[0]).toMatchObject({ field: 'data.0.url', key: 'runaway' });
    const dup = await as(
      addWhitelistRules,
      rawInput({ params: { siteId }, body: { data: [{ ...rule, ips: ['::1', '0::1'] }] } }),
    );
    expect(dup.json().extra.fields[0]).toMatchObject({ field: 'data.0.ips.1', key: 'duplicateIP' });
    const long = await as(
      addWhitelistRules,
      rawInput({ params: { siteId }, body: { data: [{ ...rule, url: 'a'.repeat(257) }] } }),
    );
    expect(long.json().extra.fields[0]).toMatchObject({ key: 'tooLong', message: expect.stringContaining('256') });
  });

  it.each([[6], [9], [13], [0], ['10']])('refuses blacklist blockType %j', async (blockType) => {
    const res = await as(addBlacklistRules, rawInput({ params: { siteId }, body: { data: [{ ...rule, blockType }] } }));
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual(['data.0.blockType']);
  });

  it('refuses 5001 IPs with max5000IPs, and keeps nothing of a call with one bad rule', async () => {
    const ips = Array.from({ length: 5001 }, (_, i) => `10.${i >> 8}.${i & 255}.1`);
    const res = await as(addWhitelistRules, rawInput({ params: { siteId }, body: { data: [{ ...rule, ips }] } }));
    expect(res.json().extra.fields[0]).toMatchObject({ field: 'data.0.ips', key: 'max5000IPs' });
    const mixed = await as(
      addWhitelistRules,
      rawInput({ params: { siteId }, body: { data: [rule, { ...rule, url: '' }] } }),
    );
    expect(mixed.json().code).toBe(101003);
    expect((await as(listWhitelistRules, { params: { siteId } })).json().total).toBe(0);
  });

  it(`refuses more than ${FIREWALL_LIST_RULES_PER_SITE} rules of a kind per site with 101029, all or none`, async () => {
    const many = Array.from({ length: FIREWALL_LIST_RULES_PER_SITE - 1 }, () => rule);
    expect((await as(addWhitelistRules, { params: { siteId }, body: { data: many } })).statusCode).toBe(200);
    const over = await as(addWhitelistRules, { params: { siteId }, body: { data: [rule, rule] } });
    expect(over.json().code).toBe(101029);
    expect((await as(listWhitelistRules, { params: { siteId } })).json().total).toBe(FIREWALL_LIST_RULES_PER_SITE - 1);
    // The other list has its own limit.
    expect(
      (
        await as(addBlacklistRules, {
          params: { siteId },
          body: {
            data: [
              { ...rule, blockType: 10 },
              { ...rule, blockType: 10 },
            ],
          },
        })
      ).statusCode,
    ).toBe(200);
    const ids = (await as(listWhitelistRules, { params: { siteId }, query: { pageSize: 100 } }))
      .json()
      .data.map((r: { id: number }) => r.id);
    await as(deleteWhitelistRules, { params: { siteId }, body: { ids } });
    const black = (await as(listBlacklistRules, { params: { siteId } })).json().data.map((r: { id: number }) => r.id);
    await as(deleteBlacklistRules, { params: { siteId }, body: { ids: black } });
  });
});

describe('isolation', () => {
  it("never lists, edits or deletes another customer's rules, and a mixed id list changes nothing", async () => {
    const [theirs] = (
      await asOther(addBlacklistRules, {
        params: { siteId: otherSiteId },
        body: { data: [{ ...rule, blockType: 10 }] },
      })
    ).json().data;
    const [mine] = (
      await as(addBlacklistRules, { params: { siteId }, body: { data: [{ ...rule, blockType: 11 }] } })
    ).json().data;

    expect((await as(listBlacklistRules, { params: { siteId: otherSiteId } })).json().code).toBe(101018);
    expect(
      (
        await as(addBlacklistRules, { params: { siteId: otherSiteId }, body: { data: [{ ...rule, blockType: 10 }] } })
      ).json().code,
    ).toBe(101018);
    expect(
      (await as(updateBlacklistRule, { params: { siteId }, body: { id: theirs.id, ...rule, blockType: 11 } })).json()
        .code,
    ).toBe(101018);
    expect(
      (await as(deleteBlacklistRules, { params: { siteId }, body: { ids: [mine.id, theirs.id] } })).json().code,
    ).toBe(101018);
    // A blacklist id is not a whitelist id.
    expect((await as(deleteWhitelistRules, { params: { siteId }, body: { ids: [mine.id] } })).json().code).toBe(101018);

    expect((await as(listBlacklistRules, { params: { siteId } })).json().data.map((r: { id: number }) => r.id)).toEqual(
      [mine.id],
    );
    const theirList = (await asOther(listBlacklistRules, { params: { siteId: otherSiteId } })).json().data;
    expect(theirList).toMatchObject([{ id: theirs.id, blockType: 10 }]);
    await as(deleteBlacklistRules, { params: { siteId }, body: { ids: [mine.id] } });
    await asOther(deleteBlacklistRules, { params: { siteId: otherSiteId }, body: { ids: [theirs.id] } });
  });
});
