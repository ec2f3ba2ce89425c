import type { AnyRoute } from '@rampart/contract';
import {
  addIntervalLimits,
  addSecondLimits,
  dataPlaneSchema,
  deleteIntervalLimits,
  deleteSecondLimits,
  listIntervalLimits,
  listSecondLimits,
  updateIntervalLimit,
  updateSecondLimit,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldNames, rawInput, sendAs, type Token } from './helpers/call.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The site firewall's frequency limits (user/site/{id}/firewall/setting/intervalLimits, secondLimits).

let t: TestApp;
let f: SiteFixture;
let siteId: number;
let otherSiteId: number;

const as = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, f.user, route, ...args);
const interval = { urlRegex: '.*', seconds: 60, times: 20, blockType: 10 as const };
const second = { urlRegex: '/login', rate: 5, burst: 2, blockSeconds: 300, blockType: 11 as const };

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

describe('frequency limits', () => {
  it('add with their defaults, list, edit and delete, for both kinds', async () => {
    const [i] = (await as(addIntervalLimits, { params: { siteId }, body: { data: [interval] } })).json().data;
    expect(i).toMatchObject({ ...interval, siteID: siteId, priority: 0, enabled: true, memo: '' });
    const [s] = (
      await as(addSecondLimits, { params: { siteId }, body: { data: [{ urlRegex: '.*', rate: 10, blockType: 10 }] } })
    ).json().data;
    expect(s).toMatchObject({ rate: 10, burst: 0, blockSeconds: 0, priority: 0, enabled: true });

    const edited = await as(updateSecondLimit, { params: { siteId }, body: { id: s.id, ...second, priority: 7 } });
    expect(edited.json().data).toMatchObject({ id: s.id, ...second, priority: 7 });
    expect((await as(listIntervalLimits, { params: { siteId } })).json()).toMatchObject({
      total: 1,
      data: [{ id: i.id }],
    });
    expect((await as(listSecondLimits, { params: { siteId } })).json()).toMatchObject({
      total: 1,
      data: [{ id: s.id }],
    });

    await as(deleteIntervalLimits, { params: { siteId }, body: { ids: [i.id] } });
    await as(deleteSecondLimits, { params: { siteId }, body: { ids: [s.id] } });
    expect((await as(listSecondLimits, { params: { siteId } })).json().total).toBe(0);
  });

  it('reach the nodes when enabled, by priority then age, and leave when disabled', async () => {
    const added = (
      await as(addIntervalLimits, {
        params: { siteId },
        body: { data: [interval, { ...interval, times: 5, priority: 9 }, { ...interval, times: 1, enabled: false }] },
      })
    ).json().data as { id: number }[];
    const [low, high, off] = added.map((r) => r.id);
    const [rate] = (await as(addSecondLimits, { params: { siteId }, body: { data: [second] } })).json().data;

    let p = await plane();
    expect(p.domains[0]?.firewallId).toBe(siteId);
    expect(p.firewalls[0]?.intervals).toEqual([
      { id: high, url: '.*', seconds: 60, times: 5, action: 'deny' },
      { id: low, url: '.*', seconds: 60, times: 20, action: 'deny' },
    ]);
    expect(p.firewalls[0]?.rates).toEqual([
      { id: rate.id, url: '/login', rate: 5, burst: 2, blockSeconds: 300, action: 'drop' },
    ]);

    await as(updateIntervalLimit, { params: { siteId }, body: { id: high as number, ...interval, enabled: false } });
    p = await plane();
    expect(p.firewalls[0]?.intervals.map((r) => r.id)).toEqual([low]);

    await as(deleteIntervalLimits, { params: { siteId }, body: { ids: [low, high, off] as number[] } });
    await as(deleteSecondLimits, { params: { siteId }, body: { ids: [rate.id] } });
    expect((await plane()).firewalls).toEqual([]);
  });

  it.each([
    [addIntervalLimits, { ...interval, seconds: 0 }, 'data.0.seconds', 'mustBePositive'],
    [addIntervalLimits, { ...interval, times: -3 }, 'data.0.times', 'mustBePositive'],
    [addIntervalLimits, { ...interval, times: 1.5 }, 'data.0.times', 'wrongFormat'],
    [addIntervalLimits, { ...interval, seconds: 86_401 }, 'data.0.seconds', 'tooBig'],
    [addIntervalLimits, { ...interval, urlRegex: '(x+)+' }, 'data.0.urlRegex', 'runaway'],
    [addIntervalLimits, { ...interval, blockType: 13 }, 'data.0.blockType', 'invalidValue'],
    [addIntervalLimits, { ...interval, priority: 101 }, 'data.0.priority', 'tooBig'],
    [addSecondLimits, { ...second, rate: 0 }, 'data.0.rate', 'mustBePositive'],
    [addSecondLimits, { ...second, burst: -1 }, 'data.0.burst', 'tooSmall'],
    [addSecondLimits, { ...second, blockSeconds: 86_401 }, 'data.0.blockSeconds', 'tooBig'],
    [addSecondLimits, { ...second, urlRegex: undefined }, 'data.0.urlRegex', 'required'],
  ] as const)('%#: refuses a bad value with 101003 naming the field and its key', async (route, item, field, key) => {
    const res = await as(
      route as AnyRoute as typeof addIntervalLimits,
      rawInput({ params: { siteId }, body: { data: [item] } }),
    );
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual([field]);
    expect(res.json().extra.fields[0].key).toBe(key);
  });

  it("refuses another customer's site and rules as missing ones", async () => {
    const [theirs] = (
      await sendAs(t.app, f.other, addIntervalLimits, { params: { siteId: otherSiteId }, body: { data: [interval] } })
    ).json().data;
    expect((await as(listIntervalLimits, { params: { siteId: otherSiteId } })).json().code).toBe(101018);
    expect(
      (await as(updateIntervalLimit, { params: { siteId }, body: { id: theirs.id, ...interval } })).json().code,
    ).toBe(101018);
    expect((await as(deleteIntervalLimits, { params: { siteId }, body: { ids: [theirs.id] } })).json().code).toBe(
      101018,
    );
    // An interval limit's id is not a per-second limit's.
    expect(
      (
        await sendAs(t.app, f.other, deleteSecondLimits, {
          params: { siteId: otherSiteId },
          body: { ids: [theirs.id] },
        })
      ).json().code,
    ).toBe(101018);
  });
});
