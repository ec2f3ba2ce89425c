import type { IngestResult, StoredBatch } from './analytics-store.js';

interface Waiting {
  batch: StoredBatch;
  resolve: (result: IngestResult) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the analytics stores: the batches that arrive while a group is being written
 * wait and go together in the next (up to `maxEvents` events; a larger batch goes alone). Up to
 * `lanes` groups are written at once (the DuckDB store one: one writer; the ClickHouse store two,
 * as a server runs an INSERT and its views on one thread). A batch whose id is in a group being
 * written waits for that group, so a batch sent twice at once is written by the first and found in
 * the ledger by the second. A group that fails is written again batch by batch, so one refused
 * batch fails alone.
 */
export class BatchGroups {
  private readonly waiting: Waiting[] = [];
  /** Batch ids of the groups being written. */
  private readonly writing = new Set<string>();
  /** The lanes draining now. */
  private readonly draining = new Set<Promise<void>>();

  /**
   * `write` stores a group and answers one result per batch, in order; `run` runs a whole drain
   * (the DuckDB store queues it behind its other writes).
   */
  constructor(
    private readonly maxEvents: number,
    private readonly write: (batches: readonly StoredBatch[]) => Promise<IngestResult[]>,
    private readonly run: (drain: () => Promise<void>) => Promise<void> = (drain) => drain(),
    private readonly lanes = 1,
  ) {}

  add(batch: StoredBatch): Promise<IngestResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ batch, resolve, reject });
      this.drain();
    });
  }

  /** Resolves when no drain is under way (the stores' close). */
  async settled(): Promise<void> {
    while (this.draining.size > 0) await Promise.allSettled([...this.draining]);
  }

  /** Whether a waiting batch may go now: none of a group being written has its id. */
  private ready(): boolean {
    return this.waiting.some((w) => !this.writing.has(w.batch.batchId));
  }

  private drain(): void {
    while (this.draining.size < this.lanes && this.ready()) {
      const lane: Promise<void> = this.run(async () => {
        while (this.ready()) await this.writeNext();
      })
        .catch(() => {})
        .finally(() => {
          this.draining.delete(lane);
          this.drain();
        });
      this.draining.add(lane);
    }
  }

  /**
   * The next group: the waiting batches in their order, passing over those whose id is being
   * written, until one would take the group over `maxEvents`.
   */
  private takeGroup(): Waiting[] {
    const group: Waiting[] = [];
    // Ids of this group: a batch twice in one group is the store's to count once.
    const ids = new Set<string>();
    let events = 0;
    for (let i = 0; i < this.waiting.length; ) {
      const next = this.waiting[i] as Waiting;
      const id = next.batch.batchId;
      if (this.writing.has(id) && !ids.has(id)) {
        i++;
        continue;
      }
      if (group.length > 0 && events + next.batch.events.length > this.maxEvents) break;
      this.waiting.splice(i, 1);
      group.push(next);
      events += next.batch.events.length;
      ids.add(id);
      this.writing.add(id);
    }
    return group;
  }

  private async writeNext(): Promise<void> {
    const group = this.takeGroup();
    try {
      await this.writeGroup(group);
    } finally {
      for (const w of group) this.writing.delete(w.batch.batchId);
    }
  }

  private async writeGroup(group: Waiting[]): Promise<void> {
    try {
      const results = await this.write(group.map((w) => w.batch));
      for (const [i, w] of group.entries()) w.resolve(results[i] as IngestResult);
    } catch (error) {
      if (group.length === 1) {
        (group[0] as Waiting).reject(error);
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
}
