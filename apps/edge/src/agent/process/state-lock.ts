import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type FileLock, lockFile } from '@rampart/contract/file-lock';

/**
 * The lock of a state directory: one agent per directory. A second agent started on the same
 * `--state-dir` would apply snapshots to the same nginx and, when stopped, stop the first one's
 * nginx; it refuses to start instead (StateLockedError, exit status 3).
 *
 * The lock is flock(2) on `<state-dir>/agent.lock` (@rampart/contract/file-lock), which the kernel
 * drops when the agent exits in any way, `kill -9` included: a dead agent's lock never blocks a
 * restart, and there is nothing to clean up by hand. nginx does not inherit the helper's pipe, so an
 * nginx left serving after the agent died holds nothing. The control plane locks its DATA_DIR the
 * same way (apps/server/src/platform/db/store-lock.ts).
 */
export class StateLockedError extends Error {
  override readonly name = 'StateLockedError';
}

export type StateLock = FileLock;

export const STATE_LOCK_FILE = 'agent.lock';
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
  return lockFile(file, {
    subject: `the state directory ${stateDir}`,
    waitMs,
    inUse: (holder) =>
      new StateLockedError(
        `the state directory ${stateDir} is in use by another rampart-edge agent${holder}; stop it first, or give this one another --state-dir`,
      ),
    onLost,
  });
}
