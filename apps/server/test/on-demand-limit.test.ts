import { ALL_ROUTES, type AnyRoute, ON_DEMAND_SEND_LIMIT, type TokenSet } from '@rampart/contract';
import type { LooseInput } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, rootId, signInOtherOperator } from './helpers/accounts.js';
import { manualClock, signIn } from './helpers/auth.js';
import { rawInput, sendWith } from './helpers/call.js';
import { smtpSetting, startSmtp, type TestSmtp } from './helpers/smtp.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Every call that connects out or sends mail when it is made is limited per account
 * (`sendsOnDemand` in the contract): the N+1th call of one account within the window is refused
 * with 101012 / 429 on every such route, another account of the same tier is not affected, and the
 * window passing lets the account call again.
 */
const clock = manualClock(1_900_000_000_000);
let t: TestApp;
let smtp: TestSmtp;
const tokens: Partial<Record<'client' | 'user', [TokenSet, TokenSet]>> = {};

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({
    clock: clock.now,
    // Nothing here leaves the machine: a closed loopback port wherever a test would connect out.
    config: { telegramApiUrl: 'http://127.0.0.1:9', accessTokenTtlSeconds: 86_400 },
  });
  tokens.client = [await signIn(t.app, 'client'), await signInOtherOperator(t.app)];
  await addAccount(t.app, 'user', 'second-customer', await rootId(t.app, 'client'));
  tokens.user = [await signIn(t.app, 'user'), await signIn(t.app, 'user', 'second-customer')];
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** A well-formed input of each limited route (ids of nothing: the limit counts before the work). */
const SAMPLES: Record<string, { tier: 'client' | 'user'; input: LooseInput }> = {
  'auth.account.resendEmail': { tier: 'client', input: { params: { auth: 'client' }, body: { id: 999_999 } } },
  'auth.login2fa.phase0.code': { tier: 'user', input: { params: { auth: 'user' } } },
  'client.setting.email.test': {
    tier: 'client',
    input: { body: { ...smtpSetting({ port: 9 }), to: 'limit@rampart.test' } },
  },
  'client.setting.tg.test': { tier: 'client', input: { body: { botToken: '123:abc', chatId: '42' } } },
  'client.setting.dns.test': {
    tier: 'client',
    input: { body: { type: 'powerdns', apiUrl: 'http://127.0.0.1:9/', apiKey: 'k', zone: 'limit.test' } },
  },
  'client.setting.dns.unprocessed.retry': { tier: 'client', input: { body: { ids: [999_999] } } },
  'client.setting.dns.recovery': { tier: 'client', input: {} },
  'client.autoCertificates.renew': { tier: 'client', input: { body: { ids: [999_999] } } },
  'client.logPush.test': { tier: 'client', input: { body: { id: 999_999 } } },
  'user.logPush.test': { tier: 'user', input: { body: { id: 999_999 } } },
  'user.domains.verify': { tier: 'user', input: { params: { siteId: 999_999 }, body: { domainIDs: [1] } } },
  'user.domains.checkCNAME': { tier: 'user', input: { params: { siteId: 999_999 }, body: { domainIDs: [1] } } },
};

const limited = ALL_ROUTES.filter((route) => route.sendsOnDemand);

describe('calls that connect out or send mail on demand', () => {
  it('are every test, send and resend call of the contract, each with a sample here', () => {
    const named = ALL_ROUTES.filter((r) =>
      /(^|\.)(test|resendEmail|code)$|\.verify$|checkCNAME|renew$|retry$|recovery$/.test(r.id),
    );
    // A log export's retry writes a file here: nothing leaves the control plane.
    const signedIn = named
      .filter((r) => r.access.kind === 'tiers' && !r.id.endsWith('.logExports.retry'))
      .map((r) => r.id);
    expect(limited.map((r) => r.id).sort()).toEqual([...new Set(signedIn)].sort());
    expect(limited.map((r) => r.id).sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  it.each(limited.map((route) => [route.id, route] as [string, AnyRoute]))(
    '%s: the call after the limit is refused with 101012 for that account only',
    async (id, route) => {
      const sample = SAMPLES[id];
      if (!sample) throw new Error(`no sample input for ${id}`);
      const [first, other] = tokens[sample.tier] ?? [];
      if (!first || !other) throw new Error(`no ${sample.tier} accounts`);
      // The sample is well formed: the call gets past the contract's checks to its work.
      const input = sample.input as { params?: unknown; body?: unknown };
      if (route.request.params) expect(route.request.params.safeParse(input.params).success).toBe(true);
      if (route.request.body) expect(route.request.body.safeParse(input.body).success).toBe(true);
      const call = (who: TokenSet) => sendWith(t.app, route, rawInput(sample.input), { token: who });
      for (let i = 0; i < ON_DEMAND_SEND_LIMIT.limit; i++) {
        const res = await call(first);
        expect(res.statusCode, res.body).not.toBe(429);
        expect(res.json().code, res.body).not.toBe(101012);
      }
      const refused = await call(first);
      expect(refused.statusCode, refused.body).toBe(429);
      expect(refused.json().code).toBe(101012);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another account of the tier still may.
      const otherRes = await call(other);
      expect(otherRes.statusCode, otherRes.body).not.toBe(429);
      // After the window the account may again.
      clock.advance(ON_DEMAND_SEND_LIMIT.windowMs + 1000);
      expect((await call(first)).statusCode).not.toBe(429);
    },
  );

  it('counts per route: a mail test refused after its limit sends no mail, while another route still works', async () => {
    const [client] = tokens.client ?? [];
    if (!client) throw new Error('no client');
    const route = limited.find((r) => r.id === 'client.setting.email.test') as AnyRoute;
    const body = { ...smtpSetting(smtp), to: 'counted@rampart.test' };
    clock.advance(ON_DEMAND_SEND_LIMIT.windowMs + 1000);
    for (let i = 0; i < ON_DEMAND_SEND_LIMIT.limit; i++) {
      const res = await sendWith(t.app, route, rawInput({ body }), { token: client });
      expect(res.statusCode, res.body).toBe(200);
    }
    const refused = await sendWith(t.app, route, rawInput({ body }), { token: client });
    expect(refused.json().code).toBe(101012);
    expect(smtp.mails.filter((m) => m.to.includes('counted@rampart.test')).length).toBe(ON_DEMAND_SEND_LIMIT.limit);
    const recovery = limited.find((r) => r.id === 'client.setting.dns.recovery') as AnyRoute;
    expect((await sendWith(t.app, recovery, rawInput({}), { token: client })).statusCode).not.toBe(429);
  });
});
