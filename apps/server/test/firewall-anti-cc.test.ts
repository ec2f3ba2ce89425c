import type { AnyRoute } from '@rampart/contract';
import {
  addAntiCCRules,
  dataPlaneSchema,
  deleteAntiCCRules,
  deleteIntervalLimits,
  listAntiCCRules,
  updateAntiCCRule,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldNames, rawInput, sendAs, type Token } from './helpers/call.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The site firewall's anti-CC rules (user/site/{id}/firewall/setting/antiCCs, antiCC).

let t: TestApp;
let f: SiteFixture;
let siteId: number;
let otherSiteId: number;

const as = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, f.user, route, ...args);
const rule = { urlRegex: 'https?:\\/\\/www\\.shop\\.example\\/api\\/', blockType: 1 as const };

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

describe('anti-CC rules', () => {
  it('add with their defaults, list, edit and delete; enabled ones reach the nodes with the challenge keys', async () => {
    const added = await as(addAntiCCRules, {
      params: { siteId },
      body: {
        data: [
          rule,
          {
            urlRegex: '\\/login',
            frequency: 'full',
            blockType: 3,
            errorSeconds: 600,
            errorTimes: 3,
            errorBlockType: 11,
            memo: 'login',
          },
        ],
      },
    });
    expect(added.statusCode).toBe(200);
    const [first, second] = added.json().data;
    expect(first).toMatchObject({
      siteID: siteId,
      urlRegex: rule.urlRegex,
      frequency: 'custom',
      seconds: 60,
      times: 30,
      blockType: 1,
      errorSeconds: 60,
      errorTimes: 5,
      errorBlockType: 10,
      enabled: true,
      memo: '',
    });
    expect((await as(listAntiCCRules, { params: { siteId } })).json().total).toBe(2);

    const p = await plane();
    expect(p.firewalls[0]?.antiCC).toEqual([
      {
        id: first.id,
        url: rule.urlRegex,
        seconds: 60,
        times: 30,
        challenge: 'shield',
        errorSeconds: 60,
        errorTimes: 5,
        errorAction: 'deny',
      },
      // Full verification travels as times 0.
      {
        id: second.id,
        url: '\\/login',
        seconds: 60,
        times: 0,
        challenge: 'click',
        errorSeconds: 600,
        errorTimes: 3,
        errorAction: 'drop',
      },
    ]);
    expect(p.challenge.keys).toHaveLength(3);

    const edited = await as(updateAntiCCRule, {
      params: { siteId },
      body: { id: first.id, ...rule, blockType: 4, times: 100, enabled: false },
    });
    expect(edited.json().data).toMatchObject({ id: first.id, blockType: 4, times: 100, enabled: false });
    expect((await plane()).firewalls[0]?.antiCC.map((r) => r.id)).toEqual([second.id]);

    await as(deleteAntiCCRules, { params: { siteId }, body: { ids: [first.id, second.id] } });
    const after = await plane();
    expect(after.firewalls).toEqual([]);
    expect(after.challenge.keys).toEqual([]);
  });

  it.each([
    [{ ...rule, blockType: 7 }, 'data.0.blockType', 'invalidValue'],
    [{ ...rule, blockType: 10 }, 'data.0.blockType', 'invalidValue'],
    [{ ...rule, frequency: 'sometimes' }, 'data.0.frequency', 'invalidValue'],
    [{ ...rule, seconds: 0 }, 'data.0.seconds', 'mustBePositive'],
    [{ ...rule, times: 0 }, 'data.0.times', 'mustBePositive'],
    [{ ...rule, errorTimes: -1 }, 'data.0.errorTimes', 'mustBePositive'],
    [{ ...rule, errorSeconds: 86_401 }, 'data.0.errorSeconds', 'tooBig'],
    [{ ...rule, errorBlockType: 13 }, 'data.0.errorBlockType', 'invalidValue'],
    [{ ...rule, urlRegex: '(a+)+$' }, 'data.0.urlRegex', 'runaway'],
    [{ blockType: 1 }, 'data.0.urlRegex', 'required'],
  ])('%#: refuses %j with 101003 naming %s', async (item, field, key) => {
    const res = await as(addAntiCCRules, rawInput({ params: { siteId }, body: { data: [item] } }));
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
    expect(res.json().extra.fields[0].key).toBe(key);
  });

  it("refuses another customer's site and rules as missing ones", async () => {
    const [theirs] = (
      await sendAs(t.app, f.other, addAntiCCRules, { params: { siteId: otherSiteId }, body: { data: [rule] } })
    ).json().data;
    expect((await as(listAntiCCRules, { params: { siteId: otherSiteId } })).json().code).toBe(101018);
    expect((await as(updateAntiCCRule, { params: { siteId }, body: { id: theirs.id, ...rule } })).json().code).toBe(
      101018,
    );
    const [mine] = (await as(addAntiCCRules, { params: { siteId }, body: { data: [rule] } })).json().data;
    // Mixed own and foreign ids: refused whole, nothing deleted.
    expect((await as(deleteAntiCCRules, { params: { siteId }, body: { ids: [mine.id, theirs.id] } })).json().code).toBe(
      101018,
    );
    expect((await as(listAntiCCRules, { params: { siteId } })).json().total).toBe(1);
    // An anti-CC rule's id is not another kind's.
    expect((await as(deleteIntervalLimits, { params: { siteId }, body: { ids: [mine.id] } })).json().code).toBe(101018);
  });
});
