import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { siteErrorPages, siteRateRules, siteSettings } from '../../platform/db/schema.js';

export type SiteSettingsRow = typeof siteSettings.$inferSelect;
export type RateRuleRow = typeof siteRateRules.$inferSelect;
export type ErrorPageRow = typeof siteErrorPages.$inferSelect;
type RateColumns = Pick<RateRuleRow, 'url' | 'rate' | 'memo'>;

/** The SQL of site settings; every method is scoped by the site id its caller was allowed. */
export class SiteSettingsRepository {
  constructor(private readonly db: Db) {}

  async settings(siteId: number): Promise<SiteSettingsRow | undefined> {
    const [row] = await this.db.select().from(siteSettings).where(eq(siteSettings.siteId, siteId));
    return row;
  }

  /** Inserts the site's row or updates the given columns of it. */
  async upsertSettings(siteId: number, values: Partial<Omit<SiteSettingsRow, 'siteId'>>): Promise<SiteSettingsRow> {
    const [row] = await this.db
      .insert(siteSettings)
      .values({ siteId, ...values })
      .onConflictDoUpdate({ target: siteSettings.siteId, set: values })
      .returning();
    if (!row) throw new Error('site settings upsert returned no row');
    return row;
  }

  rateRules(siteId: number): Promise<RateRuleRow[]> {
    return this.db.select().from(siteRateRules).where(eq(siteRateRules.siteId, siteId)).orderBy(asc(siteRateRules.id));
  }

  async countRateRules(siteId: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(siteRateRules).where(eq(siteRateRules.siteId, siteId));
    return row?.n ?? 0;
  }

  insertRateRules(siteId: number, rules: RateColumns[]): Promise<RateRuleRow[]> {
    return this.db
      .insert(siteRateRules)
      .values(rules.map((rule) => ({ siteId, ...rule })))
      .returning();
  }

  async updateRateRule(siteId: number, id: number, rule: RateColumns): Promise<RateRuleRow | undefined> {
    const [row] = await this.db
      .update(siteRateRules)
      .set({ ...rule, updatedAt: new Date() })
      .where(and(eq(siteRateRules.id, id), eq(siteRateRules.siteId, siteId)))
      .returning();
    return row;
  }

  /** The ids of the site's rules among `ids` that were deleted. */
  async deleteRateRules(siteId: number, ids: number[]): Promise<number[]> {
    const rows = await this.db
      .delete(siteRateRules)
      .where(and(eq(siteRateRules.siteId, siteId), inArray(siteRateRules.id, ids)))
      .returning({ id: siteRateRules.id });
    return rows.map((r) => r.id);
  }

  errorPages(siteId: number): Promise<ErrorPageRow[]> {
    return this.db
      .select()
      .from(siteErrorPages)
      .where(eq(siteErrorPages.siteId, siteId))
      .orderBy(asc(siteErrorPages.status));
  }

  async upsertErrorPage(siteId: number, status: number, body: string): Promise<ErrorPageRow> {
    const [row] = await this.db
      .insert(siteErrorPages)
      .values({ siteId, status, body })
      .onConflictDoUpdate({
        target: [siteErrorPages.siteId, siteErrorPages.status],
        set: { body, updatedAt: sql`now()` },
      })
      .returning();
    if (!row) throw new Error('error page upsert returned no row');
    return row;
  }

  /** The statuses among `statuses` whose pages were deleted. */
  async deleteErrorPages(siteId: number, statuses: number[]): Promise<number[]> {
    const rows = await this.db
      .delete(siteErrorPages)
      .where(and(eq(siteErrorPages.siteId, siteId), inArray(siteErrorPages.status, statuses)))
      .returning({ status: siteErrorPages.status });
    return rows.map((r) => r.status);
  }

  // The edge's view of many sites at once (snapshot builder).
  settingsOf(siteIds: number[]): Promise<SiteSettingsRow[]> {
    return this.db.select().from(siteSettings).where(inArray(siteSettings.siteId, siteIds));
  }

  rateRulesOf(siteIds: number[]): Promise<RateRuleRow[]> {
    return this.db
      .select()
      .from(siteRateRules)
      .where(inArray(siteRateRules.siteId, siteIds))
      .orderBy(asc(siteRateRules.siteId), asc(siteRateRules.id));
  }

  errorPagesOf(siteIds: number[]): Promise<ErrorPageRow[]> {
    return this.db
      .select()
      .from(siteErrorPages)
      .where(inArray(siteErrorPages.siteId, siteIds))
      .orderBy(asc(siteErrorPages.siteId), asc(siteErrorPages.status));
  }
}
