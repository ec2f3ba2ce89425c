import { requestLogin } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../helpers/auth.js';
import { send } from '../helpers/call.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/test-app.js';

const clock = manualClock();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
});
afterAll(async () => t.close());

const attempt = (account: string, password: string, ip = '203.0.113.7') =>
  send(t.app, requestLogin, { params: { auth: 'admin' }, body: { account, password } }, { remoteAddress: ip });

describe('sign-in throttling', () => {
  it('blocks an account from one address after 10 failures, the right password too, and lifts the block later', async () => {
    for (let i = 0; i < 10; i++) expect((await attempt('admin', `wrong-${i}`)).statusCode).toBe(401);
    const blocked = await attempt('admin', TEST_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe(101012);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The same answer for a wrong password while blocked: nothing to learn from it.
    const blockedWrong = await attempt('admin', 'still-wrong');
    expect(blockedWrong.statusCode).toBe(429);
    expect(blockedWrong.json().code).toBe(blocked.json().code);
    // Another address is not blocked for this account.
    expect((await attempt('admin', TEST_PASSWORD, '198.51.100.9')).statusCode).toBe(200);
    clock.advance(15 * 60 * 1000 + 1000);
    expect((await attempt('admin', TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('blocks an address that sprays many accounts', async () => {
    const ip = '192.0.2.50';
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await attempt(`nobody-${i}`, 'guess-123', ip)).statusCode);
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
    expect((await attempt('admin', TEST_PASSWORD, ip)).statusCode).toBe(429);
  });
});
