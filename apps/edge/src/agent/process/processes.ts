import { readFileSync } from 'node:fs';

/** The command line of `pid` as nginx sets it (`nginx: worker process`), '' when gone or a zombie. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** Whether `pid` runs; a zombie (exited, not reaped by a non-reaping pid 1) counts as gone. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** SIGKILLs the pids that still run an nginx worker or helper (pids may have been reused). */
export function killNginxLeftovers(pids: Iterable<number>): number[] {
  const killed: number[] = [];
  for (const pid of pids) {
    if (!alive(pid) || !/^nginx: (worker|cache)/.test(commandLine(pid))) continue;
    try {
      process.kill(pid, 'SIGKILL');
      killed.push(pid);
    } catch {
      // Gone meanwhile.
    }
  }
  return killed;
}
