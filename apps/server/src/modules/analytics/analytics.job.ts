import { type LogRetention, RAW_RETENTION_DAYS_DEFAULT, ROLLUP_RETENTION_DAYS_DEFAULT } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import type { AnalyticsStore } from './analytics-store.js';

/** How long raw events are kept by default (log search and short-range tops read them). */
export const RAW_RETENTION_DAYS = RAW_RETENTION_DAYS_DEFAULT;
/** How long rollups are kept by default (statistics up to STATISTICS_RANGE_MAX_DAYS back, and last month's traffic). */
export const ROLLUP_RETENTION_DAYS = ROLLUP_RETENTION_DAYS_DEFAULT;
/** The retention until the operator sets one (log-settings.service.ts). */
export const DEFAULT_RETENTION: LogRetention = {
  rawRetentionDays: RAW_RETENTION_DAYS,
  rollupRetentionDays: ROLLUP_RETENTION_DAYS,
};
/** Compaction runs this often, over the buckets from the last run (less a margin for late batches) to now minus the margin. */
const EVERY_MS = 5 * 60_000;
const LATE_MARGIN_SECONDS = 15 * 60;

/**
 * The analytics store's upkeep: builds DuckDB's dimension tables from the hours that ended and
 * merges the partial rollup rows of settled buckets (a bucket gets partial rows from every batch
 * that touched it), both in the store's `compact`, then deletes what is past its retention — the
 * operator's log setting, read at every run (the defaults above until one is set). One run at a
 * time; a failed run is logged and retried at the next tick.
 */
export class AnalyticsJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private compactedTo = 0;

  constructor(
    private readonly store: AnalyticsStore,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void,
    /** The retention in force, read at every run. */
    private readonly retention: () => Promise<LogRetention>,
    /** What else is pruned with the raw events (the log samples' minutes), given their cut-off. */
    private readonly pruneWithRaw: (before: number) => Promise<void> = async () => {},
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.runOnce(), EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  runOnce(): Promise<void> {
    this.running ??= this.upkeep()
      .catch(this.onError)
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async upkeep(): Promise<void> {
    const now = Math.floor(this.clock() / 1000);
    const to = now - LATE_MARGIN_SECONDS - ((now - LATE_MARGIN_SECONDS) % 3600);
    // The first run after a start covers the last day; later ones from where the last one ended,
    // less an hour for batches that arrived late (a node that was away).
    const from = this.compactedTo === 0 ? to - 86_400 : this.compactedTo - 3600;
    if (to > from) {
      await this.store.compact(from, to);
      this.compactedTo = to;
    }
    const { rawRetentionDays, rollupRetentionDays } = await this.retention();
    await this.store.prune(now - rawRetentionDays * 86_400, now - rollupRetentionDays * 86_400);
    await this.pruneWithRaw(now - rawRetentionDays * 86_400);
  }
}
