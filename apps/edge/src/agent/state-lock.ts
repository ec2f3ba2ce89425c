import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The lock of a state directory: one agent per directory. A second agent started on the same
 * `--state-dir` would apply snapshots to the same nginx and, when stopped, stop the first one's
 * nginx; it refuses to start instead (StateLockedError, exit status 3).
 *
 * The lock is the kernel's flock(2) on `<state-dir>/agent.lock`, held by a small `flock(1)` process
 * (util-linux, essential on Debian) whose stdin is a pipe from the agent. The kernel drops the lock
 * when that pipe closes, which is when the agent exits in any way, `kill -9` included: a dead
 * agent's lock never blocks a restart, and there is nothing to clean up by hand. nginx does not
 * inherit the pipe (Node opens it close-on-exec), so an nginx left serving after the agent died holds
 * nothing. The file names the holder's pid for the refusal's message. The control plane locks its
 * DATA_DIR the same way (apps/server/src/platform/db/store-lock.ts).
 */
export class StateLockedError extends Error {
  override readonly name = 'StateLockedError';
}

export interface StateLock {
  readonly file: string;
  /** Releases the lock (the helper process ends); idempotent. */
  release(): Promise<void>;
}

export const STATE_LOCK_FILE = 'agent.lock';
/** Exit code `flock -E` gives when the lock is held by another process. */
const CONFLICT = 75;

function holderOf(file: string): string {
  try {
    const pid = readFileSync(file, 'utf8').trim().split('\n')[0] ?? '';
    return /^\d+$/.test(pid) ? ` (process ${pid})` : '';
  } catch {
    return '';
  }
}

/**
 * Takes the lock of `stateDir` or throws StateLockedError naming the holder. `waitMs` is how long a
 * held lock is waited for: an agent restarting itself, or started by its service manager right
 * after the previous one died, takes over as soon as the previous one's helper has gone.
 * `onLost` runs if the lock is lost while held (its helper process was killed).
 */
export async function lockStateDir(
  stateDir: string,
  waitMs: number,
  onLost: (error: Error) => void = () => {},
): Promise<StateLock> {
  mkdirSync(stateDir, { recursive: true, mode: 0o755 });
  const file = path.join(stateDir, STATE_LOCK_FILE);
  // The file is never deleted: a lock is on an inode, and a new file would be a new lock.
  closeSync(openSync(file, 'a', 0o600));
  const wait = waitMs > 0 ? ['--timeout', (waitMs / 1000).toFixed(3)] : ['--nonblock'];
  const child: ChildProcess = spawn(
    'flock',
    [...wait, '--conflict-exit-code', String(CONFLICT), file, '-c', 'echo locked; exec cat >/dev/null'],
    // A process group of its own: a terminal's Ctrl-C (SIGINT to the foreground group) reaches the
    // agent alone, which stops nginx and then releases the lock, instead of killing the helper first.
    { stdio: ['pipe', 'pipe', 'pipe'], detached: true },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let held = false;
  let released = false;
  await new Promise<void>((resolve, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'ENOENT'
            ? `cannot lock the state directory ${stateDir}: the flock command (util-linux) is not installed`
            : `cannot lock the state directory ${stateDir}: ${error.message}`,
        ),
      ),
    );
    child.stdout?.once('data', () => {
      held = true;
      resolve();
    });
    child.once('exit', (code) => {
      if (held) return;
      if (code === CONFLICT) {
        reject(
          new StateLockedError(
            `the state directory ${stateDir} is in use by another rampart-edge agent${holderOf(file)}; stop it first, or give this one another --state-dir`,
          ),
        );
      } else {
        reject(new Error(`cannot lock the state directory ${stateDir}: flock exited with ${code} ${stderr.trim()}`));
      }
    });
  });
  writeFileSync(file, `${process.pid}\n`);
  // Neither the helper nor its pipes keep the agent alive; the pipe stays open until it exits.
  child.stdout?.destroy();
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code, signal) => {
    if (!released) onLost(new Error(`the lock of ${stateDir} was lost (flock ended: ${signal ?? code})`));
  });
  return {
    file,
    async release() {
      if (released) return;
      released = true;
      // Kept alive until the helper has gone, so the lock is free when this resolves.
      child.ref();
      child.stdin?.end();
      await exited;
    },
  };
}
