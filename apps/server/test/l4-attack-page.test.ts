import type { AnyRoute } from '@rampart/contract';
import { getL4AttackPageSetting, getSelf, putL4AttackPageSetting } from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { rawInput, sendAs, type Token } from './helpers/call.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';

// The operator's switch that lists the layer-4 attack page in its customers' menu
// (GET/PUT client/setting/l4AttackPage) and what `GET {auth}/self` tells each account of it.

let t: TestApp;
let client: Token;
let rival: Token;
let alice: Token;
let aliceSub: Token;
let rivalCustomer: Token;
let admin: Token;

const as = <R extends AnyRoute>(token: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, token, route, ...args);
const shown = async (token: Token, auth: 'user' | 'client' | 'admin') => {
  const res = await as(token, getSelf, { params: { auth } });
  expect(res.statusCode).toBe(200);
  return res.json().data.l4AttackPage;
};

beforeAll(async () => {
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  admin = await signIn(t.app, 'admin');
  alice = await signIn(t.app, 'user');
  // A sub-account of the customer: it reads its parent's operator's switch.
  await addAccount(t.app, 'user', 'alice-sub', await rootId(t.app, 'user'));
  aliceSub = await signIn(t.app, 'user', 'alice-sub', TEST_PASSWORD);
  // A second operator with a customer of its own.
  const rivalId = await addAccount(t.app, 'client', 'rival');
  rival = await signIn(t.app, 'client', 'rival', TEST_PASSWORD);
  await addAccount(t.app, 'user', 'dave', rivalId);
  rivalCustomer = await signIn(t.app, 'user', 'dave', TEST_PASSWORD);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe("the operator's layer-4 attack page switch", () => {
  it('is off by default, for the operator and its customers', async () => {
    const res = await as(client, getL4AttackPageSetting, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ enabled: false });
    expect(await shown(alice, 'user')).toBe(false);
    expect(await shown(aliceSub, 'user')).toBe(false);
  });

  it("turned on, reaches its customers and their sub-accounts, and no other operator's", async () => {
    const put = await as(client, putL4AttackPageSetting, { body: { enabled: true } });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toEqual({ enabled: true });
    expect((await as(client, getL4AttackPageSetting, {})).json().data).toEqual({ enabled: true });
    expect(await shown(alice, 'user')).toBe(true);
    expect(await shown(aliceSub, 'user')).toBe(true);
    expect(await shown(client, 'client')).toBe(true);
    // The other operator and its customer keep the default.
    expect((await as(rival, getL4AttackPageSetting, {})).json().data).toEqual({ enabled: false });
    expect(await shown(rivalCustomer, 'user')).toBe(false);
    expect(await shown(rival, 'client')).toBe(false);
    expect(await shown(admin, 'admin')).toBe(false);
  });

  it('turned off again, is hidden from its customers again', async () => {
    expect((await as(client, putL4AttackPageSetting, { body: { enabled: false } })).statusCode).toBe(200);
    expect(await shown(alice, 'user')).toBe(false);
    expect((await as(client, putL4AttackPageSetting, { body: { enabled: true } })).statusCode).toBe(200);
  });

  it('another operator turning its own on changes nothing of the first', async () => {
    expect((await as(rival, putL4AttackPageSetting, { body: { enabled: true } })).statusCode).toBe(200);
    expect(await shown(rivalCustomer, 'user')).toBe(true);
    expect((await as(rival, putL4AttackPageSetting, { body: { enabled: false } })).statusCode).toBe(200);
    expect(await shown(rivalCustomer, 'user')).toBe(false);
    expect(await shown(alice, 'user')).toBe(true);
  });

  it("is the operator's alone: a customer cannot read or set it", async () => {
    const put = await as(alice, putL4AttackPageSetting, { body: { enabled: false } });
    expect(put.statusCode).toBe(403);
    expect((await as(alice, getL4AttackPageSetting, {})).statusCode).toBe(403);
    expect(await shown(alice, 'user')).toBe(true);
  });

  it('refuses anything but a boolean (101003 naming the field)', async () => {
    for (const body of [{ enabled: 'yes' }, { enabled: 1 }, {}]) {
      const res = await as(client, putL4AttackPageSetting, rawInput({ body }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'enabled' }] } });
    }
    expect((await as(client, getL4AttackPageSetting, {})).json().data).toEqual({ enabled: true });
  });
});
