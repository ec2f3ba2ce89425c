import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { KeyMismatchError } from '../src/platform/crypto/key-check.js';
import { createTestAnalyticsStore } from './helpers/test-analytics.js';
import { createTestApp, type TestApp, testConfig } from './helpers/test-app.js';

// Several control planes on one config store share their keys (platform/crypto/key-check.ts): the
// first to start records check values of its installation secret and token signing secret; a
// control plane with another secret is refused when it builds, with a message that says what to
// set, and a token secret rolls through the control planes only by way of the previous secrets.

const SECRET = 'test-secret-0123456789-0123456789-0123456789';
const OLD_TOKEN = SECRET;
const NEW_TOKEN = 'next-token-secret-0123456789-0123456789-0123';

let a: TestApp;

beforeAll(async () => {
  a = await createTestApp();
});
afterAll(async () => a?.close());

/** Builds a second control plane's app on A's config store with these secrets; closed again when it builds. */
async function second(secrets: { secret?: string; token?: string; previous?: string[] }): Promise<void> {
  const analytics = await createTestAnalyticsStore();
  // A's database is shared: the second app must not close it when it closes.
  const database = { ...a.db.database, close: async () => undefined };
  try {
    const app = await buildApp({
      analytics,
      database,
      logger: false,
      config: testConfig({
        logLevel: 'silent',
        secret: secrets.secret ?? SECRET,
        tokenSecrets: { current: secrets.token ?? secrets.secret ?? SECRET, previous: secrets.previous ?? [] },
        publicUrl: undefined,
        alertsTickMs: 0,
        dbBackupTickMs: 0,
      }),
    });
    await app.close();
  } finally {
    await analytics.close().catch(() => undefined);
  }
}

describe('the keys of several control planes on one config store', () => {
  it('builds a second control plane with the same secrets', async () => {
    await expect(second({})).resolves.toBeUndefined();
  });

  it('refuses a second control plane with another installation secret, saying what to set', async () => {
    const refused = second({ secret: 'another-secret-0123456789-0123456789-01234' });
    await expect(refused).rejects.toBeInstanceOf(KeyMismatchError);
    await expect(refused).rejects.toThrow(/Give every control plane the same RAMPART_SECRET/);
  });

  it('refuses a token signing secret the installation does not use, and lets a rotation roll through', async () => {
    await expect(second({ token: NEW_TOKEN })).rejects.toThrow(/RAMPART_TOKEN_SECRET/);
    // The first control plane moved on keeps the secret in use as a previous one ...
    await expect(second({ token: NEW_TOKEN, previous: [OLD_TOKEN] })).resolves.toBeUndefined();
    // ... one not moved yet accepts the new one already, and starts ...
    await expect(second({ token: OLD_TOKEN, previous: [NEW_TOKEN] })).resolves.toBeUndefined();
    // ... and one with neither is refused.
    await expect(
      second({
        token: 'unrelated-token-secret-0123456789-0123456789',
        previous: ['unrelated-previous-secret-0123456789-0123456'],
      }),
    ).rejects.toThrow(/RAMPART_TOKEN_SECRET/);
  });
});
