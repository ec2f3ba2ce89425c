import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockStore, StoreLockedError } from '../src/platform/db/store-lock.js';
import { killHard, start, startRefused, stop } from './helpers/server-process.js';
import { TEST_PASSWORD } from './helpers/test-app.js';

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'rampart-lock-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the lock of a store directory', () => {
  it('refuses a second holder, names the first, and is free again once released', async () => {
    const dir = path.join(dataDir, 'store');
    const first = await lockStore(dir, 'test store');
    const refused = await lockStore(dir, 'test store').then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(StoreLockedError);
    expect((refused as Error).message).toBe(
      `the test store at ${dir} is in use by another Rampart control plane (process ${process.pid}); stop it first, or give this one another DATA_DIR`,
    );
    await first.release();
    const again = await lockStore(dir, 'test store');
    await again.release();
  });

  it("keeps its helper out of the holder's process group, so a terminal's Ctrl-C does not end it before the store is closed", async () => {
    const dir = path.join(dataDir, 'group');
    const lock = await lockStore(dir, 'test store');
    try {
      const helpers = execFileSync('ps', ['-o', 'pgid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' })
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .filter(([, comm]) => comm === 'flock');
      const ownGroup = execFileSync('ps', ['-o', 'pgid=', '-p', String(process.pid)], { encoding: 'utf8' }).trim();
      expect(helpers).toHaveLength(1);
      expect(helpers[0]?.[0]).not.toBe(ownGroup);
    } finally {
      await lock.release();
    }
  });
});

describe('two control planes on one DATA_DIR (embedded database)', () => {
  it('refuses the second start with a message; after a kill -9 of the first a new start takes over with its data', async () => {
    const env = { DATA_DIR: dataDir, RAMPART_INIT_PASSWORD: TEST_PASSWORD };
    const first = await start(env);
    // An acknowledged write of the first process.
    const login = await fetch(`${first.url}/api/v1/client/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'client', password: TEST_PASSWORD }),
    });
    const tokens = ((await login.json()) as { data: { accessToken: string } }).data;
    const zone = await fetch(`${first.url}/api/v1/client/zone`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.accessToken}` },
      body: JSON.stringify({ name: 'kept' }),
    });
    expect(zone.status).toBe(200);

    const second = await startRefused(env).catch(async (error: unknown) => {
      // A start that was not refused: neither process may outlive the test.
      await killHard(first);
      throw error;
    });
    expect(second.code).toBe(3);
    expect(second.output).toContain(
      `rampart: the embedded database at ${path.join(dataDir, 'pglite')} is in use by another Rampart control plane (process ${first.child.pid}); stop it first, or give this one another DATA_DIR`,
    );

    await killHard(first);
    const third = await start(env);
    const again = await fetch(`${third.url}/api/v1/client/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'client', password: TEST_PASSWORD }),
    });
    const fresh = ((await again.json()) as { data: { accessToken: string } }).data;
    const zones = await fetch(`${third.url}/api/v1/client/zones?page=1&pageSize=10`, {
      headers: { authorization: `Bearer ${fresh.accessToken}` },
    });
    const names = ((await zones.json()) as { data: { name: string }[] }).data.map((z) => z.name);
    expect(names).toEqual(['kept']);
    expect(await stop(third)).toBe(0);
  }, 400_000);
});
