import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './database.js';

/**
 * The one transaction model of the server (apps/server/README.md).
 *
 * One transaction per state-changing console call (the audit record is written in the same
 * transaction as the change it describes). Repositories hold the one `Db` made by
 * {@link transactionScoped}; they are built once and injected into services. While a call runs
 * inside {@link RequestTransactions.run}, every query made through it — from any repository,
 * however deep — goes to that call's transaction. A service's own all-or-none block,
 * `transactions.run(...)`, is a savepoint inside the call's transaction (so a failure it catches
 * undoes only the block) and a transaction of its own outside any call (background jobs, GETs,
 * node API). After a transaction ended, work that was started inside it and is still running falls
 * back to the plain database rather than using a finished transaction.
 */
interface Scope {
  readonly tx: Db;
  open: boolean;
  /** What runs once the outermost transaction committed (a savepoint's pass to its enclosing scope when it is released). */
  readonly afterCommit: Array<() => void>;
  /** What runs once the outermost transaction ended, committed or rolled back (a savepoint passes them on either way). */
  readonly afterEnd: Array<() => Promise<void>>;
}

/** What a service needs for an all-or-none block: every repository call inside `fn` commits together or not at all. */
export interface Transactions {
  /** Runs `fn` in one transaction (a savepoint inside an enclosing one): committed when it resolves, rolled back when it throws. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Runs `fn` once what the caller wrote is visible to other connections: after the outermost
   * transaction commits (never when it or the savepoint around the caller rolls back), or at once
   * outside any. For signals to other requests (a waiting poll), which must not look too early.
   */
  afterCommit(fn: () => void): void;
  /**
   * Writes what must stay written whatever becomes of the caller's transaction (a wrong
   * second-factor code): `fn` runs on the database itself once the outermost transaction has ended,
   * committed or rolled back, before that transaction's `run` returns or throws; at once outside
   * any. Resolves when `fn` ran, or at once when it waits for the transaction's end.
   */
  afterEnd(fn: () => Promise<void>): Promise<void>;
}

export interface RequestTransactions extends Transactions {
  /** The database every repository uses: the current call's transaction when there is one. */
  readonly db: Db;
  /** Whether the caller runs inside a call's transaction. */
  active(): boolean;
}

export function transactionScoped(root: Db): RequestTransactions {
  const storage = new AsyncLocalStorage<Scope>();
  const current = (): Db => {
    const scope = storage.getStore();
    return scope?.open ? scope.tx : root;
  };
  const db = new Proxy(root, {
    get(_target, prop) {
      const active = current();
      const value = Reflect.get(active, prop, active) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(active) : value;
    },
  });
  return {
    db,
    active: () => storage.getStore()?.open === true,
    async run<T>(fn: () => Promise<T>): Promise<T> {
      const outer = storage.getStore();
      const nested = outer?.open === true;
      const afterCommit: Array<() => void> = [];
      const afterEnd: Array<() => Promise<void>> = [];
      let result: T;
      try {
        result = await (nested ? outer.tx : root).transaction(async (tx) => {
          const scope: Scope = { tx: tx as unknown as Db, open: true, afterCommit, afterEnd };
          try {
            return await storage.run(scope, fn);
          } finally {
            scope.open = false;
          }
        });
      } catch (error) {
        if (nested) outer.afterEnd.push(...afterEnd);
        else for (const hook of afterEnd) await hook().catch(() => {});
        throw error;
      }
      if (nested) outer.afterEnd.push(...afterEnd);
      else for (const hook of afterEnd) await hook();
      // Released: a savepoint's hooks wait for its enclosing transaction; the outermost's run now.
      if (nested) outer.afterCommit.push(...afterCommit);
      else for (const hook of afterCommit) hook();
      return result;
    },
    afterCommit(fn: () => void): void {
      const scope = storage.getStore();
      if (scope?.open) scope.afterCommit.push(fn);
      else fn();
    },
    async afterEnd(fn: () => Promise<void>): Promise<void> {
      const scope = storage.getStore();
      if (scope?.open) scope.afterEnd.push(fn);
      else await fn();
    },
  };
}
