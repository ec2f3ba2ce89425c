import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './database.js';

/**
 * One transaction per state-changing console call (the audit record is written in the
 * same transaction as the change it describes).
 *
 * Services and repositories hold the one `Db` made by {@link transactionScoped}. While a call runs
 * inside {@link RequestTransactions.run}, every query made through it — from any service, however
 * deep — goes to that call's transaction; a service's own `db.transaction(...)` becomes a savepoint
 * inside it. Outside (background jobs, GETs, node API) it is the plain database. After the
 * transaction ended, work that was started inside it and is still running falls back to the plain
 * database rather than using a finished transaction.
 */
interface Scope {
  readonly tx: Db;
  open: boolean;
}

export interface RequestTransactions {
  /** The database every service uses: the current call's transaction when there is one. */
  readonly db: Db;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  run<T>(fn: () => Promise<T>): Promise<T>;
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
    run<T>(fn: () => Promise<T>): Promise<T> {
      if (storage.getStore()?.open) return fn();
      return root.transaction(async (tx) => {
        const scope: Scope = { tx: tx as unknown as Db, open: true };
        try {
          return await storage.run(scope, fn);
        } finally {
          scope.open = false;
        }
      });
    },
  };
}
