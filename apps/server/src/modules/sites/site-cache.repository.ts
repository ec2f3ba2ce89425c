import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { siteCacheRules, sites } from '../../platform/db/schema.js';

export type CacheRuleRow = typeof siteCacheRules.$inferSelect;
export type CacheRuleColumns = Omit<typeof siteCacheRules.$inferInsert, 'id' | 'siteId' | 'createdAt' | 'updatedAt'>;

/** The order the edge tries a site's rules in: priority (higher first), then the oldest first. */
const ruleOrder = [desc(siteCacheRules.priority), asc(siteCacheRules.id)];

/** A site's cache rules and its cache generation; every method is scoped by the site id its caller was allowed. */
export class SiteCacheRepository {
  constructor(private readonly db: Db) {}

  rules(siteId: number): Promise<CacheRuleRow[]> {
    return this.db
      .select()
      .from(siteCacheRules)
      .where(eq(siteCacheRules.siteId, siteId))
      .orderBy(...ruleOrder);
  }

  async generation(siteId: number): Promise<number | undefined> {
    const [site] = await this.db.select({ generation: sites.cacheGeneration }).from(sites).where(eq(sites.id, siteId));
    return site?.generation;
  }

  async countRules(siteId: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(siteCacheRules).where(eq(siteCacheRules.siteId, siteId));
    return row?.n ?? 0;
  }

  insertRules(siteId: number, rules: CacheRuleColumns[]): Promise<CacheRuleRow[]> {
    return this.db
      .insert(siteCacheRules)
      .values(rules.map((rule) => ({ siteId, ...rule })))
      .returning();
  }

  async updateRule(siteId: number, id: number, rule: CacheRuleColumns): Promise<CacheRuleRow | undefined> {
    const [row] = await this.db
      .update(siteCacheRules)
      .set({ ...rule, updatedAt: new Date() })
      .where(and(eq(siteCacheRules.id, id), eq(siteCacheRules.siteId, siteId)))
      .returning();
    return row;
  }

  /** The ids of the site's rules among `ids` that were deleted. */
  async deleteRules(siteId: number, ids: number[]): Promise<number[]> {
    const rows = await this.db
      .delete(siteCacheRules)
      .where(and(eq(siteCacheRules.siteId, siteId), inArray(siteCacheRules.id, ids)))
      .returning({ id: siteCacheRules.id });
    return rows.map((r) => r.id);
  }

  /** A new cache generation of one site; answers it. */
  async nextGeneration(siteId: number): Promise<number | undefined> {
    const [row] = await this.db
      .update(sites)
      .set({ cacheGeneration: sql`${sites.cacheGeneration} + 1` })
      .where(eq(sites.id, siteId))
      .returning({ generation: sites.cacheGeneration });
    return row?.generation;
  }

  /** A new cache generation of each of the operator's sites among `ids`: those changed, with it. */
  nextGenerations(ownerId: number, ids: number[]): Promise<{ id: number; generation: number }[]> {
    return this.db
      .update(sites)
      .set({ cacheGeneration: sql`${sites.cacheGeneration} + 1` })
      .where(and(eq(sites.ownerId, ownerId), inArray(sites.id, ids)))
      .returning({ id: sites.id, generation: sites.cacheGeneration });
  }

  /** The rules of the given sites with each site's generation: by site, then in the edge's order. */
  rulesOfSites(siteIds: number[]): Promise<{ rule: CacheRuleRow; generation: number }[]> {
    if (siteIds.length === 0) return Promise.resolve([]);
    return this.db
      .select({ rule: siteCacheRules, generation: sites.cacheGeneration })
      .from(siteCacheRules)
      .innerJoin(sites, eq(sites.id, siteCacheRules.siteId))
      .where(inArray(siteCacheRules.siteId, siteIds))
      .orderBy(asc(siteCacheRules.siteId), ...ruleOrder);
  }
}
