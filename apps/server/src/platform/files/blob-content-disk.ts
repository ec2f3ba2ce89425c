import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { BlobCommit, BlobContent, BlobInfo, BlobSource } from './blob-content.js';
import { piecesOf } from './blob-content.js';
import type { FileBlobsRepository } from './file-blobs.repository.js';
import { WorkDir } from './work-dir.js';

const SHA256 = /^[0-9a-f]{64}$/;
const PIECE_BYTES = 1024 * 1024;

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await stat(file)).size;
  } catch {
    return null;
  }
}

/**
 * Blob content as files (`DATA_DIR/blobs/<sha256>`, a temporary directory without a data dir), for
 * the embedded PGlite: only this process opens its store, so the bytes need not be in it, where
 * writing them is slow and holds its one connection. A file is written beside its place, synced,
 * checked against its hash and renamed into place before the blob's row is committed; a file
 * without a row (a failed write, a removed blob) is removed after the removal commits or by the
 * sweep.
 *
 * A content file is removed only when no row names it, no write of it is running and none
 * started since the row was looked up: `writing` and `writes`, checked in the same turn of the
 * event loop as the (synchronous) unlink, so a write that finds the file in place never loses it.
 */
export class DiskBlobContent implements BlobContent {
  private readonly dir: WorkDir;
  /** Writes of each blob in progress. */
  private readonly writing = new Map<string, number>();
  /** Writes started, ever: a removal decided before one started does not happen. */
  private writes = 0;
  private readonly temps = new Set<string>();

  constructor(
    private readonly repo: FileBlobsRepository,
    dataDir: string | undefined,
  ) {
    this.dir = WorkDir.under(dataDir, 'blobs');
  }

  dispose(): Promise<void> {
    return this.dir.dispose();
  }

  async put(source: BlobSource, what: string, commit: BlobCommit, expect?: string): Promise<BlobInfo> {
    const dir = await this.dir.path();
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const temp = path.join(dir, `.${randomBytes(8).toString('hex')}.tmp`);
    this.temps.add(temp);
    try {
      // One read: the bytes hashed are the bytes written.
      const out = await open(temp, 'w', 0o600);
      const hash = createHash('sha256');
      let size = 0;
      try {
        for await (const piece of piecesOf(source, PIECE_BYTES)) {
          hash.update(piece);
          size += piece.length;
          await out.write(piece);
        }
        await out.sync();
      } finally {
        await out.close();
      }
      const blob: BlobInfo = { sha256: hash.digest('hex'), size, chunks: 0 };
      if (expect !== undefined && expect !== blob.sha256) {
        throw new Error(`${what}: the file's SHA-256 is ${blob.sha256}, not ${expect}`);
      }
      this.writing.set(blob.sha256, (this.writing.get(blob.sha256) ?? 0) + 1);
      this.writes += 1;
      let committed = false;
      try {
        const file = path.join(dir, blob.sha256);
        // In place already (the same bytes stored before), or (again) now.
        if ((await sizeOf(file)) !== size) {
          await rename(temp, file);
          await syncDir(dir);
        }
        await commit(blob, async () => undefined);
        committed = true;
      } finally {
        const left = (this.writing.get(blob.sha256) ?? 1) - 1;
        if (left === 0) this.writing.delete(blob.sha256);
        else this.writing.set(blob.sha256, left);
        // Its row was not written: the file goes unless another row names it. Not awaited: inside a
        // caller's transaction the check waits for that transaction (PGlite's one connection).
        if (!committed) void this.removeUnrecorded([blob.sha256]).catch(() => undefined);
      }
      return blob;
    } finally {
      this.temps.delete(temp);
      await rm(temp, { force: true });
    }
  }

  async file(blob: BlobInfo): Promise<string | null> {
    const file = path.join(await this.dir.path(), blob.sha256);
    const size = await sizeOf(file);
    if (size === blob.size) return file;
    throw new Error(
      `blob ${blob.sha256} is recorded in the config store but its file ${file} is ${size === null ? 'missing' : `${size} bytes, not ${blob.size}`}; storing the same file again restores it`,
    );
  }

  /** Kept: the content is removed only once no row names it (removed, sweep). */
  async gone(): Promise<void> {}

  async removed(sha256: string): Promise<void> {
    await this.removeUnrecorded([sha256]);
  }

  /** Removes content files without a row and abandoned partial files; answers blobs whose file is missing. */
  async sweep(): Promise<string[]> {
    const dir = await this.dir.path();
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      names = [];
    }
    for (const name of names) {
      const file = path.join(dir, name);
      if (name.endsWith('.tmp') && !this.temps.has(file)) await rm(file, { force: true });
    }
    await this.removeUnrecorded(names.filter((n) => SHA256.test(n)));
    const present = new Set(names);
    return (await this.repo.all()).filter((sha256) => !present.has(sha256) && !this.writing.has(sha256));
  }

  private async removeUnrecorded(hashes: readonly string[]): Promise<void> {
    const writes = this.writes;
    const candidates = hashes.filter((h) => SHA256.test(h) && !this.writing.has(h));
    if (candidates.length === 0) return;
    const recorded = await this.repo.existing(candidates);
    if (this.writes !== writes) return;
    const dir = await this.dir.path();
    if (this.writes !== writes) return;
    // Synchronous, so that no write starts between the check above and the unlink.
    for (const sha256 of candidates) {
      if (!recorded.has(sha256)) rmSync(path.join(dir, sha256), { force: true });
    }
  }
}
