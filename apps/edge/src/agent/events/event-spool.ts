import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import {
  type EdgeEvent,
  type EdgeEventBatch,
  EVENT_BATCH_GZIP_MAX_BYTES,
  EVENT_BATCH_JSON_MAX_BYTES,
} from '@rampart/contract';
import { z } from 'zod';
import { isAtomicTemp, writeFileAtomic } from '../process/state.js';
import type { LogCursor } from './access-log-reader.js';

const gzip = promisify(gzipCallback);

/**
 * The spool of request-event batches on disk (docs/decisions.md "Traffic analytics at the edge"):
 *
 *   <state>/events/spool.json                    {spoolId, nextSeq, dropped, dropping, cursor}
 *   <state>/events/<seq>-<count>-<carried>-<inode>-<offset>.gz   one batch: gzip of its JSON, as shipped
 *
 * A batch file is written atomically (temp file + rename) and never changed: a retry sends the
 * same bytes under the same batchId (`<spoolId>-<seq>`). Its name carries what a restart needs when
 * spool.json missed the last cut (a crash between the two writes): the sequence, the number of
 * events and the dropped count it carries (both counted as dropped, without reading the file, when
 * the batch itself is dropped) and the access-log cursor after its last line. The file is the commit: on open, a batch newer than spool.json's sequence moves the
 * cursor on and clears the dropped count it carried, so no line is read twice and no drop is
 * counted twice.
 *
 * The spool is bounded in bytes: past the bound the oldest batches go (never the newest, nor the
 * one being shipped), their events added to `dropped`, which the next batch cut carries and then
 * starts again at 0, so the count reaches the control plane once. The seqs being dropped are
 * written down before their files are removed, so a crash in between neither ships nor counts
 * them twice.
 */

export const SPOOL_DEFAULT_MEGABYTES = 512;
const STATE_FILE = 'spool.json';
const BATCH_RE = /^(\d{16})-(\d{1,16})-(\d{1,16})-(\d{1,20})-(\d{1,16})\.gz$/;

const cursorSchema = z.object({ inode: z.string().regex(/^\d{1,20}$/), offset: z.number().int().min(0) });
/**
 * Where reading must start again so that what a group of batches (appendGroup) left out is counted
 * after a restart: from `from`, skipping the lines up to `fedThrough` whose minute is before
 * `closedThrough` (those are in the batches). The aggregate spool's (aggregate-feed.ts).
 */
const replaySchema = z.object({
  from: cursorSchema,
  fedThrough: cursorSchema,
  closedThrough: z.number().int().min(0),
  /** Lines up to here of minutes from `closedThrough` on had their counters shipped in a partial: their sketches alone are counted again. */
  partialThrough: cursorSchema.optional(),
});
export type SpoolReplay = z.infer<typeof replaySchema>;
const stateSchema = z.object({
  spoolId: z.string().regex(/^[a-z0-9]{1,32}$/),
  nextSeq: z.number().int().min(1),
  dropped: z.number().int().min(0),
  dropping: z.array(z.number().int().min(1)).max(100_000),
  cursor: cursorSchema.nullable(),
  replay: replaySchema.nullable().optional(),
});
type SpoolState = z.infer<typeof stateSchema>;

export interface SpooledBatch {
  seq: number;
  file: string;
  count: number;
  /** The dropped count the batch carries (lost with it if it is dropped, so counted again then). */
  carried: number;
  bytes: number;
}

/** A batch over the route's size limits: the caller cuts it smaller. */
export class BatchTooLargeError extends Error {
  override readonly name = 'BatchTooLargeError';
}

/** A new spool id: 16 random lower-case letters and digits. */
function newSpoolId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(16), (b) => alphabet[b % alphabet.length]).join('');
}

const batchName = (seq: number, count: number, carried: number, cursor: LogCursor) =>
  `${String(seq).padStart(16, '0')}-${count}-${carried}-${cursor.inode}-${cursor.offset}.gz`;

export class EventSpool {
  private state: SpoolState = { spoolId: '', nextSeq: 1, dropped: 0, dropping: [], cursor: null };
  /** The batches on disk, oldest first. */
  private batches: SpooledBatch[] = [];
  /** The batch the shipper is sending: never dropped. */
  private shipping: number | null = null;

  /**
   * `commit`: what makes a batch spooled. "file" (event batches): its file, so a batch newer than
   * spool.json is taken on open (see above). "state" (groups of aggregate batches, appendGroup):
   * spool.json naming it, so a group is spooled whole or not at all, and files newer than
   * spool.json are removed on open, never shipped (the lines they counted are read again).
   */
  constructor(
    readonly dir: string,
    private readonly maxBytes: number = SPOOL_DEFAULT_MEGABYTES * 1024 * 1024,
    private readonly commit: 'file' | 'state' = 'file',
  ) {}

  /** Where reading starts again for what the batches do not hold (commit "state"; null: none saved). */
  get replay(): SpoolReplay | null {
    return this.state.replay ?? null;
  }

  get spoolId(): string {
    return this.state.spoolId;
  }

  /** The sequence the next batch gets. */
  get nextSeq(): number {
    return this.state.nextSeq;
  }

  /** Events this process dropped because the spool was full (the node's metrics). */
  droppedSinceStart = 0;

  /** Events dropped since the last batch was cut (carried by the next one). */
  get dropped(): number {
    return this.state.dropped;
  }

  /** The access-log position after the last line spooled (null: none yet). */
  get cursor(): LogCursor | null {
    return this.state.cursor;
  }

  get bytes(): number {
    return this.batches.reduce((sum, b) => sum + b.bytes, 0);
  }

  get waiting(): number {
    return this.batches.length;
  }

  /** Reads the spool's state and its batches; repairs what a crash left (see the class comment). */
  async open(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    let saved: SpoolState | null = null;
    try {
      const parsed = stateSchema.safeParse(JSON.parse(await readFile(path.join(this.dir, STATE_FILE), 'utf8')));
      if (parsed.success) saved = parsed.data;
    } catch {
      // Missing or unreadable: a new spool id, the sequence after the newest batch left.
    }
    const dropping = new Set(saved?.dropping ?? []);
    const batches: SpooledBatch[] = [];
    let newest: { seq: number; count: number; cursor: LogCursor } | null = null;
    for (const name of (await readdir(this.dir)).sort()) {
      const file = path.join(this.dir, name);
      if (isAtomicTemp(name)) {
        await rm(file, { force: true });
        continue;
      }
      const match = BATCH_RE.exec(name);
      if (!match) continue;
      const seq = Number(match[1]);
      if (dropping.has(seq)) {
        await rm(file, { force: true });
        continue;
      }
      if (this.commit === 'state' && seq >= (saved?.nextSeq ?? 1)) {
        // Of a group spool.json never named: not spooled.
        await rm(file, { force: true });
        continue;
      }
      const count = Number(match[2]);
      batches.push({ seq, file, count, carried: Number(match[3]), bytes: (await stat(file)).size });
      newest = { seq, count, cursor: { inode: match[4] as string, offset: Number(match[5]) } };
    }
    this.batches = batches;
    this.state = saved ?? { spoolId: newSpoolId(), nextSeq: 1, dropped: 0, dropping: [], cursor: null };
    this.state.dropping = [];
    if (this.commit === 'file' && newest !== null && newest.seq >= this.state.nextSeq) {
      // The last cut's file was written and spool.json not: the file says where it ended.
      this.state.nextSeq = newest.seq + 1;
      this.state.cursor = newest.cursor;
      if (saved !== null) this.state.dropped = 0;
    }
    await this.save();
  }

  private async save(state: SpoolState = this.state): Promise<void> {
    await writeFileAtomic(path.join(this.dir, STATE_FILE), `${JSON.stringify(state)}\n`, 0o600);
  }

  /** Serializes a batch; throws BatchTooLargeError when its gzip exceeds the route's limit. */
  static async encode(batch: EdgeEventBatch): Promise<Buffer> {
    const json = JSON.stringify(batch);
    if (Buffer.byteLength(json) > EVENT_BATCH_JSON_MAX_BYTES) {
      throw new BatchTooLargeError(`${batch.events.length} events are ${Buffer.byteLength(json)} bytes of JSON`);
    }
    // Level 1: under load the agent shares the node's cores with nginx; on these repetitive lines
    // it costs ~40% of level 6's CPU for ~8% more bytes.
    const bytes = await gzip(json, { level: 1 });
    if (bytes.length > EVENT_BATCH_GZIP_MAX_BYTES) {
      throw new BatchTooLargeError(`${batch.events.length} events are ${bytes.length} bytes of gzip`);
    }
    return bytes;
  }

  /** The batch `events` would be if cut now (with the dropped count it would carry). */
  nextBatch(events: EdgeEvent[], statistics?: false): EdgeEventBatch {
    const batch: EdgeEventBatch = { batchId: this.batchIdAt(0), dropped: this.state.dropped, events };
    if (statistics === false) batch.statistics = false;
    return batch;
  }

  /** The id of the batch `i` after the next one (the batches of a group, appendGroup). */
  batchIdAt(i: number): string {
    return `${this.state.spoolId}-${this.state.nextSeq + i}`;
  }

  /**
   * Writes the batch (from nextBatch, encoded) that ends at `cursor`, then the state; then drops
   * the oldest batches while the spool is over its bound. Throws when the batch could not be
   * written (nothing changed then: the caller tries the same batch again).
   */
  async append(
    batch: Pick<EdgeEventBatch, 'dropped' | 'events'>,
    bytes: Buffer,
    cursor: LogCursor,
  ): Promise<{ seq: number; droppedNow: number; boundError?: unknown }> {
    const seq = this.state.nextSeq;
    const count = batch.events.length;
    const file = path.join(this.dir, batchName(seq, count, batch.dropped, cursor));
    await writeFileAtomic(file, bytes, 0o600);
    this.batches.push({ seq, file, count, carried: batch.dropped, bytes: bytes.length });
    // What the batch carried is counted; drops since nextBatch() wait for the next one.
    this.state = { ...this.state, nextSeq: seq + 1, dropped: this.state.dropped - batch.dropped, cursor };
    // Written or not, the batch is spooled: its name holds the same, read on the next open.
    await this.save().catch(() => undefined);
    try {
      return { seq, droppedNow: await this.enforceBound() };
    } catch (err) {
      return { seq, droppedNow: 0, boundError: err };
    }
  }

  /**
   * Writes a group of batches (commit "state") ending at `cursor`, then spool.json naming them
   * with `replay`: only then are they spooled (shipped, counted). Throws when they could not be
   * written; nothing is spooled then (the files written are removed, or removed on the next open).
   */
  async appendGroup(
    batches: { dropped: number; count: number; bytes: Buffer }[],
    cursor: LogCursor,
    replay: SpoolReplay,
  ): Promise<{ seqs: number[]; droppedNow: number; boundError?: unknown }> {
    if (this.commit !== 'state') throw new Error('appendGroup needs a spool committed by its state');
    const first = this.state.nextSeq;
    const written: SpooledBatch[] = [];
    let carried = 0;
    try {
      for (const [i, batch] of batches.entries()) {
        const file = path.join(this.dir, batchName(first + i, batch.count, batch.dropped, cursor));
        await writeFileAtomic(file, batch.bytes, 0o600);
        written.push({ seq: first + i, file, count: batch.count, carried: batch.dropped, bytes: batch.bytes.length });
        carried += batch.dropped;
      }
      const next = {
        ...this.state,
        nextSeq: first + batches.length,
        dropped: this.state.dropped - carried,
        cursor,
        replay,
      };
      await this.save(next);
      this.state = next;
    } catch (err) {
      for (const b of written) await rm(b.file, { force: true }).catch(() => undefined);
      throw err;
    }
    this.batches.push(...written);
    try {
      return { seqs: written.map((b) => b.seq), droppedNow: await this.enforceBound() };
    } catch (err) {
      return { seqs: written.map((b) => b.seq), droppedNow: 0, boundError: err };
    }
  }

  /** Saves where reading starts again (commit "state") when no group was cut (the first start). */
  async saveReplay(replay: SpoolReplay): Promise<void> {
    const next = { ...this.state, replay };
    await this.save(next);
    this.state = next;
  }

  /** Records the cursor when lines were read that made no batch (invalid ones, an empty file finished). */
  async saveCursor(cursor: LogCursor): Promise<void> {
    if (this.state.cursor?.inode === cursor.inode && this.state.cursor.offset === cursor.offset) return;
    this.state = { ...this.state, cursor };
    await this.save();
  }

  /** Drops the oldest batches (not the newest, not the one being shipped) while over the bound. */
  private async enforceBound(): Promise<number> {
    let total = this.bytes;
    const victims: SpooledBatch[] = [];
    for (const batch of this.batches.slice(0, -1)) {
      if (total <= this.maxBytes) break;
      if (batch.seq === this.shipping) continue;
      victims.push(batch);
      total -= batch.bytes;
    }
    if (victims.length === 0) return 0;
    const count = victims.reduce((sum, b) => sum + b.count, 0);
    await this.remove(victims);
    return count;
  }

  /** The oldest batch, now marked as being shipped (never dropped until released). */
  takeOldest(): SpooledBatch | null {
    const oldest = this.batches[0] ?? null;
    this.shipping = oldest?.seq ?? null;
    return oldest;
  }

  /** The control plane took the batch: removes it. */
  async acknowledge(batch: SpooledBatch): Promise<void> {
    this.shipping = null;
    // Removed from disk first: `waiting` counts no batch whose file is still there.
    await rm(batch.file, { force: true });
    this.batches = this.batches.filter((b) => b.seq !== batch.seq);
  }

  /**
   * The control plane refused the batch for good (a body it will never take): removed, and its
   * events counted as dropped, so the loss still reaches the control plane with the next batch.
   */
  async discard(batch: SpooledBatch): Promise<void> {
    this.shipping = null;
    await this.remove([batch]);
  }

  /**
   * Removes batches already counted as dropped in `state.dropping`: written down first, so a crash
   * in between removes them on the next open and never ships them.
   */
  private async remove(gone: SpooledBatch[]): Promise<void> {
    const next = {
      ...this.state,
      dropped: this.state.dropped + gone.reduce((sum, b) => sum + b.count + b.carried, 0),
      dropping: [...this.state.dropping, ...gone.map((b) => b.seq)],
    };
    // Not written down: nothing counted, nothing removed (tried again with the next batch).
    await this.save(next);
    this.state = next;
    this.droppedSinceStart += gone.reduce((sum, b) => sum + b.count, 0);
    for (const batch of gone) await rm(batch.file, { force: true });
    this.batches = this.batches.filter((b) => !gone.includes(b));
    const removed = new Set(gone.map((b) => b.seq));
    this.state = { ...this.state, dropping: this.state.dropping.filter((seq) => !removed.has(seq)) };
  }

  /** The batch was not taken (kept for the next attempt). */
  release(): void {
    this.shipping = null;
  }
}
