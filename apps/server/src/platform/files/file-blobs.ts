import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { isForeignKeyViolation } from '../db/errors.js';
import type { Transactions } from '../db/request-transaction.js';
import type { BlobContent, BlobSource } from './blob-content.js';
import { ChunkBlobContent } from './blob-content-chunks.js';
import { DiskBlobContent } from './blob-content-disk.js';
import type { FileBlobKind, FileBlobsRepository } from './file-blobs.repository.js';

export type { BlobSource } from './blob-content.js';
export { FILE_BLOB_CHUNK_BYTES } from './blob-content-chunks.js';

const SHA256 = /^[0-9a-f]{64}$/;
/** How often a control plane sweeps unused blobs and its cache (also once at start). */
export const FILE_BLOB_SWEEP_MS = 10 * 60_000;

/** One use of a blob: what it is, which one, and whose. */
export interface BlobUse {
  kind: FileBlobKind;
  ref: string;
  ownerId: number;
}

/**
 * Files that any control plane of an installation must be able to serve (docs: "Several control
 * planes"), as content-addressed blobs: a row per blob in the config store (file_blobs), its uses
 * (file_blob_refs), and its bytes where `content` keeps them (blob-content.ts): chunk rows on
 * PostgreSQL, files under DATA_DIR on the embedded PGlite (one control plane, and writing bytea
 * there is slow and holds its only connection). A blob's row and its use are written in one
 * transaction once its content is in place, so it is visible only when complete and a failure
 * leaves at most content without a row, which the sweep removes; a blob no use names any longer is
 * removed.
 */
export class FileBlobStore {
  constructor(
    private readonly repo: FileBlobsRepository,
    private readonly transactions: Transactions,
    private readonly content: BlobContent,
  ) {}

  /** The store for a config store of `kind`: blob content in chunk rows on PostgreSQL, in files under `dataDir` on PGlite. */
  static for(
    kind: 'postgres' | 'pglite',
    repo: FileBlobsRepository,
    transactions: Transactions,
    dataDir: string | undefined,
  ): FileBlobStore {
    const content = kind === 'pglite' ? new DiskBlobContent(repo, dataDir) : new ChunkBlobContent(repo, dataDir);
    return new FileBlobStore(repo, transactions, content);
  }

  dispose(): Promise<void> {
    return this.content.dispose();
  }

  /**
   * Stores the bytes (unless the same blob is stored) and points `use` at them, releasing what it
   * named before; `expect`: the hash the bytes must have (an earlier version's file named by it).
   */
  async put(source: BlobSource, use: BlobUse, expect?: string): Promise<{ sha256: string; size: number }> {
    const { sha256, size } = await this.content.put(
      source,
      `${use.kind} ${use.ref}`,
      (blob, writeRows) =>
        this.transactions.run(async () => {
          if (await this.repo.insert(blob.sha256, blob.size, blob.chunks)) await writeRows();
          const before = await this.repo.setRef(use.kind, use.ref, use.ownerId, blob.sha256);
          if (before !== null && before !== blob.sha256) await this.removeIfUnused(before);
        }),
      expect,
    );
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
   * Removes the blob unless a use names it, and its content once that is committed. A use added at
   * the same moment by another transaction makes the delete fail on the reference (the blob
   * stays): a savepoint keeps that failure from ending the caller's transaction.
   */
  private async removeIfUnused(sha256: string): Promise<void> {
    try {
      await this.transactions.run(async () => {
        if (await this.repo.deleteUnreferenced(sha256)) {
          // Left for the sweep if this fails.
          this.transactions.afterCommit(() => void this.content.removed(sha256).catch(() => undefined));
        }
      });
    } catch (error) {
      if (!isForeignKeyViolation(error)) throw error;
    }
  }

  /**
   * Removes blobs no use names (uses gone with their account) and content or cached copies without
   * a blob; answers blobs whose content is missing (their reads fail until the same file is stored again).
   */
  async sweep(): Promise<{ missing: string[] }> {
    for (const sha256 of await this.repo.unreferenced()) await this.removeIfUnused(sha256);
    return { missing: await this.content.sweep() };
  }

  /** The path of a local file with the blob's content (checked against its hash when it was filled or written); null: no such blob. */
  async cached(sha256: string): Promise<string | null> {
    if (!SHA256.test(sha256)) return null;
    const blob = await this.repo.find(sha256);
    // A local copy is used only while the blob exists: one removed elsewhere is not served.
    if (!blob) {
      await this.content.gone(sha256);
      return null;
    }
    return this.content.file({ sha256, ...blob });
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

  /** The blob as a stream from its local file, or null. */
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
