import { type LicenseSetting, putLicenseOrder } from '@rampart/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts } from '../src/platform/db/schema.js';
import { addAccount } from './helpers/accounts.js';
import { manualClock, signIn } from './helpers/auth.js';
import { call, type Token } from './helpers/call.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The "licence about to expire" alert: raised for the operator whose applicable licence expires
// within 30 days, once per mark (30, 7 and 1 day left) of that expiry; never for a licence further
// away, an expired one, or an operator without one.
const DAY = 86_400_000;
const clock = manualClock(Date.now());
let t: TestApp;
let admin: Token;

function setting(expiresInDays: number): LicenseSetting {
  return {
    nodes: 10,
    sites: 10,
    domains: 10,
    autoSSLDomains: 10,
    ports: 10,
    zones: 10,
    expiredAt: new Date(clock.now() + expiresInDays * DAY + 3_600_000).toISOString(),
  };
}
async function licensed(name: string, expiresInDays: number | null): Promise<number> {
  const id = await addAccount(t.app, 'client', name);
  if (expiresInDays !== null) {
    await call(
      t.app,
      putLicenseOrder,
      { params: { userId: id }, body: { licenseSetting: setting(expiresInDays) } },
      {
        token: admin,
      },
    );
  }
  return id;
}
const raised = (operatorId: number) =>
  t.db.database.db.select().from(alerts).where(eq(alerts.ownerId, operatorId)).orderBy(alerts.id);

beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  admin = await signIn(t.app, 'admin');
});
afterAll(async () => t?.close());

describe('licence about to expire', () => {
  it('alerts the operator at 30, 7 and 1 day left, once each; not before, not after, not without a licence', async () => {
    const soon = await licensed('expiring-op', 20);
    const later = await licensed('later-op', 90);
    const none = await licensed('unlicensed-op', null);
    await t.app.rampart.licenceExpiry.pass();
    await t.app.rampart.licenceExpiry.pass();
    const first = await raised(soon);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ kind: 'licenceExpiring', subject: 'licence' });
    expect(first[0]?.dedupKey).toMatch(/^licence:\d{4}-\d{2}-\d{2}:30$/);
    expect(first[0]?.params).toMatchObject({ days: 20 });
    expect(await raised(later)).toEqual([]);
    expect(await raised(none)).toEqual([]);

    clock.advance(14 * DAY);
    await t.app.rampart.licenceExpiry.pass();
    expect((await raised(soon)).map((a) => a.dedupKey.split(':')[2])).toEqual(['30', '7']);
    clock.advance(6 * DAY);
    await t.app.rampart.licenceExpiry.pass();
    expect((await raised(soon)).map((a) => a.dedupKey.split(':')[2])).toEqual(['30', '7', '1']);
    clock.advance(2 * DAY);
    await t.app.rampart.licenceExpiry.pass();
    expect(await raised(soon)).toHaveLength(3);
  });
});
