import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * An exclusive lock on a store directory (the embedded database in DATA_DIR/pglite; the analytics
 * store takes one on its own directory the same way): one process owns a store, so a second
 * control plane started on the same DATA_DIR refuses to start instead of handing out the same ids
 * and losing the first one's writes.
 *
 * The lock is the kernel's flock(2) on `<dir>.lock`, held by a small `flock(1)` process (util-linux)
 * whose stdin is a pipe from this process. The kernel drops the lock when that pipe closes, which
 * is when this process exits in any way, `kill -9` included, so a stale lock cannot exist and
 * there is nothing to clean up or take over by hand; flock(2) locks an open file, so it holds
 * whichever path the directory is reached by (symlinks, bind mounts, other containers on the same
 * host). The file also names the holder's pid, for the message of the process that is refused.
 * Node has no flock of its own; a pid file alone cannot be taken over safely by two starters at once.
 */
export class StoreLockedError extends Error {}

export interface StoreLock {
  readonly file: string;
  /** Releases the lock (the helper process ends); idempotent. */
  release(): Promise<void>;
}

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
 * Takes the lock of `dir` (the file `<dir>.lock` beside it) or throws StoreLockedError naming the
 * holder. `what` names the store in messages. `onLost` runs if the lock is ever lost while held
 * (its helper process was killed): the caller must stop using the store.
 */
export async function lockStore(
  dir: string,
  what: string,
  onLost: (error: Error) => void = () => {},
): Promise<StoreLock> {
  const file = `${dir}.lock`;
  // The file is never deleted: a lock is on an inode, and a new file would be a new lock.
  closeSync(openSync(file, 'a', 0o600));
  const child: ChildProcess = spawn(
    'flock',
    ['--nonblock', '--conflict-exit-code', String(CONFLICT), file, '-c', 'echo locked; exec cat >/dev/null'],
    // A process group of its own: a terminal's Ctrl-C (SIGINT to the foreground group) reaches the
    // control plane alone, which closes the store and then releases the lock, instead of the helper
    // dying first (the lock lost while the store is still open).
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
            ? `cannot lock the ${what} at ${dir}: the flock command (util-linux) is not installed`
            : `cannot lock the ${what} at ${dir}: ${error.message}`,
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
          new StoreLockedError(
            `the ${what} at ${dir} is in use by another Rampart control plane${holderOf(file)}; stop it first, or give this one another DATA_DIR`,
          ),
        );
      } else {
        reject(new Error(`cannot lock the ${what} at ${dir}: flock exited with ${code} ${stderr.trim()}`));
      }
    });
  });
  writeFileSync(file, `${process.pid}\n`);
  // Neither the helper nor its pipes keep this process alive; the pipe stays open until exit.
  child.stdout?.destroy();
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code, signal) => {
    if (!released) onLost(new Error(`the lock of the ${what} at ${dir} was lost (flock ended: ${signal ?? code})`));
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
