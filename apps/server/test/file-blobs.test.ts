import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { transactionScoped } from '../src/platform/db/request-transaction.js';
import { FILE_BLOB_CHUNK_BYTES, FileBlobStore } from '../src/platform/files/file-blobs.js';
import { FileBlobsRepository } from '../src/platform/files/file-blobs.repository.js';
import { rootId } from './helpers/accounts.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { TEST_DB_KIND } from './helpers/test-db.js';

// The config store's blobs (platform/files/file-blobs.ts): what any control plane must serve is
// kept there — on PostgreSQL in chunks of at most 1 MiB read back through a disk cache that is
// checked against the hash, on PGlite as files under DATA_DIR with only the rows in the database —
// written all or nothing, and removed with its last use.

let t: TestApp;
let cacheDir: string;
let store: FileBlobStore;
let owner: number;
/** The transactions the store runs in: one per database, as in the app (a second would wait on the first). */
let transactions: ReturnType<typeof transactionScoped>;
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await t.db.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}
const blobCount = async () => Number((await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM file_blobs`))[0]?.n);
const chunkCount = async () =>
  Number((await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM file_blob_chunks`))[0]?.n);
const onPglite = TEST_DB_KIND === 'pglite';
/** Where this process keeps a blob's bytes as a file: its content on PGlite, its cached copy on PostgreSQL. */
const localDir = () => path.join(cacheDir, onPglite ? 'blobs' : 'blob-cache');
const localFile = (sha256: string) => path.join(localDir(), sha256);
/** Content files no blob row names (PGlite). */
async function unrecordedFiles(): Promise<string[]> {
  const names = await readdir(localDir()).catch(() => [] as string[]);
  const recorded = new Set((await rows<{ sha256: string }>(sql`SELECT sha256 FROM file_blobs`)).map((r) => r.sha256));
  return names.filter((n) => !recorded.has(n));
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await rootId(t.app, 'user');
  cacheDir = await mkdtemp(path.join(tmpdir(), 'rampart-blobs-test-'));
  transactions = transactionScoped(t.db.database.db);
  expect(t.db.database.source.kind).toBe(TEST_DB_KIND);
  store = FileBlobStore.for(TEST_DB_KIND, new FileBlobsRepository(transactions.db), transactions, cacheDir);
});
afterAll(async () => {
  await t?.close();
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
});

describe('blobs in the config store', () => {
  it.runIf(!onPglite)('keeps a file in chunks of at most 1 MiB and reads it back through the cache', async () => {
    const bytes = randomBytes(2 * FILE_BLOB_CHUNK_BYTES + 1);
    const file = path.join(cacheDir, 'upload.bin');
    await writeFile(file, bytes);
    const put = await store.put({ file }, { kind: 'log-export', ref: '1', ownerId: owner });
    expect(put).toEqual({ sha256: sha(bytes), size: bytes.length });
    const sizes = await rows<{ seq: number; n: number }>(
      sql`SELECT seq, length(data) AS n FROM file_blob_chunks WHERE sha256 = ${put.sha256} ORDER BY seq`,
    );
    expect(sizes.map((r) => [r.seq, Number(r.n)])).toEqual([
      [0, FILE_BLOB_CHUNK_BYTES],
      [1, FILE_BLOB_CHUNK_BYTES],
      [2, 1],
    ]);
    expect((await store.read(put.sha256))?.equals(bytes)).toBe(true);
    expect(await readdir(path.join(cacheDir, 'blob-cache'))).toEqual([put.sha256]);
  });

  it.runIf(onPglite)('on PGlite keeps the content as a file under the data directory, without chunk rows', async () => {
    const bytes = randomBytes(2 * FILE_BLOB_CHUNK_BYTES + 1);
    const file = path.join(cacheDir, 'upload.bin');
    await writeFile(file, bytes);
    const chunks = await chunkCount();
    const put = await store.put({ file }, { kind: 'log-export', ref: '1', ownerId: owner });
    expect(put).toEqual({ sha256: sha(bytes), size: bytes.length });
    expect(await rows(sql`SELECT 1 FROM file_blobs WHERE sha256 = ${put.sha256}`)).toHaveLength(1);
    expect(await chunkCount()).toBe(chunks);
    expect((await readFile(localFile(put.sha256))).equals(bytes)).toBe(true);
    // Read from that file: no second copy, no partial file left beside it.
    expect(await store.cached(put.sha256)).toBe(localFile(put.sha256));
    expect((await store.read(put.sha256))?.equals(bytes)).toBe(true);
    expect(await readdir(localDir())).toEqual([put.sha256]);
    expect(existsSync(path.join(cacheDir, 'blob-cache'))).toBe(false);
  });

  it('stores the same bytes once for two uses and removes them with the last', async () => {
    const bytes = randomBytes(1000);
    await store.put(bytes, { kind: 'geo', ref: String(owner), ownerId: owner });
    await store.put(bytes, { kind: 'asn', ref: String(owner), ownerId: owner });
    const blobs = await blobCount();
    await store.release('geo', [String(owner)]);
    expect(await blobCount()).toBe(blobs);
    expect((await store.read(sha(bytes)))?.equals(bytes)).toBe(true);
    await store.release('asn', [String(owner)]);
    expect(await blobCount()).toBe(blobs - 1);
    expect(await store.read(sha(bytes))).toBeNull();
    // Its cached copy (PGlite: its content file, once the removal committed) goes with it: nothing removed is served.
    await vi.waitFor(() => expect(existsSync(localFile(sha(bytes)))).toBe(false));
  });

  it('replacing a use removes the blob it named', async () => {
    const first = randomBytes(500);
    const second = randomBytes(500);
    await store.put(first, { kind: 'geo', ref: 'replaced', ownerId: owner });
    await store.put(second, { kind: 'geo', ref: 'replaced', ownerId: owner });
    expect(await store.read(sha(first))).toBeNull();
    expect((await store.read(sha(second)))?.equals(second)).toBe(true);
    await store.release('geo', ['replaced']);
  });

  it('leaves nothing half-written when the write fails', async () => {
    const blobs = await blobCount();
    const chunks = await chunkCount();
    // Its chunks are written, then the use names an account that does not exist.
    await expect(
      store.put(randomBytes(FILE_BLOB_CHUNK_BYTES + 10), { kind: 'log-export', ref: '2', ownerId: 999_999_999 }),
    ).rejects.toThrow();
    expect(await blobCount()).toBe(blobs);
    expect(await chunkCount()).toBe(chunks);
    await vi.waitFor(async () => expect(await unrecordedFiles()).toEqual([]));
    // And a caller's transaction that fails after the write takes the blob with it.
    await expect(
      transactions.run(async () => {
        await store.put(randomBytes(100), { kind: 'log-export', ref: '3', ownerId: owner });
        throw new Error('the caller fails after the write');
      }),
    ).rejects.toThrow('the caller fails');
    expect(await blobCount()).toBe(blobs);
    expect(await store.refOf('log-export', '3')).toBeNull();
    // On PGlite its file was in place before the row: the sweep removes a file without a row.
    await store.sweep();
    expect(await unrecordedFiles()).toEqual([]);
    expect((await readdir(localDir()).catch(() => [] as string[])).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it.runIf(!onPglite)('refuses a chunk that does not match the hash, caching nothing', async () => {
    const bytes = randomBytes(3000);
    await store.put(bytes, { kind: 'log-export', ref: '4', ownerId: owner });
    await t.db.database.db.execute(
      sql`UPDATE file_blob_chunks SET data = ${randomBytes(3000)} WHERE sha256 = ${sha(bytes)}`,
    );
    await expect(store.read(sha(bytes))).rejects.toThrow(/does not match its hash/);
    expect(existsSync(path.join(cacheDir, 'blob-cache', sha(bytes)))).toBe(false);
    // Nor a partial file of the fill.
    expect((await readdir(path.join(cacheDir, 'blob-cache'))).filter((n) => n.startsWith('.'))).toEqual([]);
    await store.release('log-export', ['4']);
  });

  it.runIf(onPglite)(
    'on PGlite reports a blob whose file is missing, and storing the file again restores it',
    async () => {
      const bytes = randomBytes(3000);
      await store.put(bytes, { kind: 'log-export', ref: '4', ownerId: owner });
      await rm(localFile(sha(bytes)));
      await expect(store.read(sha(bytes))).rejects.toThrow(/is missing; storing the same file again restores it/);
      expect((await store.sweep()).missing).toEqual([sha(bytes)]);
      await store.put(bytes, { kind: 'log-export', ref: '4', ownerId: owner });
      expect((await store.read(sha(bytes)))?.equals(bytes)).toBe(true);
      expect((await store.sweep()).missing).toEqual([]);
      await store.release('log-export', ['4']);
    },
  );

  it('sweeps blobs no use names and cached copies of blobs that are gone', async () => {
    const bytes = randomBytes(200);
    await store.put(bytes, { kind: 'log-export', ref: '5', ownerId: owner });
    await store.read(sha(bytes));
    // A use gone without the store (its account deleted): the blob stays until the sweep.
    await t.db.database.db.execute(sql`DELETE FROM file_blob_refs WHERE kind = 'log-export' AND ref = '5'`);
    await store.sweep();
    expect(await rows(sql`SELECT 1 FROM file_blobs WHERE sha256 = ${sha(bytes)}`)).toEqual([]);
    expect(existsSync(localFile(sha(bytes)))).toBe(false);
  });
});

describe("an earlier version's files in DATA_DIR", () => {
  it('are moved into the config store at start-up, once: geo databases and log export files', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'rampart-legacy-'));
    try {
      const { importLegacyGeoFiles } = await import('../src/modules/geo/geo-database-import.js');
      const { GeoDatabaseService } = await import('../src/modules/geo/geo-database.service.js');
      const { SettingsRepository } = await import('../src/platform/settings/settings.repository.js');
      const { geoRecord, writeMmdb } = await import('@rampart/contract/testing');
      const geo = new GeoDatabaseService(new SettingsRepository(transactions.db), store, transactions);
      const operator = await rootId(t.app, 'client');
      const bytes = writeMmdb([{ cidr: '192.0.2.0/24', data: geoRecord('FR') }], { databaseType: 'GeoLite2-Country' });
      // What an earlier version left: the record in system_settings, the file under DATA_DIR.
      await new SettingsRepository(transactions.db).put(`geo.database.${operator}`, { sha256: sha(bytes) });
      const dir = path.join(dataDir, 'geo', String(operator));
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, `${sha(bytes)}.mmdb`), bytes);
      const stale = randomBytes(64);
      await writeFile(path.join(dir, `${sha(stale)}.mmdb`), stale);
      const errors: unknown[] = [];
      expect(await importLegacyGeoFiles(geo, store, dataDir, (e) => errors.push(e))).toBe(1);
      expect(errors).toEqual([]);
      expect((await geo.file('geo', operator, sha(bytes)))?.equals(bytes)).toBe(true);
      expect(existsSync(path.join(dataDir, 'geo'))).toBe(false);
      expect(await store.read(sha(stale))).toBeNull();
      // The next start finds nothing to move.
      expect(await importLegacyGeoFiles(geo, store, dataDir, (e) => errors.push(e))).toBe(0);

      // Log export files: a done export's file is stored under its id, another's removed.
      const { LogExportFiles } = await import('../src/modules/log-exports/log-export-files.js');
      const files = new LogExportFiles(dataDir, store);
      const exported = randomBytes(FILE_BLOB_CHUNK_BYTES + 5);
      await writeFile(path.join(await files.dir(), '7'), exported);
      await writeFile(path.join(await files.dir(), '8'), randomBytes(10));
      const exportOf = async (id: number) => (id === 7 ? { accountId: owner, status: 'done' } : null);
      expect(await files.importLegacy(exportOf, (e) => errors.push(e))).toBe(1);
      expect(errors).toEqual([]);
      expect(await readdir(await files.dir())).toEqual([]);
      const stream = await files.open(7);
      const read: Buffer[] = [];
      for await (const piece of stream ?? []) read.push(piece as Buffer);
      expect(Buffer.concat(read).equals(exported)).toBe(true);
      expect(await files.importLegacy(exportOf, (e) => errors.push(e))).toBe(0);
      await files.remove(7);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
