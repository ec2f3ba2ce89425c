import { createCertificate, type ExpiringCertificate, userExpiringCertificates } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, signIn } from './helpers/auth.js';
import { sendAs, type Token } from './helpers/call.js';
import { makeCertificate, type TestCertificate } from './helpers/certificates.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The customer dashboard's "certificates expiring" (routes/certificates-expiring.ts): the
// customer's certificates that end within 30 days or have ended, across its sites, soonest first;
// another customer's never.

const DAY = 86_400_000;
const clock = manualClock(Date.now());
let t: TestApp;
let f: SiteFixture;

async function upload(who: Token, siteId: number, name: string, cert: TestCertificate): Promise<number> {
  const res = await sendAs(t.app, who, createCertificate, {
    params: { siteId },
    body: { name, certificate: cert.certPem, privateKey: cert.keyPem },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id;
}

async function expiring(who: Token): Promise<{ total: number; certificates: ExpiringCertificate[] }> {
  const res = await sendAs(t.app, who, userExpiringCertificates, undefined);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

let ids: Record<'soon' | 'later' | 'far' | 'theirs', number>;
beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  f = await siteFixture(t);
  const [soon, later, far, theirs] = (await Promise.all([
    makeCertificate(['soon.shop.example'], { days: 10 }),
    makeCertificate(['later.shop.example'], { days: 25 }),
    makeCertificate(['far.shop.example'], { days: 400 }),
    makeCertificate(['soon.next.example'], { days: 5 }),
  ])) as TestCertificate[];
  ids = {
    far: await upload(f.user, f.siteId, 'far', far as TestCertificate),
    later: await upload(f.user, f.siteId, 'later', later as TestCertificate),
    soon: await upload(f.user, f.siteId, 'soon', soon as TestCertificate),
    theirs: await upload(f.other, f.otherSiteId, 'theirs', theirs as TestCertificate),
  };
}, 60_000);
afterAll(async () => t.close());

describe("the customer's expiring certificates", () => {
  it('lists those ending within 30 days, soonest first, with their site, and none of another customer', async () => {
    const mine = await expiring(f.user);
    expect(mine.total).toBe(2);
    expect(mine.certificates.map((c) => [c.id, c.name, c.siteID, c.status])).toEqual([
      [ids.soon, 'soon', f.siteId, 'expiring'],
      [ids.later, 'later', f.siteId, 'expiring'],
    ]);
    expect(mine.certificates[0]?.siteName).toBe('shop');
    const theirs = await expiring(f.other);
    expect(theirs.certificates.map((c) => c.id)).toEqual([ids.theirs]);
  });

  it('says which have ended once their time is past', async () => {
    clock.advance(15 * DAY);
    // The first sign-in's tokens ended with the days gone by: sign in again.
    const mine = await expiring(await signIn(t.app, 'user'));
    expect(mine.certificates.map((c) => [c.id, c.status])).toEqual([
      [ids.soon, 'expired'],
      [ids.later, 'expiring'],
    ]);
  });
});
