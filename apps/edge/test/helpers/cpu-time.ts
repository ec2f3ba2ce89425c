import { readFile } from 'node:fs/promises';
import type { NginxProcess } from '../../src/nginx/nginx-process.js';

/** /proc's clock ticks per second (USER_HZ: 100 on every Linux the tests run on). */
const TICKS_PER_SECOND = 100;

/** The CPU time `pid` has used (user and system, in ticks); undefined once it is gone. */
async function cpuTicks(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return undefined;
  // After the command name (which may hold spaces): field 3 first, so utime (14) and stime (15) at 11, 12.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

async function ticksOf(pids: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const ticks = await cpuTicks(pid);
    if (ticks !== undefined) out.set(pid, ticks);
  }
  return out;
}

/**
 * Runs `work` and answers its result with the CPU time nginx's workers spent meanwhile (ms, in
 * steps of 10 ms). A bound on the edge's cost holds on this figure whatever the machine's load: the
 * wall clock counts the waits for a core as well (a 500 ms wall-clock bound failed on a shared,
 * loaded 2-core machine), the CPU clock only the work itself, which is what a budget bounds.
 */
export async function nginxCpuMs<T>(nginx: NginxProcess, work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const pids = await nginx.workerPids();
  if (pids.length === 0) throw new Error('nginx runs no worker');
  const before = await ticksOf(pids);
  const result = await work();
  const after = await ticksOf(pids);
  let ticks = 0;
  for (const [pid, start] of before) {
    const end = after.get(pid);
    if (end === undefined) throw new Error(`nginx worker ${pid} exited during the measured work`);
    ticks += end - start;
  }
  return { result, ms: (ticks * 1000) / TICKS_PER_SECOND };
}
