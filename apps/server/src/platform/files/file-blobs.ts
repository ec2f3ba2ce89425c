import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { isForeignKeyViolation } from '../db/errors.js';
import type { Transactions } from '../db/request-transaction.js';
import type { FileBlobKind, FileBlobsRepository } from './file-blobs.repository.js';
import { WorkDir } from './work-dir.js';

/** Bytes per chunk row: a reader holds at most one chunk of a blob in memory. */
export const FILE_BLOB_CHUNK_BYTES = 1024 * 1024;
const SHA256 = /^[0-9a-f]{64}$/;
/** How often a control plane sweeps unused blobs and its cache (also once at start). */
export const FILE_BLOB_SWEEP_MS = 10 * 60_000;

/** Where a blob's bytes come from: in memory, or a file read twice (hashed, then written). */
export type BlobSource = Buffer | { file: string };

/** One use of a blob: what it is, which one, and whose. */
export interface BlobUse {
  kind: FileBlobKind;
  ref: string;
  ownerId: number;
}

async function* chunksOf(source: BlobSource): AsyncGenerator<Buffer> {
  if (Buffer.isBuffer(source)) {
    // An empty file is one empty chunk.
    let at = 0;
    do {
      yield source.subarray(at, at + FILE_BLOB_CHUNK_BYTES);
      at += FILE_BLOB_CHUNK_BYTES;
    } while (at < source.length);
    return;
  }
  // Whole chunks whatever sizes the stream reads in.
  let pending: Buffer[] = [];
  let size = 0;
  let yielded = false;
  for await (const piece of createReadStream(source.file, { highWaterMark: FILE_BLOB_CHUNK_BYTES })) {
    let rest = piece as Buffer;
    while (size + rest.length >= FILE_BLOB_CHUNK_BYTES) {
      const take = FILE_BLOB_CHUNK_BYTES - size;
      pending.push(rest.subarray(0, take));
      yield Buffer.concat(pending);
      yielded = true;
      rest = rest.subarray(take);
      pending = [];
      size = 0;
    }
    if (rest.length > 0) {
      pending.push(rest);
      size += rest.length;
    }
  }
  if (size > 0 || !yielded) yield Buffer.concat(pending);
}

async function digest(source: BlobSource): Promise<{ sha256: string; size: number; chunks: number }> {
  const hash = createHash('sha256');
  let size = 0;
  let chunks = 0;
  for await (const chunk of chunksOf(source)) {
    hash.update(chunk);
    size += chunk.length;
    chunks += 1;
  }
  return { sha256: hash.digest('hex'), size, chunks };
}

/**
 * Files that any control plane of an installation must be able to serve (docs: "Several control
 * planes"), kept in the config store as content-addressed blobs (file-blobs.repository.ts). A blob
 * is written with its chunks and its use in one transaction, so it is visible only when complete
 * and a failure leaves nothing behind; a blob no use names any longer is removed. Reading goes
 * through this process' disk cache (`DATA_DIR/blob-cache/<sha256>`, a temporary directory without
 * a data dir), filled chunk by chunk and checked against the hash before it is used.
 */
export class FileBlobStore {
  private readonly cache: WorkDir;
  private readonly filling = new Map<string, Promise<string | null>>();

  constructor(
    private readonly repo: FileBlobsRepository,
    private readonly transactions: Transactions,
    dataDir: string | undefined,
  ) {
    this.cache = WorkDir.under(dataDir, 'blob-cache');
  }

  dispose(): Promise<void> {
    return this.cache.dispose();
  }

  /**
   * Stores the bytes (unless the same blob is stored) and points `use` at them, releasing what it
   * named before; `expect`: the hash the bytes must have (an earlier version's file named by it).
   */
  async put(source: BlobSource, use: BlobUse, expect?: string): Promise<{ sha256: string; size: number }> {
    const { sha256, size, chunks } = await digest(source);
    if (expect !== undefined && expect !== sha256) {
      throw new Error(`${use.kind} ${use.ref}: the file's SHA-256 is ${sha256}, not ${expect}`);
    }
    await this.transactions.run(async () => {
      if (await this.repo.insert(sha256, size, chunks)) {
        const hash = createHash('sha256');
        let seq = 0;
        for await (const chunk of chunksOf(source)) {
          hash.update(chunk);
          await this.repo.insertChunk(sha256, seq, chunk);
          seq += 1;
        }
        // A file changed between the two reads must not be stored under the other hash.
        if (hash.digest('hex') !== sha256 || seq !== chunks) {
          throw new Error(`the file changed while it was stored (${use.kind} ${use.ref})`);
        }
      }
      const before = await this.repo.setRef(use.kind, use.ref, use.ownerId, sha256);
      if (before !== null && before !== sha256) await this.removeIfUnused(before);
    });
    return { sha256, size };
  }

  /** The blob a use names, or null. */
  refOf(kind: FileBlobKind, ref: string): Promise<string | null> {
    return this.repo.refOf(kind, ref);
  }

  /** Ends uses; their blobs go when nothing else names them. */
  async release(kind: FileBlobKind, refs: readonly string[]): Promise<void> {
    await this.transactions.run(async () => {
      for (const sha256 of new Set(await this.repo.dropRefs(kind, refs))) await this.removeIfUnused(sha256);
    });
  }

  /** Ends every use of a kind except `keep`. */
  async releaseExcept(kind: FileBlobKind, keep: readonly string[]): Promise<void> {
    await this.transactions.run(async () => {
      for (const sha256 of new Set(await this.repo.dropRefsExcept(kind, keep))) await this.removeIfUnused(sha256);
    });
  }

  /**
   * Removes the blob unless a use names it. A use added at the same moment by another transaction
   * makes the delete fail on the reference (the blob stays): a savepoint keeps that failure from
   * ending the caller's transaction.
   */
  private async removeIfUnused(sha256: string): Promise<void> {
    try {
      await this.transactions.run(() => this.repo.deleteUnreferenced(sha256));
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
    }
  }

  /** Removes blobs no use names (uses gone with their account) and cached files of blobs that are gone. */
  async sweep(): Promise<void> {
    for (const sha256 of await this.repo.unreferenced()) await this.removeIfUnused(sha256);
    const dir = await this.cache.path();
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return;
    }
    const cached = names.filter((n) => SHA256.test(n));
    const kept = await this.repo.existing(cached);
    for (const name of names) {
      if (!kept.has(name) && !this.filling.has(name)) await rm(path.join(dir, name), { force: true });
    }
  }

  /** The path of the blob in this process' cache, filled from the config store first; null: no such blob. */
  async cached(sha256: string): Promise<string | null> {
    if (!SHA256.test(sha256)) return null;
    const dir = await this.cache.path();
    const file = path.join(dir, sha256);
    // A cached copy is used only while the blob exists: one removed elsewhere is not served.
    if (!(await this.repo.find(sha256))) {
      await rm(file, { force: true });
      return null;
    }
    try {
      await (await open(file, 'r')).close();
      return file;
    } catch {
      // not cached yet
    }
    let fill = this.filling.get(sha256);
    if (!fill) {
      fill = this.fill(dir, sha256).finally(() => this.filling.delete(sha256));
      this.filling.set(sha256, fill);
    }
    return fill;
  }

  private async fill(dir: string, sha256: string): Promise<string | null> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const blob = await this.repo.find(sha256);
    if (!blob) return null;
    const temp = path.join(dir, `.${randomBytes(8).toString('hex')}.tmp`);
    const out = await open(temp, 'w', 0o600);
    const hash = createHash('sha256');
    let size = 0;
    try {
      for (let seq = 0; seq < blob.chunks; seq++) {
        const chunk = await this.repo.chunk(sha256, seq);
        // Removed while it was read.
        if (chunk === null) return null;
        hash.update(chunk);
        size += chunk.length;
        await out.write(chunk);
      }
      await out.close();
      if (hash.digest('hex') !== sha256 || size !== blob.size) {
        throw new Error(`blob ${sha256} does not match its hash in the config store`);
      }
      const file = path.join(dir, sha256);
      await rename(temp, file);
      return file;
    } finally {
      await out.close().catch(() => undefined);
      await rm(temp, { force: true });
    }
  }

  /** The blob's bytes (for files read whole, such as a MaxMind database), or null. */
  async read(sha256: string): Promise<Buffer | null> {
    const file = await this.cached(sha256);
    if (file === null) return null;
    try {
      return await readFile(file);
    } catch {
      return null;
    }
  }

  /** The blob as a stream from the cache, or null. */
  async stream(sha256: string): Promise<Readable | null> {
    const file = await this.cached(sha256);
    if (file === null) return null;
    const stream = createReadStream(file);
    return new Promise((resolve) => {
      stream.once('open', () => resolve(stream));
      stream.once('error', () => resolve(null));
    });
  }
}
