import { rename, rm, stat } from 'node:fs/promises';
import { describeError } from '../errors.js';
import type { Logger } from '../log.js';

/** Rotated files kept per log (`access.log.1` newest … `access.log.7` oldest). */
export const ROTATED_LOGS_KEPT = 7;

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Shifts `file.1` … `file.{keep-1}` up by one (dropping `file.{keep}`) and renames `file` to
 * `file.1`. nginx keeps writing to the renamed file through its open descriptor until it reopens
 * its logs (SIGUSR1), so nothing is lost. Returns the files that were renamed to `.1`.
 */
export async function shiftLogs(files: readonly string[], keep = ROTATED_LOGS_KEPT): Promise<string[]> {
  const rotated: string[] = [];
  for (const file of files) {
    if (!(await exists(file))) continue;
    await rm(`${file}.${keep}`, { force: true });
    for (let n = keep - 1; n >= 1; n--) {
      if (await exists(`${file}.${n}`)) await rename(`${file}.${n}`, `${file}.${n + 1}`);
    }
    await rename(file, `${file}.1`);
    rotated.push(file);
  }
  return rotated;
}

/** The next moment (after `now`) at which the UTC clock reads `time` (`HH:MM`). */
export function nextDailyTime(time: string, now: Date): Date {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  const next = new Date(now);
  next.setUTCHours(hours, minutes, 0, 0);
  if (next.getTime() <= now.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

/** The daily log rotation the applied snapshot asks for (`HH:MM` UTC): `rotate` runs then, every day. */
export class DailyRotation {
  private time: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly rotate: () => Promise<unknown>,
    private readonly log: Logger,
  ) {}

  /** (Re)arms the rotation for `time`; null disarms it. */
  schedule(time: string | null): void {
    if (time === this.time && (time === null || this.timer !== null)) return;
    this.time = time;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (time === null || this.stopped) return;
    const at = nextDailyTime(time, new Date());
    this.log('info', 'logs.rotation_scheduled', { daily: time, at: at.toISOString() });
    this.timer = setTimeout(() => {
      this.timer = null;
      this.rotate()
        .catch((err: unknown) => this.log('error', 'logs.rotate_failed', { error: describeError(err) }))
        .finally(() => {
          if (this.time === time) this.schedule(time);
        });
    }, at.getTime() - Date.now());
  }

  /** Disarms the rotation for good (the agent stops). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
