import { rename, rm, stat } from 'node:fs/promises';

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
