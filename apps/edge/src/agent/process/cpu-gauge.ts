import { readFileSync } from 'node:fs';

/**
 * Whether the rest of the node keeps its CPUs busy: the share of all CPUs' time since the last
 * look that went to anything but this process (`/proc/stat`'s busy time less this process's own
 * from `/proc/self/stat`, both in clock ticks). The events process (event-worker.ts) reads the
 * access log slowly while it is (event-collector.ts `busy`): a lower priority alone does not keep
 * it off the cores nginx needs, since a process that is always ready to run gets every gap
 * between nginx's wake-ups, and each such slice costs nginx more than its length (caches, the
 * wake-up of a CPU taken back; measured in bench/README.md).
 */

export interface CpuSample {
  /** All CPUs' ticks, idle included. */
  total: number;
  /** All CPUs' ticks not idle (nor waiting for I/O). */
  busy: number;
  /** This process's ticks (every thread, user and system). */
  own: number;
}

/** The node's and this process's CPU ticks now (null where /proc cannot be read). */
export function readCpuSample(): CpuSample | null {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    const ticks = cpu.trim().split(/\s+/).slice(1).map(Number);
    const total = ticks.reduce((a, b) => a + b, 0);
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // user nice system idle iowait …; utime and stime are fields 14 and 15 of the process's stat.
    return {
      total,
      busy: total - (ticks[3] ?? 0) - (ticks[4] ?? 0),
      own: Number(fields[11]) + Number(fields[12]),
    };
  } catch {
    return null;
  }
}

export interface CpuGaugeOptions {
  /** The share of all CPUs (0–1) the rest of the node must use to count as busy. */
  threshold?: number;
  /** The shortest span between two looks (a tick is 10 ms: shorter spans are too coarse). */
  windowMs?: number;
  read?: () => CpuSample | null;
  now?: () => number;
}

export class CpuGauge {
  private last: (CpuSample & { at: number }) | null = null;
  private busy = false;

  constructor(private readonly options: CpuGaugeOptions = {}) {}

  /** Whether the rest of the node used at least `threshold` of all CPUs over the last window. */
  othersBusy(): boolean {
    const now = (this.options.now ?? Date.now)();
    if (this.last !== null && now - this.last.at < (this.options.windowMs ?? 500)) return this.busy;
    const sample = (this.options.read ?? readCpuSample)();
    if (sample === null) return false;
    if (this.last !== null) {
      const total = sample.total - this.last.total;
      const others = sample.busy - this.last.busy - (sample.own - this.last.own);
      if (total > 0) this.busy = others / total >= (this.options.threshold ?? 0.9);
    }
    this.last = { ...sample, at: now };
    return this.busy;
  }
}
