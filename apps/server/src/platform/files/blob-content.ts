import { createReadStream } from 'node:fs';

/** Where a blob's bytes come from: in memory, or a file. */
export type BlobSource = Buffer | { file: string };

/** A blob as its row in `file_blobs` describes it. */
export interface BlobInfo {
  sha256: string;
  size: number;
  /** Chunk rows that hold it (0 when its content is a file, DiskBlobContent). */
  chunks: number;
}

/**
 * Records the blob and its use in one transaction. `writeRows` runs inside that transaction once
 * the blob's row was inserted by it, for content kept in rows of the same transaction.
 */
export type BlobCommit = (blob: BlobInfo, writeRows: () => Promise<void>) => Promise<void>;

/**
 * Where the bytes of the config store's blobs live (file-blobs.ts keeps their rows and uses):
 * chunk rows in the database on PostgreSQL, which several control planes share
 * (ChunkBlobContent), files under DATA_DIR on PGlite, which one process opens (DiskBlobContent).
 * Either way a blob's row is committed only once its content is in place.
 */
export interface BlobContent {
  /** Stores the bytes (checked against `expect` when given) and runs `commit` with them in place. */
  put(source: BlobSource, what: string, commit: BlobCommit, expect?: string): Promise<BlobInfo>;
  /** A local file with the content of a blob whose row exists; null: removed meanwhile. Throws when the content is missing or does not match the row (chunks: their hash; a file: its size, its hash was checked when it was written). */
  file(blob: BlobInfo): Promise<string | null>;
  /** A read found no row for the blob: drops this process' copies of it (never the content itself, which `removed` and `sweep` check). */
  gone(sha256: string): Promise<void>;
  /** After the blob's row was removed (committed; run outside any transaction): its content goes unless a row came back. */
  removed(sha256: string): Promise<void>;
  /** Removes content without a row (after a failure or a removal elsewhere); answers blobs whose content is missing. */
  sweep(): Promise<string[]>;
  dispose(): Promise<void>;
}

/** The bytes of a source in pieces of at most `size` (a file is read as a stream). */
export async function* piecesOf(source: BlobSource, size: number): AsyncGenerator<Buffer> {
  if (Buffer.isBuffer(source)) {
    for (let at = 0; at < source.length; at += size) yield source.subarray(at, at + size);
    return;
  }
  for await (const piece of createReadStream(source.file, { highWaterMark: size })) yield piece as Buffer;
}
