import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * An exclusive lock on a file, for one process at a time (Node only: `@rampart/contract/file-lock`,
 * never imported by the console). The control plane locks its stores with it
 * (apps/server/src/platform/db/store-lock.ts), the edge agent its state directory
 * (apps/edge/src/agent/process/state-lock.ts).
 *
 * The lock is the kernel's flock(2) on the file, held by a small `flock(1)` process (util-linux,
 * essential on Debian) whose stdin is a pipe from this process. The kernel drops the lock when that
 * pipe closes, which is when this process exits in any way, `kill -9` included, so a stale lock
 * cannot exist and there is nothing to clean up or take over by hand; flock(2) locks an open file,
 * so it holds whichever path the file is reached by (symlinks, bind mounts, other containers on the
 * same host). Children do not inherit the pipe (Node opens it close-on-exec). The file also names the
 * holder's pid, for the message of the process that is refused. Node has no flock of its own; a pid
 * file alone cannot be taken over safely by two starters at once.
 */
export interface FileLock {
  readonly file: string;
  /** Releases the lock (the helper process ends); idempotent. */
  release(): Promise<void>;
}

export interface FileLockOptions {
  /** What is locked, for messages: "the state directory /var/lib/x". */
  readonly subject: string;
  /** How long a held lock is waited for (ms); 0: not at all. */
  readonly waitMs?: number;
  /** The error to refuse with when another process holds the lock; `holder` is " (process N)" or "". */
  readonly inUse: (holder: string) => Error;
  /** Runs if the lock is lost while held (its helper process was killed). */
  readonly onLost?: (error: Error) => void;
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

/** Takes the lock of `file` (made when missing, never deleted) or throws `inUse`'s error. */
export async function lockFile(file: string, options: FileLockOptions): Promise<FileLock> {
  const { subject, waitMs = 0, inUse, onLost = () => {} } = options;
  // The file is never deleted: a lock is on an inode, and a new file would be a new lock.
  closeSync(openSync(file, 'a', 0o600));
  const wait = waitMs > 0 ? ['--timeout', (waitMs / 1000).toFixed(3)] : ['--nonblock'];
  const child: ChildProcess = spawn(
    'flock',
    [...wait, '--conflict-exit-code', String(CONFLICT), file, '-c', 'echo locked; exec cat >/dev/null'],
    // A process group of its own: a terminal's Ctrl-C (SIGINT to the foreground group) reaches this
    // process alone, which closes what it locked and then releases the lock, instead of the helper
    // dying first (the lock lost while what it guards is still in use).
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
            ? `cannot lock ${subject}: the flock command (util-linux) is not installed`
            : `cannot lock ${subject}: ${error.message}`,
        ),
      ),
    );
    child.stdout?.once('data', () => {
      held = true;
      resolve();
    });
    child.once('exit', (code) => {
      if (held) return;
      if (code === CONFLICT) reject(inUse(holderOf(file)));
      else reject(new Error(`cannot lock ${subject}: flock exited with ${code} ${stderr.trim()}`));
    });
  });
  writeFileSync(file, `${process.pid}\n`);
  // Neither the helper nor its pipes keep this process alive; the pipe stays open until it exits.
  child.stdout?.destroy();
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code, signal) => {
    if (!released) onLost(new Error(`the lock of ${subject} was lost (flock ended: ${signal ?? code})`));
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
