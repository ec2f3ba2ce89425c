import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { fileBlobChunks, fileBlobRefs, fileBlobs } from '../db/schema.js';

export type FileBlobKind = (typeof fileBlobRefs.$inferSelect)['kind'];

/** The config store's blobs, their chunks (ChunkBlobContent) and what refers to them (platform/files/file-blobs.ts). */
export class FileBlobsRepository {
  constructor(private readonly db: Db) {}

  /** Inserts a blob's row unless it exists; true when this call inserted it (its chunks are then this caller's to write). */
  async insert(sha256: string, size: number, chunks: number): Promise<boolean> {
    const rows = await this.db
      .insert(fileBlobs)
      .values({ sha256, size, chunks })
      .onConflictDoNothing({ target: fileBlobs.sha256 })
      .returning({ sha256: fileBlobs.sha256 });
    return rows.length === 1;
  }

  async insertChunk(sha256: string, seq: number, data: Buffer): Promise<void> {
    await this.db.insert(fileBlobChunks).values({ sha256, seq, data });
  }

  /** A complete blob's size and chunk count, or null. */
  async find(sha256: string): Promise<{ size: number; chunks: number } | null> {
    const rows = await this.db
      .select({ size: fileBlobs.size, chunks: fileBlobs.chunks })
      .from(fileBlobs)
      .where(eq(fileBlobs.sha256, sha256));
    return rows[0] ?? null;
  }

  async chunk(sha256: string, seq: number): Promise<Buffer | null> {
    const rows = await this.db
      .select({ data: fileBlobChunks.data })
      .from(fileBlobChunks)
      .where(and(eq(fileBlobChunks.sha256, sha256), eq(fileBlobChunks.seq, seq)));
    return rows[0]?.data ?? null;
  }

  /** Of `hashes`, those that are stored blobs. */
  async existing(hashes: readonly string[]): Promise<Set<string>> {
    if (hashes.length === 0) return new Set();
    const rows = await this.db
      .select({ sha256: fileBlobs.sha256 })
      .from(fileBlobs)
      .where(inArray(fileBlobs.sha256, [...hashes]));
    return new Set(rows.map((r) => r.sha256));
  }

  /** Every stored blob's hash (to find those whose content is missing). */
  async all(): Promise<string[]> {
    const rows = await this.db.select({ sha256: fileBlobs.sha256 }).from(fileBlobs);
    return rows.map((r) => r.sha256);
  }

  /** The blob a use names, or null. */
  async refOf(kind: FileBlobKind, ref: string): Promise<string | null> {
    const rows = await this.db
      .select({ sha256: fileBlobRefs.sha256 })
      .from(fileBlobRefs)
      .where(and(eq(fileBlobRefs.kind, kind), eq(fileBlobRefs.ref, ref)));
    return rows[0]?.sha256 ?? null;
  }

  /** Points a use at a blob; answers the blob it named before (null: none). */
  async setRef(kind: FileBlobKind, ref: string, ownerId: number, sha256: string): Promise<string | null> {
    const before = await this.db
      .select({ sha256: fileBlobRefs.sha256 })
      .from(fileBlobRefs)
      .where(and(eq(fileBlobRefs.kind, kind), eq(fileBlobRefs.ref, ref)))
      .for('update');
    await this.db
      .insert(fileBlobRefs)
      .values({ kind, ref, ownerId, sha256 })
      .onConflictDoUpdate({ target: [fileBlobRefs.kind, fileBlobRefs.ref], set: { ownerId, sha256 } });
    return before[0]?.sha256 ?? null;
  }

  /** Removes uses; answers the blobs they named. */
  async dropRefs(kind: FileBlobKind, refs: readonly string[]): Promise<string[]> {
    if (refs.length === 0) return [];
    const rows = await this.db
      .delete(fileBlobRefs)
      .where(and(eq(fileBlobRefs.kind, kind), inArray(fileBlobRefs.ref, [...refs])))
      .returning({ sha256: fileBlobRefs.sha256 });
    return rows.map((r) => r.sha256);
  }

  /** Removes the uses of a kind except `keep`; answers the blobs they named. */
  async dropRefsExcept(kind: FileBlobKind, keep: readonly string[]): Promise<string[]> {
    const rows = await this.db
      .delete(fileBlobRefs)
      .where(and(eq(fileBlobRefs.kind, kind), keep.length > 0 ? notInArray(fileBlobRefs.ref, [...keep]) : undefined))
      .returning({ sha256: fileBlobRefs.sha256 });
    return rows.map((r) => r.sha256);
  }

  /** Removes the blob (its chunks, if any, with it) unless a use names it; true when it was removed. */
  async deleteUnreferenced(sha256: string): Promise<boolean> {
    const rows = await this.db
      .delete(fileBlobs)
      .where(
        and(
          eq(fileBlobs.sha256, sha256),
          sql`NOT EXISTS (SELECT 1 FROM ${fileBlobRefs} WHERE ${fileBlobRefs.sha256} = ${sha256})`,
        ),
      )
      .returning({ sha256: fileBlobs.sha256 });
    return rows.length === 1;
  }

  /** Blobs no use names (left by a use removed with its account). */
  async unreferenced(): Promise<string[]> {
    const rows = await this.db
      .select({ sha256: fileBlobs.sha256 })
      .from(fileBlobs)
      .where(sql`NOT EXISTS (SELECT 1 FROM ${fileBlobRefs} WHERE ${fileBlobRefs.sha256} = ${fileBlobs.sha256})`);
    return rows.map((r) => r.sha256);
  }
}
