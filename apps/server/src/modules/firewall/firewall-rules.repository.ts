import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { siteFirewallRules } from '../../platform/db/schema.js';

export type FirewallRuleRow = typeof siteFirewallRules.$inferSelect;
export type FirewallKind = FirewallRuleRow['kind'];
/** What a kind stores: its fields but the memo, which has a column of its own. */
export interface FirewallRuleValues {
  rule: Record<string, unknown>;
  memo: string;
}

/** The SQL of the site firewall's rules; every method is scoped by the site id its caller was allowed. */
export class FirewallRulesRepository {
  constructor(private readonly db: Db) {}

  /** One page of a kind's rules, newest first, and how many there are. */
  async page(
    siteId: number,
    kind: FirewallKind,
    page: number,
    pageSize: number,
  ): Promise<{ rows: FirewallRuleRow[]; total: number }> {
    const where = and(eq(siteFirewallRules.siteId, siteId), eq(siteFirewallRules.kind, kind));
    const [rows, [counted]] = await Promise.all([
      this.db
        .select()
        .from(siteFirewallRules)
        .where(where)
        .orderBy(desc(siteFirewallRules.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      this.db.select({ n: count() }).from(siteFirewallRules).where(where),
    ]);
    return { rows, total: counted?.n ?? 0 };
  }

  async count(siteId: number, kind: FirewallKind): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(siteFirewallRules)
      .where(and(eq(siteFirewallRules.siteId, siteId), eq(siteFirewallRules.kind, kind)));
    return row?.n ?? 0;
  }

  insert(siteId: number, kind: FirewallKind, rules: FirewallRuleValues[]): Promise<FirewallRuleRow[]> {
    return this.db
      .insert(siteFirewallRules)
      .values(rules.map((values) => ({ siteId, kind, ...values })))
      .returning();
  }

  async update(
    siteId: number,
    kind: FirewallKind,
    id: number,
    values: FirewallRuleValues,
  ): Promise<FirewallRuleRow | undefined> {
    const [row] = await this.db
      .update(siteFirewallRules)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(siteFirewallRules.id, id), eq(siteFirewallRules.siteId, siteId), eq(siteFirewallRules.kind, kind)))
      .returning();
    return row;
  }

  /** The ids among `ids` of the site's rules of `kind` that were deleted. */
  async delete(siteId: number, kind: FirewallKind, ids: number[]): Promise<number[]> {
    const rows = await this.db
      .delete(siteFirewallRules)
      .where(
        and(eq(siteFirewallRules.siteId, siteId), eq(siteFirewallRules.kind, kind), inArray(siteFirewallRules.id, ids)),
      )
      .returning({ id: siteFirewallRules.id });
    return rows.map((r) => r.id);
  }

  /** Every rule of the given sites, in the order the edge tries them (site, kind, oldest first). */
  rulesOf(siteIds: number[]): Promise<FirewallRuleRow[]> {
    return this.db
      .select()
      .from(siteFirewallRules)
      .where(inArray(siteFirewallRules.siteId, siteIds))
      .orderBy(asc(siteFirewallRules.siteId), asc(siteFirewallRules.id));
  }
}
