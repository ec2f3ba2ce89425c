import { and, asc, eq, inArray, isNull, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { accountChain } from '../../platform/db/account-chain.js';
import type { Db } from '../../platform/db/database.js';
import { rowsOf } from '../../platform/db/rows.js';
import { accounts, accountZones, nodes, zones } from '../../platform/db/schema.js';

/** Zones assigned to operator sub-accounts: one typed query per method, no rules. */
export class AccountZonesRepository {
  constructor(private readonly db: Db) {}

  /** The assigned zones of one account, ascending. */
  async assigned(accountId: number): Promise<{ id: number; name: string }[]> {
    return this.db
      .select({ id: zones.id, name: zones.name })
      .from(accountZones)
      .innerJoin(zones, eq(zones.id, accountZones.zoneId))
      .where(eq(accountZones.accountId, accountId))
      .orderBy(asc(zones.id));
  }

  /**
   * The effective scope of an account: the zones allowed by every restricted account on its chain
   * of same-tier accounts (itself and the sub-accounts above it, up to the operator), or null when
   * none on the chain is restricted. One query.
   */
  async scopeOf(accountId: number): Promise<Set<number> | null> {
    const result = rowsOf<{ account_id: number | string; zone_id: number | string | null }>(
      await this.db.execute(sql`
      ${accountChain(accountId, { sameTier: true, extra: ['zones_restricted'] })}
      SELECT c.id AS account_id, az.zone_id
      FROM chain c LEFT JOIN account_zones az ON az.account_id = c.id
      WHERE c.zones_restricted
    `),
    );
    if (result.length === 0) return null;
    const perAccount = new Map<number, Set<number>>();
    for (const row of result) {
      const set = perAccount.get(Number(row.account_id)) ?? new Set<number>();
      if (row.zone_id !== null) set.add(Number(row.zone_id));
      perAccount.set(Number(row.account_id), set);
    }
    const [first, ...rest] = [...perAccount.values()];
    return new Set([...(first ?? [])].filter((zone) => rest.every((set) => set.has(zone))));
  }

  /** Replaces the assignment of one account; an empty list lifts the restriction (call inside a transaction). */
  async replace(accountId: number, zoneIds: number[]): Promise<void> {
    await this.db
      .update(accounts)
      .set({ zonesRestricted: zoneIds.length > 0 })
      .where(eq(accounts.id, accountId));
    await this.db.delete(accountZones).where(eq(accountZones.accountId, accountId));
    if (zoneIds.length > 0) {
      await this.db.insert(accountZones).values(zoneIds.map((zoneId) => ({ accountId, zoneId })));
    }
  }

  /** Adds a new zone to the assignment of every restricted account on the chain of `accountId` (its creator). */
  async addToRestrictedChain(accountId: number, zoneId: number): Promise<void> {
    await this.db.execute(sql`
      ${accountChain(accountId, { sameTier: true, extra: ['zones_restricted'] })}
      INSERT INTO account_zones (account_id, zone_id)
      SELECT id, ${zoneId} FROM chain WHERE zones_restricted
      ON CONFLICT DO NOTHING
    `);
  }

  /** Those of `ids` that are zones of the operator. */
  async ownedZones(operatorId: number, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .select({ id: zones.id })
      .from(zones)
      .where(and(eq(zones.ownerId, operatorId), inArray(zones.id, ids)));
    return rows.map((r) => r.id);
  }

  /** Those of `ids` that are nodes of the operator outside `scope` (in another zone, or in none). */
  async nodesOutside(operatorId: number, ids: number[], scope: ReadonlySet<number>): Promise<number[]> {
    if (ids.length === 0) return [];
    const inside = [...scope];
    const rows = await this.db
      .select({ id: nodes.id })
      .from(nodes)
      .where(
        and(
          eq(nodes.ownerId, operatorId),
          inArray(nodes.id, ids),
          inside.length === 0 ? sql`true` : or(isNull(nodes.zoneId), notInArray(nodes.zoneId, inside)),
        ),
      );
    return rows.map((r) => r.id);
  }
}

/** The SQL condition keeping a list within a caller's zone scope (`undefined`: no restriction). */
export function withinZoneScope(column: AnyPgColumn, scope: ReadonlySet<number> | null): SQL | undefined {
  if (scope === null) return undefined;
  return scope.size === 0 ? sql`false` : inArray(column, [...scope]);
}
