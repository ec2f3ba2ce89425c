import type { IngestResult, StoredAggregateBatch, StoredBatch } from './analytics-store.js';

/** Rows of an aggregate batch, counted against a group's most (both stores' BatchGroups of aggregate batches). */
export const aggregateRows = (b: StoredAggregateBatch) =>
  b.counters.length + b.lowDims.length + b.highDims.length + b.sketches.length + b.collapsed.length;

interface Waiting<B> {
  batch: B;
  signal: AbortSignal | undefined;
  resolve: (result: IngestResult) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the analytics stores: the batches that arrive while a group is being written
 * wait and go together in the next (up to `maxEvents` events; a larger batch goes alone), one group
 * at a time, so a batch sent twice at once is written by the first and found in the ledger by the
 * second. A group that fails is written again batch by batch, so one refused batch fails alone.
 * `sizeOf` measures a batch against `maxEvents` (an event batch's events by default; the nodes'
 * aggregate batches count their rows). A batch whose signal aborted (its sender went) while it
 * waited is dropped from the queue unwritten and rejected with the abort.
 */
export class BatchGroups<B = StoredBatch> {
  private readonly waiting: Waiting<B>[] = [];
  private draining = false;
  private drained: Promise<void> = Promise.resolve();

  /**
   * `write` stores a group and answers one result per batch, in order; `run` runs a whole drain
   * (the DuckDB store queues it behind its other writes).
   */
  constructor(
    private readonly maxEvents: number,
    private readonly write: (batches: readonly B[]) => Promise<IngestResult[]>,
    private readonly run: (drain: () => Promise<void>) => Promise<void> = (drain) => drain(),
    private readonly sizeOf: (batch: B) => number = (batch) => (batch as StoredBatch).events.length,
  ) {}

  add(batch: B, signal?: AbortSignal): Promise<IngestResult> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      this.waiting.push({ batch, signal, resolve, reject });
      this.drain();
    });
  }

  /** Resolves when no drain is under way (the stores' close). */
  settled(): Promise<void> {
    return this.drained.catch(() => {});
  }

  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    this.drained = this.run(async () => {
      while (this.waiting.length > 0) await this.writeNext();
    }).finally(() => {
      this.draining = false;
      if (this.waiting.length > 0) this.drain();
    });
  }

  private async writeNext(): Promise<void> {
    this.dropAbandoned();
    if (this.waiting.length === 0) return;
    const group: Waiting<B>[] = [];
    let events = 0;
    while (
      this.waiting.length > 0 &&
      (group.length === 0 || events + this.sizeOf((this.waiting[0] as Waiting<B>).batch) <= this.maxEvents)
    ) {
      const next = this.waiting.shift() as Waiting<B>;
      group.push(next);
      events += this.sizeOf(next.batch);
      this.dropAbandoned();
    }
    try {
      const results = await this.write(group.map((w) => w.batch));
      for (const [i, w] of group.entries()) w.resolve(results[i] as IngestResult);
    } catch (error) {
      if (group.length === 1) {
        (group[0] as Waiting<B>).reject(error);
        return;
      }
      // One batch's failure must not fail the others: each goes again on its own.
      for (const w of group) {
        try {
          const [result] = await this.write([w.batch]);
          w.resolve(result as IngestResult);
        } catch (own) {
          w.reject(own);
        }
      }
    }
  }

  /** Rejects and drops the waiting batches whose senders went. */
  private dropAbandoned(): void {
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const w = this.waiting[i] as Waiting<B>;
      if (!w.signal?.aborted) continue;
      this.waiting.splice(i, 1);
      w.reject(w.signal.reason);
    }
  }
}
