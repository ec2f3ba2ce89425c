import type { AnyRoute } from '@rampart/contract';
import {
  addAntiHeaders,
  addAntiReferers,
  addHeaderRules,
  dataPlaneSchema,
  deleteAntiHeaders,
  deleteAntiReferers,
  deleteHeaderRules,
  listAntiHeaders,
  listAntiReferers,
  listHeaderRules,
  updateAntiHeader,
  updateAntiReferer,
  updateHeaderRule,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldNames, rawInput, sendAs, type Token } from './helpers/call.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Header blocking (user/site/{id}/firewall/setting/headers …) and a domain's anti-referer and
// anti-header lists (user/site/{id}/domain/{domainId}/antiReferers, antiHeaders …).

let t: TestApp;
let f: SiteFixture;
let siteId: number;
let otherSiteId: number;
let www: number;
let api: number;
let theirDomain: number;

const as = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, f.user, route, ...args);
const theyDo = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, f.other, route, ...args);
const header = { urlRegex: '.*', header: 'X-Scanner', valueRegex: 'sqlmap|nikto', blockType: 10 as const };
const referer = {
  urlRegex: '\\.(png|jpg)$',
  mode: 'allow' as const,
  referers: ['Shop.Example', '*.shop.example'],
  blockType: 10 as const,
};

async function plane() {
  const { dataPlane } = await f.snapshot();
  const parsed = dataPlaneSchema.safeParse(dataPlane);
  expect(parsed.error).toBeUndefined();
  return dataPlane;
}
const domainOf = async (id: number) => (await plane()).domains.find((d) => d.id === id);

beforeAll(async () => {
  t = await createTestApp();
  f = await siteFixture(t, 'blog');
  ({ siteId, otherSiteId } = f);
  [www, api] = (await f.addDomains(['www.shop.example', 'api.shop.example'])) as [number, number];
  [theirDomain] = (await f.addDomains(['www.blog.example'], 'other')) as [number];
});
afterAll(async () => t.close());

describe('header rules of the site', () => {
  it('adds (enabled, "matches" by default), lists, edits and deletes; enabled ones reach the nodes', async () => {
    const added = await as(addHeaderRules, {
      params: { siteId },
      body: {
        data: [header, { ...header, header: 'Accept-Language', match: 'absent', valueRegex: 'x', blockType: 11 }],
      },
    });
    expect(added.statusCode).toBe(200);
    const [first, second] = added.json().data;
    expect(first).toMatchObject({
      siteID: siteId,
      header: 'X-Scanner',
      match: 'matches',
      enabled: true,
      blockType: 10,
    });
    // "absent" keeps no value pattern.
    expect(second).toMatchObject({ header: 'Accept-Language', match: 'absent', valueRegex: '' });
    expect((await as(listHeaderRules, { params: { siteId } })).json().total).toBe(2);

    let p = await plane();
    expect(p.domains.filter((d) => d.id !== theirDomain).every((d) => d.firewallId === siteId)).toBe(true);
    expect(p.firewalls[0]?.headers).toEqual([
      { id: first.id, url: '.*', name: 'x-scanner', value: 'sqlmap|nikto', action: 'deny' },
      { id: second.id, url: '.*', name: 'accept-language', value: null, action: 'drop' },
    ]);

    await as(updateHeaderRule, { params: { siteId }, body: { id: first.id, ...header, enabled: false } });
    p = await plane();
    expect(p.firewalls[0]?.headers.map((r) => r.id)).toEqual([second.id]);

    await as(deleteHeaderRules, { params: { siteId }, body: { ids: [first.id, second.id] } });
    expect((await as(listHeaderRules, { params: { siteId } })).json()).toEqual({ data: [], total: 0 });
    expect((await plane()).firewalls).toEqual([]);
  });

  it.each([
    [{ ...header, header: '' }, 'data.0.header'],
    [{ ...header, header: 'X_Under' }, 'data.0.header'],
    [{ ...header, header: 'X Space' }, 'data.0.header'],
    [{ ...header, header: 'x'.repeat(65) }, 'data.0.header'],
    [{ ...header, valueRegex: '' }, 'data.0.valueRegex'],
    [{ ...header, valueRegex: '(bad' }, 'data.0.valueRegex'],
    [{ ...header, valueRegex: '(a+)+$' }, 'data.0.valueRegex'],
    [{ ...header, valueRegex: 'x'.repeat(257) }, 'data.0.valueRegex'],
    [{ ...header, match: 'present' }, 'data.0.match'],
    [{ ...header, urlRegex: '' }, 'data.0.urlRegex'],
    [{ ...header, blockType: 12 }, 'data.0.blockType'],
    [{ ...header, blockType: 1 }, 'data.0.blockType'],
    [{ ...header, enabled: 1 }, 'data.0.enabled'],
  ])('refuses %j with 101003 naming %s', async (item, field) => {
    const res = await as(addHeaderRules, rawInput({ params: { siteId }, body: { data: [item] } }));
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
  });
});

describe("a domain's anti-referer list", () => {
  it('adds (hosts in lower case, duplicates dropped), lists, edits and deletes; only its domain carries it', async () => {
    const params = { siteId, domainId: www };
    const added = await as(addAntiReferers, {
      params,
      body: { data: [{ ...referer, referers: [...referer.referers, 'shop.example'] }] },
    });
    expect(added.statusCode).toBe(200);
    const [rule] = added.json().data;
    expect(rule).toMatchObject({
      siteID: siteId,
      domainID: www,
      mode: 'allow',
      referers: ['shop.example', '*.shop.example'],
      allowEmpty: true,
      enabled: true,
    });
    expect((await as(listAntiReferers, { params })).json()).toMatchObject({ total: 1, data: [{ id: rule.id }] });
    // The other domain's list is its own.
    expect((await as(listAntiReferers, { params: { siteId, domainId: api } })).json()).toEqual({ data: [], total: 0 });

    // The site has no firewall rules: the domain gets an empty firewall entry to run its lists in.
    let p = await plane();
    const mine = p.domains.find((d) => d.id === www);
    expect(mine?.firewallId).toBe(siteId);
    expect(mine?.access).toEqual({
      referers: [
        {
          id: rule.id,
          url: referer.urlRegex,
          mode: 'allow',
          hosts: ['shop.example', '*.shop.example'],
          allowEmpty: true,
          action: 'deny',
        },
      ],
      headers: [],
    });
    expect(p.firewalls).toEqual([
      { id: siteId, whitelist: [], blacklist: [], userAgents: [], headers: [], intervals: [], rates: [], antiCC: [] },
    ]);
    const other = p.domains.find((d) => d.id === api);
    expect(other?.firewallId).toBeNull();
    expect(other && 'access' in other).toBe(false);

    const edited = await as(updateAntiReferer, {
      params,
      body: { id: rule.id, ...referer, mode: 'deny', allowEmpty: false, blockType: 11 },
    });
    expect(edited.json().data).toMatchObject({ mode: 'deny', allowEmpty: false, blockType: 11 });
    expect((await domainOf(www))?.access?.referers[0]).toMatchObject({
      mode: 'deny',
      allowEmpty: false,
      action: 'drop',
    });

    await as(updateAntiReferer, { params, body: { id: rule.id, ...referer, enabled: false } });
    p = await plane();
    expect(p.domains.find((d) => d.id === www)?.firewallId).toBeNull();
    expect(p.firewalls).toEqual([]);

    expect((await as(deleteAntiReferers, { params, body: { ids: [rule.id] } })).statusCode).toBe(200);
    expect((await as(listAntiReferers, { params })).json()).toEqual({ data: [], total: 0 });
  });

  it.each([
    [{ ...referer, referers: [] }, 'data.0.referers'],
    [{ ...referer, referers: ['not a host'] }, 'data.0.referers.0'],
    [{ ...referer, referers: ['example.com', 'http://x.example'] }, 'data.0.referers.1'],
    [{ ...referer, referers: ['*.*.example.com'] }, 'data.0.referers.0'],
    [{ ...referer, referers: ['localhost'] }, 'data.0.referers.0'],
    [{ ...referer, referers: Array.from({ length: 101 }, (_, i) => `h${i}.example.com`) }, 'data.0.referers'],
    [{ ...referer, mode: 'block' }, 'data.0.mode'],
    [{ ...referer, allowEmpty: 'yes' }, 'data.0.allowEmpty'],
    [{ ...referer, urlRegex: '(a+)+' }, 'data.0.urlRegex'],
    [{ ...referer, blockType: 12 }, 'data.0.blockType'],
  ])('refuses %j with 101003 naming %s', async (item, field) => {
    const res = await as(addAntiReferers, rawInput({ params: { siteId, domainId: www }, body: { data: [item] } }));
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
    expect((await as(listAntiReferers, { params: { siteId, domainId: www } })).json().total).toBe(0);
  });

  it('refuses more than 20 rules per domain with 101029, all or none', async () => {
    const params = { siteId, domainId: api };
    const twenty = Array.from({ length: 20 }, () => referer);
    expect((await as(addAntiReferers, { params, body: { data: twenty } })).statusCode).toBe(200);
    const over = await as(addAntiReferers, { params, body: { data: [referer] } });
    expect(over.json().code).toBe(101029);
    const all = (await as(listAntiReferers, { params, query: { pageSize: 50 } })).json();
    expect(all.total).toBe(20);
    await as(deleteAntiReferers, { params, body: { ids: all.data.map((r: { id: number }) => r.id) } });
  });
});

describe("a domain's anti-header list", () => {
  it('adds, edits and deletes; travels with the site firewall entry when the site has rules', async () => {
    const params = { siteId, domainId: api };
    const [siteRule] = (await as(addHeaderRules, { params: { siteId }, body: { data: [header] } })).json().data;
    const [rule] = (
      await as(addAntiHeaders, {
        params,
        body: { data: [{ ...header, header: 'Referer', match: 'absent', valueRegex: '' }] },
      })
    ).json().data;
    expect(rule).toMatchObject({ siteID: siteId, domainID: api, header: 'Referer', match: 'absent', valueRegex: '' });
    const p = await plane();
    expect(p.firewalls.map((fw) => fw.id)).toEqual([siteId]);
    expect(p.domains.find((d) => d.id === api)?.access).toEqual({
      referers: [],
      headers: [{ id: rule.id, url: '.*', name: 'referer', value: null, action: 'deny' }],
    });
    expect(p.domains.find((d) => d.id === www)?.access).toBeUndefined();

    const edited = await as(updateAntiHeader, { params, body: { id: rule.id, ...header, header: 'X-Other' } });
    expect(edited.json().data).toMatchObject({ header: 'X-Other', match: 'matches', valueRegex: 'sqlmap|nikto' });
    await as(deleteAntiHeaders, { params, body: { ids: [rule.id] } });
    await as(deleteHeaderRules, { params: { siteId }, body: { ids: [siteRule.id] } });
    expect((await as(listAntiHeaders, { params })).json().total).toBe(0);
  });

  it.each([
    [{ ...header, header: 'Bad:Name' }, 'data.0.header'],
    [{ ...header, valueRegex: '[' }, 'data.0.valueRegex'],
    [{ ...header, blockType: 3 }, 'data.0.blockType'],
  ])('refuses %j with 101003 naming %s', async (item, field) => {
    const res = await as(addAntiHeaders, rawInput({ params: { siteId, domainId: api }, body: { data: [item] } }));
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
  });
});

describe('isolation', () => {
  it("never reads, changes or binds another customer's lists, and a mixed id list changes nothing", async () => {
    const theirs = { siteId: otherSiteId, domainId: theirDomain };
    const [theirReferer] = (await theyDo(addAntiReferers, { params: theirs, body: { data: [referer] } })).json().data;
    const [theirHeader] = (await theyDo(addAntiHeaders, { params: theirs, body: { data: [header] } })).json().data;
    const mine = { siteId, domainId: www };
    const [myReferer] = (await as(addAntiReferers, { params: mine, body: { data: [referer] } })).json().data;
    const [myHeader] = (await as(addAntiHeaders, { params: mine, body: { data: [header] } })).json().data;

    // Their site, or their domain under my site: refused as missing.
    expect((await as(listAntiReferers, { params: theirs })).json().code).toBe(101018);
    expect((await as(listAntiHeaders, { params: { siteId, domainId: theirDomain } })).json().code).toBe(101018);
    expect(
      (await as(addAntiReferers, { params: { siteId, domainId: theirDomain }, body: { data: [referer] } })).json().code,
    ).toBe(101018);
    expect((await as(addAntiHeaders, { params: theirs, body: { data: [header] } })).json().code).toBe(101018);
    // Their rule ids through my own domain: as missing.
    expect((await as(updateAntiReferer, { params: mine, body: { id: theirReferer.id, ...referer } })).json().code).toBe(
      101018,
    );
    expect((await as(updateAntiHeader, { params: mine, body: { id: theirHeader.id, ...header } })).json().code).toBe(
      101018,
    );
    // A rule of the other list, or of another of my domains, is not one of this list.
    expect((await as(updateAntiReferer, { params: mine, body: { id: myHeader.id, ...referer } })).json().code).toBe(
      101018,
    );
    expect(
      (await as(deleteAntiReferers, { params: { siteId, domainId: api }, body: { ids: [myReferer.id] } })).json().code,
    ).toBe(101018);
    // Mixed own and foreign ids: refused whole.
    expect(
      (await as(deleteAntiReferers, { params: mine, body: { ids: [myReferer.id, theirReferer.id] } })).json().code,
    ).toBe(101018);
    expect(
      (await as(deleteAntiHeaders, { params: mine, body: { ids: [myHeader.id, theirHeader.id] } })).json().code,
    ).toBe(101018);
    expect((await as(listAntiReferers, { params: mine })).json().data.map((r: { id: number }) => r.id)).toEqual([
      myReferer.id,
    ]);
    expect((await as(listAntiHeaders, { params: mine })).json().total).toBe(1);
    // Theirs are untouched.
    expect((await theyDo(listAntiReferers, { params: theirs })).json().data).toMatchObject([
      { id: theirReferer.id, referers: ['shop.example', '*.shop.example'] },
    ]);
    expect((await theyDo(listAntiHeaders, { params: theirs })).json().data).toMatchObject([{ id: theirHeader.id }]);
    await as(deleteAntiReferers, { params: mine, body: { ids: [myReferer.id] } });
    await as(deleteAntiHeaders, { params: mine, body: { ids: [myHeader.id] } });
  });

  it("refuses another customer's site header rules as missing ones", async () => {
    const [theirs] = (
      await theyDo(addHeaderRules, { params: { siteId: otherSiteId }, body: { data: [header] } })
    ).json().data;
    const [mine] = (await as(addHeaderRules, { params: { siteId }, body: { data: [header] } })).json().data;
    expect((await as(listHeaderRules, { params: { siteId: otherSiteId } })).json().code).toBe(101018);
    expect((await as(updateHeaderRule, { params: { siteId }, body: { id: theirs.id, ...header } })).json().code).toBe(
      101018,
    );
    expect((await as(deleteHeaderRules, { params: { siteId }, body: { ids: [mine.id, theirs.id] } })).json().code).toBe(
      101018,
    );
    expect((await as(listHeaderRules, { params: { siteId } })).json().total).toBe(1);
    expect((await theyDo(listHeaderRules, { params: { siteId: otherSiteId } })).json().total).toBe(1);
    await as(deleteHeaderRules, { params: { siteId }, body: { ids: [mine.id] } });
  });
});
