import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { pause } from '../backoff.js';
import { errorText } from '../log.js';

/**
 * A lower CPU priority for a process of the agent whose work can wait (the request events,
 * event-worker.ts), so that nginx gets the node's cores first. Two things make a plain
 * `os.setPriority(nice)` fall short on Linux:
 *
 * - The nice value is kept per thread, and `setPriority` sets the calling thread's only: V8's and
 *   libuv's threads started with the process (gzip and file reads run on libuv's) would keep 0.
 *   So every thread of the process is set; threads started later inherit the value.
 * - With the kernel's autogroups (`/proc/sys/kernel/sched_autogroup_enabled`, on by default in
 *   Debian's and Ubuntu's kernels) the scheduler first shares the CPU between sessions, and a
 *   thread's nice only counts against threads of its own session. nginx daemonizes into a session
 *   of its own, so a nice worker in the agent's session would still get as much CPU as nginx's
 *   whole session. The worker is therefore started in a session of its own (spawn's `detached`)
 *   and lowers its session's autogroup as well (`/proc/self/autogroup`), which is what the
 *   scheduler weighs against nginx then.
 *
 * Raising a nice value needs no privilege. Failures are answered, not thrown: the events are
 * still collected, only not behind nginx.
 */

export interface PriorityOutcome {
  /** The nice value of every thread of the process now. */
  nice: number;
  /** The session's autogroup nice now (null: no autogroups, or not the session's leader). */
  autogroupNice: number | null;
  /** What could not be set, for a warning. */
  errors: string[];
}

/** The fields of `/proc/<pid>/…/stat` after the command name (which may hold spaces). */
function statFields(file: string): string[] {
  const stat = readFileSync(file, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** `/proc/<pid>/autogroup` reads "/autogroup-123 nice 10"; null where the kernel has none. */
export function autogroupNiceOf(pid: number | 'self'): number | null {
  try {
    const match = /\bnice\s+(-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** The nice value of each thread of `pid` (Linux), from field 19 of each task's stat. */
export function threadNicesOf(pid: number | 'self'): number[] {
  const nices: number[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      nices.push(Number(statFields(`/proc/${pid}/task/${tid}/stat`)[16]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return nices;
}

/** Sets this process's nice value (every thread) and, when it leads its own session, its autogroup's. */
export async function lowerPriority(nice: number): Promise<PriorityOutcome> {
  const errors: string[] = [];
  let tids: string[] = [];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    // Not Linux: the one call below is all there is.
  }
  try {
    setPriority(nice);
    // On Linux a thread id names that one thread for setpriority(2).
    for (const tid of tids) if (Number(tid) !== process.pid) setPriority(Number(tid), nice);
  } catch (err) {
    errors.push(`nice: ${errorText(err)}`);
  }
  let autogroupNice = autogroupNiceOf('self');
  if (autogroupNice !== null && autogroupNice !== nice) {
    // Only a session of its own: the autogroup of the agent's session would lower the agent too.
    if (Number(statFields('/proc/self/stat')[3]) !== process.pid) {
      errors.push('autogroup: the process does not lead its own session');
    } else {
      // The kernel takes one autogroup change per 100 ms from an unprivileged process (EAGAIN).
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          writeFileSync('/proc/self/autogroup', `${nice}\n`);
          break;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EAGAIN' || attempt === 4) {
            errors.push(`autogroup: ${errorText(err)}`);
            break;
          }
          await pause(110, new AbortController().signal);
        }
      }
      autogroupNice = autogroupNiceOf('self');
    }
  }
  const nices = tids.length > 0 ? threadNicesOf('self') : [nice];
  return { nice: Math.min(...nices), autogroupNice, errors };
}
