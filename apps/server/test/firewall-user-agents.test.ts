import type { AnyRoute } from '@rampart/contract';
import {
  addUserAgentRules,
  dataPlaneSchema,
  deleteUserAgentRules,
  listUserAgentRules,
  updateUserAgentRule,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldNames, rawInput, sendAs, type Token } from './helpers/call.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The site firewall's user-agent rules (user/site/{id}/firewall/setting/userAgents …).

let t: TestApp;
let f: SiteFixture;
let siteId: number;
let otherSiteId: number;

const as = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, f.user, route, ...args);
const rule = { urlRegex: '.*', userAgentRegex: 'curl|python-requests', blockType: 10 as const };

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
});
afterAll(async () => t.close());

describe('user-agent rules', () => {
  it('adds (enabled by default), lists, edits and deletes; only enabled rules reach the nodes', async () => {
    const added = await as(addUserAgentRules, {
      params: { siteId },
      body: { data: [rule, { ...rule, userAgentRegex: 'Mozilla/5\\.0 \\(compatible; BadBot', blockType: 11 }] },
    });
    expect(added.statusCode).toBe(200);
    const [first, second] = added.json().data;
    expect(first).toMatchObject({
      siteID: siteId,
      urlRegex: '.*',
      userAgentRegex: rule.userAgentRegex,
      blockType: 10,
      enabled: true,
    });
    expect((await as(listUserAgentRules, { params: { siteId } })).json().total).toBe(2);

    let p = await plane();
    expect(p.domains[0]?.firewallId).toBe(siteId);
    expect(p.firewalls[0]?.userAgents).toEqual([
      { id: first.id, url: '.*', userAgent: 'curl|python-requests', action: 'deny' },
      { id: second.id, url: '.*', userAgent: 'Mozilla/5\\.0 \\(compatible; BadBot', action: 'drop' },
    ]);

    const off = await as(updateUserAgentRule, { params: { siteId }, body: { id: first.id, ...rule, enabled: false } });
    expect(off.json().data.enabled).toBe(false);
    p = await plane();
    expect(p.firewalls[0]?.userAgents.map((r) => r.id)).toEqual([second.id]);

    await as(updateUserAgentRule, { params: { siteId }, body: { id: second.id, ...rule, enabled: false } });
    p = await plane();
    expect(p.firewalls).toEqual([]);
    expect(p.domains[0]?.firewallId).toBeNull();

    await as(deleteUserAgentRules, { params: { siteId }, body: { ids: [first.id, second.id] } });
    expect((await as(listUserAgentRules, { params: { siteId } })).json()).toEqual({ data: [], total: 0 });
  });

  it.each([
    [{ ...rule, userAgentRegex: '' }, 'data.0.userAgentRegex'],
    [{ ...rule, userAgentRegex: 'bot\u0001' }, 'data.0.userAgentRegex'],
    [{ ...rule, userAgentRegex: '(bot' }, 'data.0.userAgentRegex'],
    [{ ...rule, userAgentRegex: '(\\w+\\s?)+$' }, 'data.0.userAgentRegex'],
    [{ ...rule, userAgentRegex: 'x'.repeat(257) }, 'data.0.userAgentRegex'],
    [{ ...rule, urlRegex: '' }, 'data.0.urlRegex'],
    [{ ...rule, blockType: 7 }, 'data.0.blockType'],
    [{ ...rule, blockType: 0 }, 'data.0.blockType'],
    [{ ...rule, enabled: 'yes' }, 'data.0.enabled'],
  ])('refuses %j with 101003 naming %s', async (item, field) => {
    const res = await as(addUserAgentRules, rawInput({ params: { siteId }, body: { data: [item] } }));
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
  });

  it("refuses another customer's site and rules as missing ones", async () => {
    const [theirs] = (
      await sendAs(t.app, f.other, addUserAgentRules, { params: { siteId: otherSiteId }, body: { data: [rule] } })
    ).json().data;
    expect((await as(listUserAgentRules, { params: { siteId: otherSiteId } })).json().code).toBe(101018);
    expect((await as(updateUserAgentRule, { params: { siteId }, body: { id: theirs.id, ...rule } })).json().code).toBe(
      101018,
    );
    expect((await as(deleteUserAgentRules, { params: { siteId }, body: { ids: [theirs.id] } })).json().code).toBe(
      101018,
    );
    const still = (await sendAs(t.app, f.other, listUserAgentRules, { params: { siteId: otherSiteId } })).json();
    expect(still.data).toMatchObject([{ id: theirs.id, enabled: true }]);
  });
});
