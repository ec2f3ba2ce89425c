import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { BlobCommit, BlobContent, BlobInfo, BlobSource } from './blob-content.js';
import type { FileBlobsRepository } from './file-blobs.repository.js';
import { WorkDir } from './work-dir.js';

/** Bytes per chunk row: a reader holds at most one chunk of a blob in memory. */
export const FILE_BLOB_CHUNK_BYTES = 1024 * 1024;
const SHA256 = /^[0-9a-f]{64}$/;

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

async function digest(source: BlobSource): Promise<BlobInfo> {
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
 * Blob content in chunk rows of the config store (`file_blob_chunks`), for PostgreSQL: every
 * control plane on it reads the same bytes. The chunks are written in the transaction that inserts
 * the blob's row (so they are visible only when complete and go with it: cascade), and read
 * through this process' disk cache (`DATA_DIR/blob-cache/<sha256>`, a temporary directory without
 * a data dir), filled chunk by chunk and checked against the hash before it is used.
 */
export class ChunkBlobContent implements BlobContent {
  private readonly cache: WorkDir;
  private readonly filling = new Map<string, Promise<string | null>>();

  constructor(
    private readonly repo: FileBlobsRepository,
    dataDir: string | undefined,
  ) {
    this.cache = WorkDir.under(dataDir, 'blob-cache');
  }

  dispose(): Promise<void> {
    return this.cache.dispose();
  }

  async put(source: BlobSource, what: string, commit: BlobCommit, expect?: string): Promise<BlobInfo> {
    const blob = await digest(source);
    if (expect !== undefined && expect !== blob.sha256) {
      throw new Error(`${what}: the file's SHA-256 is ${blob.sha256}, not ${expect}`);
    }
    await commit(blob, async () => {
      const hash = createHash('sha256');
      let seq = 0;
      for await (const chunk of chunksOf(source)) {
        hash.update(chunk);
        await this.repo.insertChunk(blob.sha256, seq, chunk);
        seq += 1;
      }
      // A file changed between the two reads must not be stored under the other hash.
      if (hash.digest('hex') !== blob.sha256 || seq !== blob.chunks) {
        throw new Error(`the file changed while it was stored (${what})`);
      }
    });
    return blob;
  }

  /** The chunks went with the row (cascade): only this process' cached copy is left to drop. */
  async removed(sha256: string): Promise<void> {
    await this.gone(sha256);
  }

  async gone(sha256: string): Promise<void> {
    await rm(path.join(await this.cache.path(), sha256), { force: true });
  }

  /** Cached copies of blobs that are gone (removed by any control plane); no content can be missing. */
  async sweep(): Promise<string[]> {
    const dir = await this.cache.path();
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return [];
    }
    const kept = await this.repo.existing(names.filter((n) => SHA256.test(n)));
    for (const name of names) {
      if (!kept.has(name) && !this.filling.has(name)) await rm(path.join(dir, name), { force: true });
    }
    return [];
  }

  async file(blob: BlobInfo): Promise<string | null> {
    const dir = await this.cache.path();
    const file = path.join(dir, blob.sha256);
    try {
      await (await open(file, 'r')).close();
      return file;
    } catch {
      // not cached yet
    }
    let fill = this.filling.get(blob.sha256);
    if (!fill) {
      fill = this.fill(dir, blob.sha256).finally(() => this.filling.delete(blob.sha256));
      this.filling.set(blob.sha256, fill);
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
}
