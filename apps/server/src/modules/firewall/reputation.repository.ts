import type { AbuseIPListQuery } from '@rampart/contract';
import { and, asc, count, desc, eq, gte, inArray, lte, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { readPage } from '../../platform/db/paging.js';
import { rowsOf } from '../../platform/db/rows.js';
import { abuseIpLists, abuseIps } from '../../platform/db/schema.js';

export type AbuseIPRow = typeof abuseIps.$inferSelect;

/** An entry as stored: its normalised text, the addresses it covers (hex) and its score and memo. */
export interface AbuseIPValues {
  ip: string;
  family: 4 | 6;
  rangeFrom: string;
  rangeTo: string;
  score: number;
  memo: string;
}

/** How the list is filtered: by an address inside an entry, or by text in the entry. */
export type AbuseIPFilter = { address: AbuseIPValues } | { text: string } | null;

const SORT = {
  score: [abuseIps.score],
  ip: [abuseIps.family, abuseIps.rangeFrom, abuseIps.rangeTo],
  updatedAt: [abuseIps.updatedAt],
} as const;

/** Rows per INSERT statement (7 parameters each, well under PostgreSQL's 65,535). */
const CHUNK = 1000;

/** The SQL of the operators' reputation lists; every method is scoped by the operator. */
export class AbuseIPsRepository {
  constructor(private readonly db: Db) {}

  private where(ownerId: number, filter: AbuseIPFilter) {
    if (filter === null) return eq(abuseIps.ownerId, ownerId);
    if ('text' in filter)
      return and(eq(abuseIps.ownerId, ownerId), sql`${abuseIps.ip} ILIKE ${containsPattern(filter.text)}`);
    const { family, rangeFrom } = filter.address;
    return and(
      eq(abuseIps.ownerId, ownerId),
      eq(abuseIps.family, family),
      lte(abuseIps.rangeFrom, rangeFrom),
      gte(abuseIps.rangeTo, rangeFrom),
    );
  }

  page(
    ownerId: number,
    filter: AbuseIPFilter,
    query: Pick<AbuseIPListQuery, 'sortBy' | 'orderBy' | 'page' | 'pageSize'>,
  ) {
    const where = this.where(ownerId, filter);
    const direction = query.orderBy === 'asc' ? asc : desc;
    const rows = this.db
      .select()
      .from(abuseIps)
      .where(where)
      .orderBy(...SORT[query.sortBy].map((c) => direction(c)), direction(abuseIps.id));
    return readPage(rows, this.db.select({ n: count() }).from(abuseIps).where(where), query);
  }

  async count(ownerId: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(abuseIps).where(eq(abuseIps.ownerId, ownerId));
    return row?.n ?? 0;
  }

  /**
   * Starts a change of the operator's list: locks its row (other writers wait until this
   * transaction ends) and raises its revision, which the change commits with. Call first in the
   * change's transaction.
   */
  async beginChange(ownerId: number): Promise<void> {
    await this.db
      .insert(abuseIpLists)
      .values({ ownerId, revision: 1 })
      .onConflictDoUpdate({
        target: abuseIpLists.ownerId,
        set: { revision: sql`${abuseIpLists.revision} + 1`, updatedAt: sql`now()` },
      });
  }

  /** The list's revision (0: never written). */
  async revision(ownerId: number): Promise<number> {
    const [row] = await this.db
      .select({ revision: abuseIpLists.revision })
      .from(abuseIpLists)
      .where(eq(abuseIpLists.ownerId, ownerId));
    return row?.revision ?? 0;
  }

  /** Which of `ips` the operator's list holds, by the id of the entry that holds it. */
  async holding(ownerId: number, ips: readonly string[], except?: number): Promise<{ id: number; ip: string }[]> {
    if (ips.length === 0) return [];
    return this.db
      .select({ id: abuseIps.id, ip: abuseIps.ip })
      .from(abuseIps)
      .where(
        and(
          eq(abuseIps.ownerId, ownerId),
          inArray(abuseIps.ip, [...ips]),
          except === undefined ? undefined : ne(abuseIps.id, except),
        ),
      );
  }

  async insert(ownerId: number, values: readonly AbuseIPValues[]): Promise<AbuseIPRow[]> {
    const out: AbuseIPRow[] = [];
    for (let i = 0; i < values.length; i += CHUNK) {
      const chunk = values.slice(i, i + CHUNK).map((v) => ({ ownerId, ...v }));
      out.push(...(await this.db.insert(abuseIps).values(chunk).returning()));
    }
    return out;
  }

  async update(ownerId: number, id: number, values: AbuseIPValues): Promise<AbuseIPRow | undefined> {
    const [row] = await this.db
      .update(abuseIps)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(abuseIps.id, id), eq(abuseIps.ownerId, ownerId)))
      .returning();
    return row;
  }

  /** The ids among `ids` of the operator's entries that were deleted. */
  async delete(ownerId: number, ids: number[]): Promise<number[]> {
    const rows = await this.db
      .delete(abuseIps)
      .where(and(eq(abuseIps.ownerId, ownerId), inArray(abuseIps.id, ids)))
      .returning({ id: abuseIps.id });
    return rows.map((r) => r.id);
  }

  /**
   * Adds the entries the list lacks and changes the score and memo of those it holds: how many
   * rows were added and how many changed (a row equal to its entry counts as neither).
   */
  async upsert(ownerId: number, values: readonly AbuseIPValues[]): Promise<{ added: number; updated: number }> {
    let added = 0;
    let updated = 0;
    for (let i = 0; i < values.length; i += CHUNK) {
      const chunk = values.slice(i, i + CHUNK).map((v) => ({ ownerId, ...v }));
      const rows = await this.db
        .insert(abuseIps)
        .values(chunk)
        .onConflictDoUpdate({
          target: [abuseIps.ownerId, abuseIps.ip],
          set: { score: sql`excluded.score`, memo: sql`excluded.memo`, updatedAt: sql`now()` },
          setWhere: sql`${abuseIps.score} <> excluded.score OR ${abuseIps.memo} <> excluded.memo`,
        })
        // xmax is 0 for a row this statement inserted, its locking transaction's id for one it updated.
        .returning({ inserted: sql<boolean>`(xmax = 0)` });
      for (const row of rows) {
        if (row.inserted) added++;
        else updated++;
      }
    }
    return { added, updated };
  }

  /** Deletes the operator's entries whose IP is not one of `keep`; answers how many went. */
  async deleteExcept(ownerId: number, keep: readonly string[]): Promise<number> {
    // One text parameter split in SQL: a list of 100,000 entries would not fit in parameters.
    const rows = await this.db
      .delete(abuseIps)
      .where(
        and(
          eq(abuseIps.ownerId, ownerId),
          sql`${abuseIps.ip} <> ALL(string_to_array(${keep.join('\n')}::text, E'\\n'))`,
        ),
      )
      .returning({ id: abuseIps.id });
    return rows.length;
  }

  /** Every entry's addresses and score, for the file the nodes read. */
  ranges(ownerId: number): Promise<Pick<AbuseIPRow, 'family' | 'rangeFrom' | 'rangeTo' | 'score'>[]> {
    return this.db
      .select({
        family: abuseIps.family,
        rangeFrom: abuseIps.rangeFrom,
        rangeTo: abuseIps.rangeTo,
        score: abuseIps.score,
      })
      .from(abuseIps)
      .where(eq(abuseIps.ownerId, ownerId));
  }

  /**
   * Runs `fn` without the row-by-row audit (audit_row_change) of what it writes: an import may add,
   * change or remove 100,000 entries in one call, which the operation log records once, as the call.
   */
  async withoutRowAudit<T>(fn: () => Promise<T>): Promise<T> {
    const result = rowsOf<{ previous: string }>(
      await this.db.execute(
        sql`SELECT coalesce(current_setting('rampart.audit', true), '') AS previous, set_config('rampart.audit', 'off', true)`,
      ),
    );
    const previous = result[0]?.previous ?? '';
    const value = await fn();
    await this.db.execute(sql`SELECT set_config('rampart.audit', ${previous}, true)`);
    return value;
  }
}
