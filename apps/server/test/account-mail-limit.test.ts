import type { TokenSet } from '@rampart/contract';
import { createAccount, deleteAccount, ON_DEMAND_SEND_LIMIT, resendAccountEmail } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_LIMITS } from '../src/modules/accounts/accounts.service.js';
import { manualClock, signIn } from './helpers/auth.js';
import { send } from './helpers/call.js';
import { mailThrough, startSmtp, type TestSmtp } from './helpers/smtp.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/** Create-password mails are limited per address and per sending account, on the real SMTP path. */
const clock = manualClock(1_800_000_000_000);
let t: TestApp;
let smtp: TestSmtp;
let client: TokenSet;
beforeAll(async () => {
  smtp = await startSmtp();
  // The clock moves by hours here: the access token must outlive it.
  t = await createTestApp({ clock: clock.now, config: { accessTokenTtlSeconds: 86_400 } });
  await mailThrough(t.app, smtp);
  client = await signIn(t.app, 'client');
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const HOUR = 60 * 60 * 1000;
/** Mails delivered to `to` so far (sends are synchronous: the reply comes after the server accepted the mail). */
const mailsTo = (to: string) => smtp.mails.filter((m) => m.to.includes(to)).length;

async function createCustomer(account: string): Promise<number> {
  const res = await send(
    t.app,
    createAccount,
    {
      params: { auth: 'client' },
      body: {
        auth: 'user',
        account,
        name: account,
        email: `${account}@mail-limit.test`,
      },
    },
    { token: client },
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id;
}
const resend = (id: number) =>
  send(t.app, resendAccountEmail, { params: { auth: 'client' }, body: { id } }, { token: client });

describe('POST {auth}/account/resendEmail limits', () => {
  it('stops mailing one address after its limit (the creation mail counts), then lets it again after the window', async () => {
    const id = await createCustomer('flooded');
    const address = 'flooded@mail-limit.test';
    for (let i = 1; i < MAIL_LIMITS.perAddress.limit; i++) expect((await resend(id)).statusCode).toBe(200);
    expect(mailsTo(address)).toBe(MAIL_LIMITS.perAddress.limit);
    const refused = await resend(id);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe(101012);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().extra.retryAfterSeconds).toBeGreaterThan(0);
    expect(mailsTo(address)).toBe(MAIL_LIMITS.perAddress.limit);
    clock.advance(HOUR + 1000);
    expect((await resend(id)).statusCode).toBe(200);
    expect(mailsTo(address)).toBe(MAIL_LIMITS.perAddress.limit + 1);
    clock.advance(HOUR + 1000);
  });

  it('counts creating an account again for the same address: create and delete cannot flood it either', async () => {
    const address = 'recreated@mail-limit.test';
    for (let i = 0; i < MAIL_LIMITS.perAddress.limit; i++) {
      const id = await createCustomer('recreated');
      expect(
        (await send(t.app, deleteAccount, { params: { auth: 'client' }, body: { id } }, { token: client })).statusCode,
      ).toBe(200);
    }
    const refused = await send(
      t.app,
      createAccount,
      {
        params: { auth: 'client' },
        body: {
          auth: 'user',
          account: 'recreated',
          name: 'recreated',
          email: address,
        },
      },
      { token: client },
    );
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe(101012);
    expect(mailsTo(address)).toBe(MAIL_LIMITS.perAddress.limit);
    // Nothing was written for the refused creation.
    expect(await t.app.rampart.accounts.findForLogin('user', 'recreated')).toBeUndefined();
    clock.advance(HOUR + 1000);
  });

  it('stops one sending account after its limit of re-sends, whatever the addresses', async () => {
    const perAccount = MAIL_LIMITS.perAddress.limit - 1; // re-sends each address still takes after its creation mail
    const ids: number[] = [];
    for (let i = 0; i * perAccount <= MAIL_LIMITS.perSender.limit; i++) ids.push(await createCustomer(`many-${i}`));
    let sent = 0;
    for (const id of ids) {
      for (let j = 0; j < perAccount && sent < MAIL_LIMITS.perSender.limit; j++, sent++) {
        // Past the binder's per-minute limit of on-demand sends (on-demand-limit.test.ts): this counts the hourly one.
        if (sent > 0 && sent % ON_DEMAND_SEND_LIMIT.limit === 0) clock.advance(ON_DEMAND_SEND_LIMIT.windowMs);
        expect((await resend(id)).statusCode).toBe(200);
      }
    }
    const before = smtp.mails.length;
    const last = ids[ids.length - 1] ?? 0;
    const refused = await resend(last);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe(101012);
    expect(smtp.mails.length).toBe(before);
    // The window passes: the account may send again.
    clock.advance(HOUR + 1000);
    expect((await resend(last)).statusCode).toBe(200);
  });
});
