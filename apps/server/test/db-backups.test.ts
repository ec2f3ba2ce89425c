import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  type AnyRoute,
  createDbBackup,
  type DbBackup,
  deleteDbBackup,
  downloadDbBackup,
  getDbBackupSetting,
  listDbBackups,
  putDbBackupSetting,
  restoreDbBackup,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/platform/db/database.js';
import { addAccount, giveRole, rootId, signInOtherOperator } from './helpers/accounts.js';
import { manualClock, signIn } from './helpers/auth.js';
import { fieldNames, sendAs, type Token } from './helpers/call.js';
import { operatorCalls } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { TEST_DB_KIND, type TestDatabase } from './helpers/test-db.js';

// Backups of the config store (contract routes/db-backups.ts) on the project's store: PostgreSQL
// through pg_dump and psql, PGlite (on disk in a data directory, as an install runs it) through its
// data directory's tarball, restored at the next start.

const clock = manualClock(Date.UTC(2026, 10, 20, 8, 0, 0));
const dataDir = mkdtempSync(path.join(tmpdir(), 'rampart-backups-test-'));
let t: TestApp;
let client: Token;
let rival: Token;
let sub: Token;

const as = <R extends AnyRoute>(who: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, who, route, ...args);

/** The PGlite project's store is opened from the data directory, so that a restart can be made. */
async function pgliteOnDisk(): Promise<TestDatabase> {
  const opened = await openDatabase({ databaseUrl: undefined, dataDir });
  await opened.migrate();
  // The app closes it; closing twice would fail.
  let closed: Promise<void> | null = null;
  const database = { ...opened, close: () => (closed ??= opened.close()) };
  return { database, url: null, drop: () => database.close() };
}

async function zoneNames(database: Database = t.db.database): Promise<string[]> {
  const result = (await database.db.execute(sql`SELECT name FROM zones ORDER BY name`)) as unknown as {
    rows: { name: string }[];
  };
  return result.rows.map((row) => row.name);
}

async function backUp(): Promise<DbBackup> {
  const res = await as(client, createDbBackup, {});
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().data.status).toBe('running');
  await t.app.rampart.dbBackups.whenIdle();
  const list = await as(client, listDbBackups, { query: {} });
  const done = list.json().data.find((b) => b.id === res.json().data.id);
  expect(done?.status, JSON.stringify(done)).toBe('done');
  return done as DbBackup;
}

const fileOf = (backup: DbBackup) =>
  path.join(dataDir, 'backups', `${backup.id}.${backup.kind === 'postgres' ? 'sql.gz' : 'tar.gz'}`);

async function start() {
  t = await createTestApp({
    clock: clock.now,
    config: { dataDir },
    ...(TEST_DB_KIND === 'pglite' ? { db: await pgliteOnDisk() } : {}),
  });
  client = await signIn(t.app, 'client');
}

beforeAll(async () => {
  await start();
  rival = await signInOtherOperator(t.app);
  const sub1 = await addAccount(t.app, 'client', 'backup-sub', await rootId(t.app, 'client'));
  await giveRole(t.app, client, 'client', sub1);
  sub = await signIn(t.app, 'client', 'backup-sub');
});

afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('config store backups', () => {
  let first: DbBackup;

  it('backs up, lists and downloads the file whose SHA-256 it recorded', async () => {
    await operatorCalls(t.app, client).zone('before-backup');
    first = await backUp();
    expect(first.kind).toBe(TEST_DB_KIND);
    expect(first.trigger).toBe('manual');
    expect(first.migrations).toBeGreaterThan(40);
    expect(first.bytes).toBeGreaterThan(1000);
    const file = await as(client, downloadDbBackup, { params: { id: first.id } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/gzip');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="${first.fileName}"`);
    expect(createHash('sha256').update(file.rawPayload).digest('hex')).toBe(first.sha256);
  });

  it("answers only the installation's operator: another operator gets 101018, a sub-account with the settings permission passes", async () => {
    const listed = await as(sub, listDbBackups, { query: {} });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data.map((b) => b.id)).toEqual([first.id]);
    for (const who of [rival]) {
      for (const res of [
        await as(who, listDbBackups, { query: {} }),
        await as(who, createDbBackup, {}),
        await as(who, downloadDbBackup, { params: { id: first.id } }),
        await as(who, restoreDbBackup, { params: { id: first.id } }),
      ]) {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().code).toBe(101018);
      }
    }
    expect((await as(client, restoreDbBackup, { params: { id: 12345 } })).json().code).toBe(101018);
  });

  it('refuses a damaged file (its SHA-256 differs) and changes nothing', async () => {
    const extra = await backUp();
    const bytes = readFileSync(fileOf(extra));
    const middle = bytes.length >> 1;
    bytes.writeUInt8((bytes.readUInt8(middle) ^ 0xff) & 0xff, middle);
    writeFileSync(fileOf(extra), bytes);
    await operatorCalls(t.app, client).zone('after-damaged');
    const res = await as(client, restoreDbBackup, { params: { id: extra.id } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().extra.fields[0]).toMatchObject({ field: 'id', key: 'backupCorrupt' });
    expect(await zoneNames()).toContain('after-damaged');
    expect((await as(client, getDbBackupSetting, {})).json().data.pendingRestore).toBeNull();
    const removed = await as(client, deleteDbBackup, { params: { id: extra.id } });
    expect(removed.statusCode).toBe(200);
    expect((await as(client, listDbBackups, { query: {} })).json().data.map((b) => b.id)).not.toContain(extra.id);
  });

  it('refuses a file that matches its SHA-256 but does not restore, and changes nothing', async () => {
    const broken = await backUp();
    // The first half of a real backup, then a statement that fails: the restore stops part way.
    const original = readFileSync(fileOf(broken));
    const half =
      broken.kind === 'postgres'
        ? Buffer.concat([
            (await import('node:zlib')).gunzipSync(original).subarray(0, 20_000),
            Buffer.from('\n;\nTHIS IS NOT SQL;\n'),
          ])
        : Buffer.from('not a tarball');
    const damaged = gzipSync(half);
    writeFileSync(fileOf(broken), damaged);
    const manifest = path.join(dataDir, 'backups', `${broken.id}.json`);
    const stored = JSON.parse(readFileSync(manifest, 'utf8'));
    writeFileSync(manifest, JSON.stringify({ ...stored, sha256: createHash('sha256').update(damaged).digest('hex') }));
    const res = await as(client, restoreDbBackup, { params: { id: broken.id } });
    expect(res.statusCode, res.body).toBe(400);
    expect(fieldNames(res)).toEqual(['id']);
    expect(res.json().extra.fields[0].key).toBe('backupCorrupt');
    expect(await zoneNames()).toEqual(expect.arrayContaining(['after-damaged', 'before-backup']));
    expect((await as(client, getDbBackupSetting, {})).json().data.pendingRestore).toBeNull();
    await as(client, deleteDbBackup, { params: { id: broken.id } });
  });

  it('restores: the data is as it was when the backup was made', async () => {
    await operatorCalls(t.app, client).zone('after-backup');
    expect(await zoneNames()).toEqual(expect.arrayContaining(['after-backup', 'after-damaged', 'before-backup']));
    const res = await as(client, restoreDbBackup, { params: { id: first.id } });
    expect(res.statusCode, res.body).toBe(200);
    if (TEST_DB_KIND === 'postgres') {
      expect(res.json().data.staged).toBe(false);
    } else {
      // Staged: the running store is unchanged until the next start.
      expect(res.json().data.staged).toBe(true);
      expect((await as(client, getDbBackupSetting, {})).json().data.pendingRestore).toBe(first.id);
      expect(await zoneNames()).toContain('after-backup');
      await t.close();
      await start();
    }
    const names = await zoneNames();
    expect(names).toContain('before-backup');
    expect(names).not.toContain('after-backup');
    expect(names).not.toContain('after-damaged');
    // The app works on the restored store, and the backups made after it are still listed.
    client = await signIn(t.app, 'client');
    await operatorCalls(t.app, client).zone('after-restore');
    expect(await zoneNames()).toContain('after-restore');
    expect((await as(client, listDbBackups, { query: {} })).json().data.map((b) => b.id)).toContain(first.id);
  });

  it('backs up on the schedule and keeps the newest N', async () => {
    const put = await as(client, putDbBackupSetting, { body: { enabled: true, intervalHours: 2, keep: 2 } });
    expect(put.statusCode, put.body).toBe(200);
    const state = (await as(client, getDbBackupSetting, {})).json().data;
    expect(state.setting).toEqual({ enabled: true, intervalHours: 2, keep: 2 });
    // The newest backup is older than two hours on this clock's next steps.
    clock.advance(3 * 3600_000);
    await t.app.rampart.dbBackups.tick();
    await t.app.rampart.dbBackups.whenIdle();
    await t.app.rampart.dbBackups.tick(); // not due again yet
    await t.app.rampart.dbBackups.whenIdle();
    clock.advance(2 * 3600_000);
    await t.app.rampart.dbBackups.tick();
    await t.app.rampart.dbBackups.whenIdle();
    client = await signIn(t.app, 'client'); // the clock moved past the access token's life
    const list = (await as(client, listDbBackups, { query: {} })).json();
    expect(list.total).toBe(2);
    expect(list.data.map((b) => b.trigger)).toEqual(['scheduled', 'scheduled']);
    expect(list.data.every((b) => b.status === 'done')).toBe(true);
    const bad = await as(client, putDbBackupSetting, { body: { enabled: true, intervalHours: 0, keep: 200 } });
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad).sort()).toEqual(['intervalHours', 'keep']);
  });
});
