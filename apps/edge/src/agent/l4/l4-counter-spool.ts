import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { L4_COUNTER_BATCH_MAX, type L4CounterBatch, type L4CounterRecord } from '@rampart/contract';
import { z } from 'zod';
import { isAtomicTemp, writeFileAtomic } from '../process/state.js';

const gzip = promisify(gzipCallback);

/**
 * The spool of layer-4 counter batches on disk (docs/decisions.md "Layer-4 counters"), the
 * request events' spool made simple (no log cursor to keep):
 *
 *   <dir>/spool.json                 {spoolId, nextSeq}
 *   <dir>/<seq>-<count>.gz           one batch: gzip of its JSON, as shipped
 *
 * A batch file is written atomically and never changed: a retry sends the same bytes under the
 * same batchId (`<spoolId>-<seq>`), which the control plane counts once. spool.json is written
 * before the batch, so a sequence is never used twice. Bounded in files: past `maxBatches` the
 * oldest go (never the one being shipped), counted in `dropped`.
 */

/** A day of one batch a minute. */
export const L4_SPOOL_MAX_BATCHES = 1440;
const STATE_FILE = 'spool.json';
const BATCH_RE = /^(\d{16})-(\d{1,5})\.gz$/;
const stateSchema = z.object({
  spoolId: z.string().regex(/^[a-z0-9]{1,32}$/),
  nextSeq: z.number().int().min(1),
});

export interface L4SpooledBatch {
  seq: number;
  file: string;
  count: number;
}

export class L4CounterSpool {
  private state = { spoolId: '', nextSeq: 1 };
  private batches: L4SpooledBatch[] = [];
  private shipping: L4SpooledBatch | null = null;
  /** Records dropped (the spool full) since the agent started. */
  dropped = 0;

  constructor(
    readonly dir: string,
    private readonly maxBatches = L4_SPOOL_MAX_BATCHES,
  ) {}

  get waiting(): number {
    return this.batches.length;
  }

  async open(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const text = await readFile(path.join(this.dir, STATE_FILE), 'utf8').catch(() => null);
    const parsed = text === null ? null : stateSchema.safeParse(JSON.parse(text));
    this.state = parsed?.success
      ? parsed.data
      : {
          spoolId: Array.from(randomBytes(16), (b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join(''),
          nextSeq: 1,
        };
    this.batches = [];
    for (const name of await readdir(this.dir)) {
      if (isAtomicTemp(name)) {
        await rm(path.join(this.dir, name), { force: true });
        continue;
      }
      const m = BATCH_RE.exec(name);
      if (!m) continue;
      const seq = Number(m[1]);
      this.batches.push({ seq, file: path.join(this.dir, name), count: Number(m[2]) });
      if (seq >= this.state.nextSeq) this.state.nextSeq = seq + 1;
    }
    this.batches.sort((a, b) => a.seq - b.seq);
    await this.save();
  }

  private save(): Promise<void> {
    return writeFileAtomic(path.join(this.dir, STATE_FILE), JSON.stringify(this.state), 0o600);
  }

  /** Spools `records` as batches of at most L4_COUNTER_BATCH_MAX. */
  async append(records: readonly L4CounterRecord[]): Promise<void> {
    for (let i = 0; i < records.length; i += L4_COUNTER_BATCH_MAX) {
      const part = records.slice(i, i + L4_COUNTER_BATCH_MAX);
      const seq = this.state.nextSeq++;
      await this.save();
      const batch: L4CounterBatch = { batchId: `${this.state.spoolId}-${seq}`, records: part };
      const file = path.join(this.dir, `${String(seq).padStart(16, '0')}-${part.length}.gz`);
      await writeFileAtomic(file, await gzip(JSON.stringify(batch)), 0o600);
      this.batches.push({ seq, file, count: part.length });
    }
    while (this.batches.length > this.maxBatches) {
      const oldest = this.batches.find((b) => b !== this.shipping);
      if (!oldest) break;
      // Its file first, as acknowledge: the batches held never undercount the files on disk.
      await rm(oldest.file, { force: true });
      this.batches.splice(this.batches.indexOf(oldest), 1);
      this.dropped += oldest.count;
    }
  }

  /** The oldest batch, marked as being shipped (null when none waits). */
  takeOldest(): L4SpooledBatch | null {
    this.shipping = this.batches[0] ?? null;
    return this.shipping;
  }

  /** The control plane took the batch: its file goes. */
  async acknowledge(batch: L4SpooledBatch): Promise<void> {
    await rm(batch.file, { force: true });
    this.batches = this.batches.filter((b) => b !== batch);
    if (this.shipping === batch) this.shipping = null;
  }

  /** A batch the control plane will never take: it goes, its records counted as dropped. */
  async discard(batch: L4SpooledBatch): Promise<void> {
    this.dropped += batch.count;
    await this.acknowledge(batch);
  }

  release(): void {
    this.shipping = null;
  }
}
