import { type SQL, sql } from 'drizzle-orm';

/** Columns of `accounts` a chain may carry beside id, parent_id, tier and depth (fixed names, never input). */
export type ChainColumn = 'account' | 'status' | 'zones_restricted';

/**
 * `WITH RECURSIVE chain AS (…)`: the account `accountId` (depth 0) and every account above it on
 * the owner chain, with `id, parent_id, tier, depth` and the `extra` columns. `sameTier` stops at
 * the first account of another tier (a sub-account's chain up to its operator or customer).
 * Follow it with the SELECT that reads `chain`.
 */
export function accountChain(
  accountId: number,
  { sameTier = false, extra = [] }: { sameTier?: boolean; extra?: readonly ChainColumn[] } = {},
): SQL {
  const own = sql.raw(extra.map((column) => `, ${column}`).join(''));
  const above = sql.raw(extra.map((column) => `, a.${column}`).join(''));
  const tierStop = sameTier ? sql` WHERE a.tier = c.tier` : sql``;
  return sql`WITH RECURSIVE chain AS (
    SELECT id, parent_id, tier, 0 AS depth${own} FROM accounts WHERE id = ${accountId}
    UNION ALL
    SELECT a.id, a.parent_id, a.tier, c.depth + 1${above} FROM accounts a JOIN chain c ON a.id = c.parent_id${tierStop}
  )`;
}
