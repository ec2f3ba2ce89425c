import { type FileLock, lockFile } from '@rampart/contract/file-lock';

/**
 * An exclusive lock on a store directory (the embedded database in DATA_DIR/pglite; the analytics
 * store takes one on its own directory the same way): one process owns a store, so a second
 * control plane started on the same DATA_DIR refuses to start instead of handing out the same ids
 * and losing the first one's writes. The lock is flock(2) on `<dir>.lock` (@rampart/contract/file-lock
 * says how it holds and why it cannot go stale).
 */
export class StoreLockedError extends Error {}

export type StoreLock = FileLock;

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
  return lockFile(`${dir}.lock`, {
    subject: `the ${what} at ${dir}`,
    inUse: (holder) =>
      new StoreLockedError(
        `the ${what} at ${dir} is in use by another Rampart control plane${holder}; stop it first, or give this one another DATA_DIR`,
      ),
    onLost,
  });
}
