import {
  type AnyRoute,
  getErrorPages,
  getGzipSetting,
  getPerdefinedSetting,
  type PerdefinedSettingInput,
  savePerdefinedSetting,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { fieldNames, rawInput, sendAs, type Token } from './helpers/call.js';
import { operatorCalls, webProduct } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The operator's predefined settings (client/setting/perdefined): the compression and error-page
// language every new site of the operator starts with; another operator's sites do not.
let t: TestApp;
let w: Awaited<ReturnType<typeof twoOperators>>;

const as = <R extends AnyRoute>(who: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, who, route, ...args);
const PREDEFINED: PerdefinedSettingInput = {
  gzip: { enabled: true, types: ['text/html', 'application/json'], minLength: 256 },
  errorPageLanguage: 'zh_TW',
};
const DEFAULT = {
  gzip: {
    enabled: false,
    types: ['text/html', 'text/plain', 'text/css', 'text/javascript', 'application/javascript', 'application/json'],
    minLength: 1024,
  },
  errorPageLanguage: 'en_US',
};
async function startOf(who: Token, siteId: number) {
  const gzip = (await as(who, getGzipSetting, { params: { siteId } })).json().data;
  const pages = (await as(who, getErrorPages, { params: { siteId } })).json().data;
  return { gzip: { enabled: gzip.enabled, types: gzip.types, minLength: gzip.minLength }, language: pages.language };
}

/** Two operators, each with a customer and a product to create sites on. */
async function twoOperators() {
  const rivalId = await addAccount(t.app, 'client', 'rival');
  const rivalUserId = await addAccount(t.app, 'user', 'rivalcustomer', rivalId);
  const client = await signIn(t.app, 'client');
  const rival = await signIn(t.app, 'client', 'rival');
  return {
    client,
    rival,
    user: await signIn(t.app, 'user'),
    rivalUser: await signIn(t.app, 'user', 'rivalcustomer'),
    userId: await rootId(t.app, 'user'),
    rivalUserId,
    productId: (await webProduct(t.app, client)).productId,
    rivalProductId: (await webProduct(t.app, rival)).productId,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  w = await twoOperators();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('client/setting/perdefined', () => {
  it('answers the defaults until set; a site created before any is set starts as before', async () => {
    expect((await as(w.client, getPerdefinedSetting)).json().data).toEqual(DEFAULT);
    const siteId = await operatorCalls(t.app, w.client).site('before', w.userId, w.productId);
    expect(await startOf(w.user, siteId)).toEqual({ gzip: DEFAULT.gzip, language: 'en_US' });
  });

  it('refuses bad values with 101003 naming each field', async () => {
    const bad = await as(
      w.client,
      savePerdefinedSetting,
      rawInput({
        body: { gzip: { enabled: true, types: [], minLength: -1 }, errorPageLanguage: 'fr_FR' },
      }),
    );
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad).sort()).toEqual(['errorPageLanguage', 'gzip.minLength', 'gzip.types']);
    const unknown = await as(
      w.client,
      savePerdefinedSetting,
      rawInput({ body: { gzip: { enabled: false, types: ['image/png'] }, errorPageLanguage: 'en_US' } }),
    );
    expect(fieldNames(unknown)).toEqual(['gzip.types.0']);
  });

  it('gives every new site of the operator its predefined settings; another operator’s sites keep the defaults', async () => {
    const saved = await as(w.client, savePerdefinedSetting, { body: PREDEFINED });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await as(w.client, getPerdefinedSetting)).json().data).toEqual(PREDEFINED);
    expect((await as(w.rival, getPerdefinedSetting)).json().data).toEqual(DEFAULT);

    const siteId = await operatorCalls(t.app, w.client).site('after', w.userId, w.productId);
    expect(await startOf(w.user, siteId)).toEqual({ gzip: PREDEFINED.gzip, language: 'zh_TW' });
    const rivalSite = await operatorCalls(t.app, w.rival).site('elsewhere', w.rivalUserId, w.rivalProductId);
    expect(await startOf(w.rivalUser, rivalSite)).toEqual({ gzip: DEFAULT.gzip, language: 'en_US' });
  });

  it('leaves existing sites as they are when it changes', async () => {
    const siteId = await operatorCalls(t.app, w.client).site('kept', w.userId, w.productId);
    const changed = await as(w.client, savePerdefinedSetting, {
      body: { gzip: { enabled: false, types: ['text/html'], minLength: 0 }, errorPageLanguage: 'zh_CN' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await startOf(w.user, siteId)).toEqual({ gzip: PREDEFINED.gzip, language: 'zh_TW' });
    const next = await operatorCalls(t.app, w.client).site('next', w.userId, w.productId);
    expect((await startOf(w.user, next)).language).toBe('zh_CN');
  });

  it('is the operator’s: a customer has no such call', async () => {
    expect((await as(w.user, getPerdefinedSetting)).statusCode).not.toBe(200);
    expect((await as(w.user, savePerdefinedSetting, { body: PREDEFINED })).statusCode).not.toBe(200);
  });
});
