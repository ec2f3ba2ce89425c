import {
  type AnyRoute,
  clientCreateLogPushEvent,
  clientTestLogPush,
  type EmailSettingIn,
  getAccountVerifySetting,
  getOutgoingUrlSetting,
  getRestrictCidrsSetting,
  getSelf,
  listUserSites,
  listZones,
  requestLogin,
  saveAccountVerifySetting,
  saveEmailSetting,
  saveOutgoingUrlSetting,
  saveRestrictCidrsSetting,
  saveTgSetting,
  testDnsSetting,
  testEmailSetting,
  testTgSetting,
  totpPhase0,
  totpPhase1,
  totpPhase2,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeStep, totpAt } from '../src/platform/crypto/totp.js';
import { addAccount, giveRole, rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { fieldNames, rawInput, send, sendAs, type Token } from './helpers/call.js';
import { type Receiver, webhookReceiver } from './helpers/log-push-receivers.js';
import { type PowerDnsServer, powerDnsSetting, startPowerDns } from './helpers/powerdns-server.js';
import { decodedText, smtpSetting, startSmtp, type TestSmtp } from './helpers/smtp.js';
import { startTelegramStandIn, type TelegramStandIn } from './helpers/telegram-standin.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from './helpers/test-app.js';

// The operator's system settings (contract routes/system-settings.ts) and their effects: the
// outgoing URL list on every kind of outgoing call (a webhook, a DNS provider API, Telegram, SMTP;
// ACME in auto-certificates.test.ts), the second factor an operator requires, and the addresses its
// own accounts may sign in and call from. Everything runs against real loopback servers.
let t: TestApp;
let client: Token;
let rival: Token;
let user: Token;
let rivalUser: Token;
let pdns: PowerDnsServer;
let smtp: TestSmtp;
let tg: TelegramStandIn;
let hook: Receiver;
const zone = 'cdn-outgoing.test';
const CHAT = '2001';

const as = <R extends AnyRoute>(who: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, who, route, ...args);
const from = (address: string, token: Token) => ({
  remoteAddress: address,
  headers: { authorization: `Bearer ${token.accessToken}` },
});
const email = (over: Partial<EmailSettingIn> = {}) => smtpSetting(smtp, over);
/** Sets up an authenticator for the signed-in account (login2fa phases 0–2), as the console does. */
async function enrolTotp(who: Token): Promise<void> {
  const p0 = await as(who, totpPhase0, { params: { auth: 'client' }, body: { password: TEST_PASSWORD } });
  expect(p0.statusCode, p0.body).toBe(200);
  const onePassKey = p0.json().data.onePassKey;
  const p1 = await as(who, totpPhase1, { params: { auth: 'client' }, body: { onePassKey } });
  const secret = new URL(p1.json().data.qrCodeData).searchParams.get('secret') ?? '';
  const p2 = await as(who, totpPhase2, {
    params: { auth: 'client' },
    body: { onePassKey, login2FAType: 3, code: totpAt(secret, timeStep(Date.now())) },
  });
  expect(p2.statusCode, p2.body).toBe(200);
}
const allowOnly = async (urls: string[]) => {
  const res = await as(client, saveOutgoingUrlSetting, { body: { urls } });
  expect(res.statusCode, res.body).toBe(200);
};

beforeAll(async () => {
  pdns = await startPowerDns([zone]);
  [smtp, tg] = await Promise.all([startSmtp(), startTelegramStandIn([CHAT])]);
  hook = await webhookReceiver('s'.repeat(32));
  t = await createTestApp({ config: { telegramApiUrl: tg.url } });
  client = await signIn(t.app, 'client');
  user = await signIn(t.app, 'user');
  const rivalId = await addAccount(t.app, 'client', 'rival');
  rival = await signIn(t.app, 'client', 'rival');
  await addAccount(t.app, 'user', 'rivalcustomer', rivalId);
  rivalUser = await signIn(t.app, 'user', 'rivalcustomer');
}, 60_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([pdns?.stop(), smtp?.close(), tg?.close(), hook?.stop()]);
});

describe('client/setting/outgoingURL', () => {
  it('is empty (every destination) until set; saves entries in canonical form, per operator', async () => {
    expect((await as(client, getOutgoingUrlSetting)).json()).toEqual({ data: { urls: [] } });
    const saved = await as(client, saveOutgoingUrlSetting, {
      body: { urls: ['HTTPS://Hooks.Example.COM:8443', '*.cloudflare.com', 'smtp://mail.example.com'] },
    });
    expect(saved.json()).toEqual({
      data: { urls: ['https://hooks.example.com:8443', '*.cloudflare.com', 'smtp://mail.example.com'] },
    });
    expect((await as(client, getOutgoingUrlSetting)).json().data.urls).toHaveLength(3);
    expect((await as(rival, getOutgoingUrlSetting)).json()).toEqual({ data: { urls: [] } });
    expect((await as(user, getOutgoingUrlSetting)).json().code).toBe(101018);
    await allowOnly([]);
  });

  it('refuses entries that are not [scheme://]host[:port], and duplicates, naming them', async () => {
    const res = await as(client, saveOutgoingUrlSetting, {
      body: {
        urls: [
          'https://ok.example.com',
          'ftp://x.example.com',
          'a.example.com/path',
          'OK.example.com',
          'ok.example.com',
        ],
      },
    });
    expect(res.json().code).toBe(101003);
    expect(fieldNames(res)).toEqual(['urls.1', 'urls.2', 'urls.4']);
    const notList = await as(client, saveOutgoingUrlSetting, rawInput({ body: { urls: 'a.example.com' } }));
    expect(fieldNames(notList)).toEqual(['urls']);
  });

  it('refuses a log push to a destination off the list with an error that says so; on the list it is sent', async () => {
    const created = await as(client, clientCreateLogPushEvent, {
      body: {
        name: 'ops hook',
        type: 'access',
        destination: { kind: 'webhook', url: `http://127.0.0.1:${hook.port}/hook`, secret: 's'.repeat(32) },
      } as never,
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id;
    await allowOnly(['https://hooks.example.com']);
    const refused = await as(client, clientTestLogPush, { body: { id } });
    expect(refused.json().data).toMatchObject({
      ok: false,
      error: `http://127.0.0.1:${hook.port}/hook is not on the operator's outgoing URL list`,
    });
    expect(hook.deliveries).toBe(0);
    // Another operator's list is its own: the rival's empty list does not open this one's.
    await as(rival, saveOutgoingUrlSetting, { body: { urls: [] } });
    expect((await as(client, clientTestLogPush, { body: { id } })).json().data.ok).toBe(false);

    await allowOnly(['https://hooks.example.com', `http://127.0.0.1:${hook.port}`]);
    const sent = await as(client, clientTestLogPush, { body: { id } });
    expect(sent.json().data).toMatchObject({ ok: true, error: null });
    expect(hook.deliveries).toBe(1);
    // Another port of the same host is not on the list.
    await allowOnly([`http://127.0.0.1:${hook.port + 1}`]);
    expect((await as(client, clientTestLogPush, { body: { id } })).json().data.ok).toBe(false);
    await allowOnly([]);
  });

  it("refuses the DNS provider's API off the list (101010 with the reason); on the list it answers", async () => {
    await allowOnly(['127.0.0.2']);
    const refused = await as(client, testDnsSetting, { body: powerDnsSetting(pdns, zone) });
    expect(refused.json().code).toBe(101010);
    expect(refused.json().extra.reason).toBe(`${pdns.apiUrl}/ is not on the operator's outgoing URL list`);
    await allowOnly(['127.0.0.2', '127.0.0.1']);
    const ok = await as(client, testDnsSetting, { body: powerDnsSetting(pdns, zone) });
    expect(ok.statusCode, ok.body).toBe(200);
    await allowOnly([]);
  });

  it('refuses the Telegram Bot API and the SMTP server off the list', async () => {
    await as(client, saveTgSetting, { body: { botToken: tg.token, chatId: CHAT } });
    await as(client, saveEmailSetting, { body: email() });
    await allowOnly(['smtp://mail.example.com']);
    const sentBefore = tg.messages.length;
    const tgRefused = await as(client, testTgSetting, { body: { chatId: CHAT } });
    expect(tgRefused.json().code).toBe(101021);
    expect(tgRefused.json().extra.reason).toContain("is not on the operator's outgoing URL list");
    const mailRefused = await as(client, testEmailSetting, { body: { ...email(), to: 'ops@example.test' } });
    expect(mailRefused.json().code).toBe(101020);
    expect(mailRefused.json().extra.reason).toBe(
      `smtp://127.0.0.1:${smtp.port} is not on the operator's outgoing URL list`,
    );
    expect(tg.messages.length).toBe(sentBefore);
    expect(smtp.mails).toHaveLength(0);

    await allowOnly([`smtp://127.0.0.1:${smtp.port}`, new URL(tg.url).host]);
    expect((await as(client, testTgSetting, { body: { chatId: CHAT } })).statusCode).toBe(200);
    expect(tg.messages.at(-1)).toMatchObject({ chatId: CHAT });
    expect((await as(client, testEmailSetting, { body: { ...email(), to: 'ops@example.test' } })).statusCode).toBe(200);
    expect(decodedText(await smtp.next('ops@example.test'))).toContain('Rampart: test mail');
    await allowOnly([]);
  });
});

describe('client/setting/accountVerify', () => {
  it('is off until set; refuses an unknown mode', async () => {
    expect((await as(client, getAccountVerifySetting)).json()).toEqual({ data: { mode: 'off' } });
    const bad = await as(client, saveAccountVerifySetting, rawInput({ body: { mode: 'sometimes' } }));
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad)).toEqual(['mode']);
  });

  it('makes accounts without a second factor set one up before any other call', async () => {
    const subId = await addAccount(t.app, 'client', 'verify-sub', await rootId(t.app, 'client'));
    await giveRole(t.app, client, 'client', subId);
    // The operator cannot require what it has not got itself (it could only set one up next).
    const early = await as(client, saveAccountVerifySetting, { body: { mode: 'operator' } });
    expect(early.json().code).toBe(101003);
    expect(fieldNames(early)).toEqual(['mode']);
    await enrolTotp(client);
    expect((await as(client, saveAccountVerifySetting, { body: { mode: 'operator' } })).json()).toEqual({
      data: { mode: 'operator' },
    });

    // Its sub-account without a second factor signs in, and can do nothing but set one up.
    const sub = await signIn(t.app, 'client', 'verify-sub');
    const held = await as(sub, listZones, { query: {} });
    expect(held.json()).toMatchObject({ code: 101018, extra: { reason: 'secondFactorRequired' } });
    expect((await as(sub, getSelf, { params: { auth: 'client' } })).statusCode).toBe(200);
    expect((await as(client, listZones, { query: {} })).statusCode).toBe(200);
    // Customers are not asked in `operator` mode; another operator's accounts never.
    expect((await as(user, listUserSites, { query: {} })).statusCode).toBe(200);
    expect((await as(rival, listZones, { query: {} })).statusCode).toBe(200);

    await enrolTotp(sub);
    expect((await as(sub, listZones, { query: {} })).statusCode).toBe(200);
  });

  it('holds customers too in `all` mode, and only this operator’s', async () => {
    await as(client, saveAccountVerifySetting, { body: { mode: 'all' } });
    expect((await as(user, listUserSites, { query: {} })).json()).toMatchObject({
      code: 101018,
      extra: { reason: 'secondFactorRequired' },
    });
    expect((await as(rivalUser, listUserSites, { query: {} })).statusCode).toBe(200);
    await as(client, saveAccountVerifySetting, { body: { mode: 'off' } });
    expect((await as(user, listUserSites, { query: {} })).statusCode).toBe(200);
  });
});

describe('client/setting/restrictGroupCIDRs', () => {
  it('is empty (anywhere) until set; refuses bad entries and a list without the caller’s own address', async () => {
    expect((await as(client, getRestrictCidrsSetting)).json()).toEqual({ data: { cidrs: [] } });
    const bad = await as(client, saveRestrictCidrsSetting, { body: { cidrs: ['10.0.0.0/8', 'nope', '10.0.0.0/8'] } });
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad)).toEqual(['cidrs.1', 'cidrs.2']);
    // The test's calls come from 127.0.0.1: a list without it would lock the operator out.
    const lockout = await as(client, saveRestrictCidrsSetting, { body: { cidrs: ['10.0.0.0/8'] } });
    expect(lockout.json().code).toBe(101003);
    expect(fieldNames(lockout)).toEqual(['cidrs']);
    expect((await as(client, getRestrictCidrsSetting)).json().data.cidrs).toEqual([]);
  });

  it("refuses the operator's own accounts outside the list, at sign-in and on every call; not its customers", async () => {
    const saved = await as(client, saveRestrictCidrsSetting, { body: { cidrs: ['127.0.0.0/8', '10.0.0.0/8'] } });
    expect(saved.json()).toEqual({ data: { cidrs: ['127.0.0.0/8', '10.0.0.0/8'] } });
    expect((await send(t.app, listZones, { query: {} }, from('10.1.2.3', client))).statusCode).toBe(200);
    const outside = await send(t.app, listZones, { query: {} }, from('192.0.2.7', client));
    expect(outside.json()).toMatchObject({ code: 101018, extra: { reason: 'addressNotAllowed' } });
    const login = await send(
      t.app,
      requestLogin,
      { params: { auth: 'client' }, body: { account: 'client', password: TEST_PASSWORD } },
      { remoteAddress: '192.0.2.7' },
    );
    expect(login.json()).toMatchObject({ code: 101018, extra: { reason: 'addressNotAllowed' } });
    // Customers and another operator are not restricted by this list.
    expect((await send(t.app, listUserSites, { query: {} }, from('192.0.2.7', user))).statusCode).toBe(200);
    expect((await send(t.app, listZones, { query: {} }, from('192.0.2.7', rival))).statusCode).toBe(200);
    await as(client, saveRestrictCidrsSetting, { body: { cidrs: [] } });
    expect((await send(t.app, listZones, { query: {} }, from('192.0.2.7', client))).statusCode).toBe(200);
  });
});
