import type { PGlite } from '@electric-sql/pglite';
import { withOverrides } from './overrides.js';

/**
 * The types drizzle's PGlite driver reads as PostgreSQL's text (timestamp, timestamptz, interval,
 * date, and the arrays of numeric, timestamp, timestamptz, interval and date): it maps them itself.
 * Kept in step with drizzle-orm/pglite/session.js (pglite-parsers.test.ts checks it).
 */
export const DRIZZLE_TEXT_TYPES: readonly number[] = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];

const asText = (value: string): string => value;

interface QueryOptions {
  parsers?: Record<number, unknown>;
  [option: string]: unknown;
}
type Query = (text: string, params?: unknown[], options?: QueryOptions) => Promise<unknown>;
interface Queryable {
  query: Query;
}

/**
 * drizzle gives those types' parsers with every query, and PGlite merges a query's parsers into
 * its own ~320 (one per type and array type) for each query it runs: 80–200 µs a query on these
 * machines (measured: `select $1::int` 157–224 µs without them, 306–354 µs with them), ~6 ms of the
 * ~45 statements of one domain's change. The returned client gives PGlite those parsers once, as
 * its own, and runs drizzle's queries (and those of its transactions) without theirs: the same
 * values, without the merge. Only drizzle's own parser set is dropped; any other is passed on.
 *
 * The instance's other users (a backup's row count) read those types as text too; nothing of the
 * server reads them through the raw instance.
 */
export function withParsersOnce(client: PGlite): PGlite {
  const parsers = (client as unknown as { parsers: Record<number, unknown> }).parsers;
  // PGlite sets the array types' parsers when it opens (and again when told to refresh them):
  // checked on each query, so a refresh cannot bring the merge's parsers back unnoticed.
  const own = () => {
    for (const oid of DRIZZLE_TEXT_TYPES) if (parsers[oid] !== asText) parsers[oid] = asText;
  };
  const lean = (options: QueryOptions | undefined): QueryOptions | undefined => {
    if (!options?.parsers) return options;
    const keys = Object.keys(options.parsers);
    if (keys.length !== DRIZZLE_TEXT_TYPES.length || !keys.every((k) => DRIZZLE_TEXT_TYPES.includes(Number(k)))) {
      return options;
    }
    const { parsers: _drizzles, ...rest } = options;
    own();
    return rest;
  };
  // The client's and each transaction's query and transaction, made once per wrapped object (drizzle
  // reads `query` on every query it runs).
  const wrap = <T extends object>(target: T, transactions: boolean): T => {
    const query = (text: string, params?: unknown[], options?: QueryOptions) =>
      (target as unknown as Queryable).query(text, params, lean(options));
    const transaction = <R>(fn: (tx: Queryable) => Promise<R>) =>
      (target as unknown as PGlite).transaction((tx) => fn(wrap(tx as unknown as Queryable, false)));
    return withOverrides(target, transactions ? { query, transaction } : { query });
  };
  return wrap(client, true);
}
