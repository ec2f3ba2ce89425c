import {
  CACHE_RULES_PER_SITE,
  type CacheRule,
  type cacheRuleInputSchema,
  type EdgeCachePolicy,
  FILE_TYPE_GROUPS,
} from '@rampart/contract';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../platform/db/database.js';
import { siteCacheRules, sites } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { SiteAccess } from './site-access.js';
import { SitesRepository } from './sites.repository.js';

type RuleInput = z.output<typeof cacheRuleInputSchema>;
type RuleRow = typeof siteCacheRules.$inferSelect;

/** The order the edge tries a site's rules in: priority (higher first), then the oldest first. */
const ruleOrder = [desc(siteCacheRules.priority), asc(siteCacheRules.id)];

function present(row: RuleRow): CacheRule {
  return {
    id: row.id,
    siteID: row.siteId,
    scope: row.scope,
    values: row.values,
    ttl: row.ttl,
    queryString: row.queryString,
    bypass: row.bypass,
    respectOrigin: row.respectOrigin,
    priority: row.priority,
    memo: row.memo,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function columns(input: RuleInput) {
  return {
    scope: input.scope,
    values: input.values,
    ttl: input.ttl,
    queryString: input.queryString,
    bypass: input.bypass,
    respectOrigin: input.respectOrigin,
    priority: input.priority,
    memo: input.memo,
  };
}

/**
 * A site's cache rules and its cache generation (packages/contract/src/routes/site-cache.ts).
 * Every write is one transaction; the snapshot hook in app.ts sends the result to the nodes.
 */
export class SiteCacheService {
  constructor(
    private readonly db: Db,
    private readonly access: SiteAccess,
  ) {}

  async list(userId: number, siteId: number): Promise<{ rules: CacheRule[]; generation: number }> {
    await this.access.userSite(userId, siteId);
    const [site] = await this.db.select({ generation: sites.cacheGeneration }).from(sites).where(eq(sites.id, siteId));
    const rows = await this.db
      .select()
      .from(siteCacheRules)
      .where(eq(siteCacheRules.siteId, siteId))
      .orderBy(...ruleOrder);
    return { rules: rows.map(present), generation: site?.generation ?? 1 };
  }

  async add(userId: number, siteId: number, inputs: RuleInput[]): Promise<CacheRule[]> {
    await this.access.userSite(userId, siteId);
    return this.db.transaction(async (tx) => {
      // The site row stays locked until the transaction ends: concurrent adds count in turn.
      await new SitesRepository(tx).lock(siteId);
      const [{ count } = { count: 0 }] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(siteCacheRules)
        .where(eq(siteCacheRules.siteId, siteId));
      if (count + inputs.length > CACHE_RULES_PER_SITE) {
        throw new AppError(101029, { extra: { max: CACHE_RULES_PER_SITE } });
      }
      const rows = await tx
        .insert(siteCacheRules)
        .values(inputs.map((input) => ({ siteId, ...columns(input) })))
        .returning();
      return rows.map(present);
    });
  }

  async update(userId: number, siteId: number, ruleId: number, input: RuleInput): Promise<CacheRule> {
    await this.access.userSite(userId, siteId);
    const [row] = await this.db
      .update(siteCacheRules)
      .set({ ...columns(input), updatedAt: new Date() })
      .where(and(eq(siteCacheRules.id, ruleId), eq(siteCacheRules.siteId, siteId)))
      .returning();
    if (!row) throw new AppError(101018);
    return present(row);
  }

  /** All or none: an id that is not a rule of this site refuses the whole call (101018). */
  async delete(userId: number, siteId: number, ids: number[]): Promise<void> {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.db.transaction(async (tx) => {
      const deleted = await tx
        .delete(siteCacheRules)
        .where(and(eq(siteCacheRules.siteId, siteId), inArray(siteCacheRules.id, unique)))
        .returning({ id: siteCacheRules.id });
      if (deleted.length !== unique.length) throw new AppError(101018);
    });
  }

  /** A new cache generation: every cache key of the site changes on every node. */
  async clear(userId: number, siteId: number): Promise<{ generation: number }> {
    await this.access.userSite(userId, siteId);
    const [row] = await this.db
      .update(sites)
      .set({ cacheGeneration: sql`${sites.cacheGeneration} + 1` })
      .where(eq(sites.id, siteId))
      .returning({ generation: sites.cacheGeneration });
    return { generation: row?.generation ?? 1 };
  }
}

/**
 * The edge's cache policies of the given sites: those with at least one rule, rules in the order
 * the edge tries them, file-type groups expanded into suffixes.
 */
export async function edgeCachePolicies(db: Db, siteIds: number[]): Promise<EdgeCachePolicy[]> {
  if (siteIds.length === 0) return [];
  const rows = await db
    .select({ rule: siteCacheRules, generation: sites.cacheGeneration })
    .from(siteCacheRules)
    .innerJoin(sites, eq(sites.id, siteCacheRules.siteId))
    .where(inArray(siteCacheRules.siteId, siteIds))
    .orderBy(asc(siteCacheRules.siteId), ...ruleOrder);
  const policies = new Map<number, EdgeCachePolicy>();
  for (const { rule, generation } of rows) {
    let policy = policies.get(rule.siteId);
    if (!policy) {
      policy = { id: rule.siteId, generation, rules: [] };
      policies.set(rule.siteId, policy);
    }
    const values =
      rule.scope === 'fileType'
        ? [
            ...new Set(
              rule.values.flatMap((group) => [...(FILE_TYPE_GROUPS[group as keyof typeof FILE_TYPE_GROUPS] ?? [])]),
            ),
          ]
        : rule.values;
    policy.rules.push({
      scope: rule.scope === 'fileType' ? 'suffix' : rule.scope,
      values,
      ttl: rule.ttl,
      queryString: rule.queryString,
      bypass: rule.bypass,
      respectOrigin: rule.respectOrigin,
    });
  }
  return [...policies.values()];
}
