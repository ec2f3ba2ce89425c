import pg from 'pg';
import type { TestApp } from './test-app.js';

/** Every SQL text run on the test's database while `fn` runs (either driver). */
export async function queriesDuring(t: TestApp, fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const record = (text: unknown) => {
    const q = typeof text === 'string' ? text : (text as { text?: string } | null)?.text;
    if (typeof q === 'string') seen.push(q);
  };
  const source = t.db.database.source;
  if (source.kind === 'pglite') {
    const client = source.client as unknown as Record<string, (...args: unknown[]) => unknown>;
    const query = client.query;
    const exec = client.exec;
    client.query = function (this: unknown, text: unknown, ...rest: unknown[]) {
      record(text);
      return query?.call(this, text, ...rest);
    };
    client.exec = function (this: unknown, text: unknown, ...rest: unknown[]) {
      record(text);
      return exec?.call(this, text, ...rest);
    };
    try {
      await fn();
    } finally {
      client.query = query as never;
      client.exec = exec as never;
    }
    return seen;
  }
  // The pool answers most queries itself, a checked-out client the rest (transactions).
  const query = pg.Client.prototype.query;
  const poolQuery = pg.Pool.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, text: unknown, ...rest: unknown[]) {
    record(text);
    return (query as (...args: unknown[]) => unknown).call(this, text, ...rest);
  } as never;
  pg.Pool.prototype.query = function (this: pg.Pool, text: unknown, ...rest: unknown[]) {
    record(text);
    return (poolQuery as (...args: unknown[]) => unknown).call(this, text, ...rest);
  } as never;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = query;
    pg.Pool.prototype.query = poolQuery;
  }
  return seen;
}
