import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { domainAccessRules } from '../../platform/db/schema.js';
import type { FirewallRuleValues } from './firewall-rules.repository.js';

export type DomainAccessRow = typeof domainAccessRules.$inferSelect;
export type DomainAccessKind = DomainAccessRow['kind'];

/** The SQL of domains' anti-referer and anti-header lists; every method is scoped by a domain id its caller was allowed. */
export class DomainAccessRepository {
  constructor(private readonly db: Db) {}

  private where(domainId: number, kind: DomainAccessKind) {
    return and(eq(domainAccessRules.domainId, domainId), eq(domainAccessRules.kind, kind));
  }

  /** One page of a kind's rules, newest first, and how many there are. */
  async page(
    domainId: number,
    kind: DomainAccessKind,
    page: number,
    pageSize: number,
  ): Promise<{ rows: DomainAccessRow[]; total: number }> {
    const where = this.where(domainId, kind);
    const [rows, [counted]] = await Promise.all([
      this.db
        .select()
        .from(domainAccessRules)
        .where(where)
        .orderBy(desc(domainAccessRules.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      this.db.select({ n: count() }).from(domainAccessRules).where(where),
    ]);
    return { rows, total: counted?.n ?? 0 };
  }

  async count(domainId: number, kind: DomainAccessKind): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(domainAccessRules).where(this.where(domainId, kind));
    return row?.n ?? 0;
  }

  insert(domainId: number, kind: DomainAccessKind, rules: FirewallRuleValues[]): Promise<DomainAccessRow[]> {
    return this.db
      .insert(domainAccessRules)
      .values(rules.map((values) => ({ domainId, kind, ...values })))
      .returning();
  }

  async update(
    domainId: number,
    kind: DomainAccessKind,
    id: number,
    values: FirewallRuleValues,
  ): Promise<DomainAccessRow | undefined> {
    const [row] = await this.db
      .update(domainAccessRules)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(domainAccessRules.id, id), this.where(domainId, kind)))
      .returning();
    return row;
  }

  /** The ids among `ids` of the domain's rules of `kind` that were deleted. */
  async delete(domainId: number, kind: DomainAccessKind, ids: number[]): Promise<number[]> {
    const rows = await this.db
      .delete(domainAccessRules)
      .where(and(this.where(domainId, kind), inArray(domainAccessRules.id, ids)))
      .returning({ id: domainAccessRules.id });
    return rows.map((r) => r.id);
  }

  /** Every rule of the given domains, oldest first (the order the edge tries them in). */
  rulesOf(domainIds: number[]): Promise<DomainAccessRow[]> {
    if (domainIds.length === 0) return Promise.resolve([]);
    return this.db
      .select()
      .from(domainAccessRules)
      .where(inArray(domainAccessRules.domainId, domainIds))
      .orderBy(asc(domainAccessRules.id));
  }
}
