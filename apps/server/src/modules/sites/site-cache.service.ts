import { CACHE_RULES_PER_SITE, type CacheRule, type CacheRuleIn } from '@rampart/contract';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { SiteAccess } from '../../platform/tenancy/site-access.js';
import { presentCacheRule } from './site-cache.presenter.js';
import type { CacheRuleColumns, SiteCacheRepository } from './site-cache.repository.js';
import type { SitesRepository } from './sites.repository.js';

function columns(input: CacheRuleIn): CacheRuleColumns {
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
 * Every write is all or none; the snapshot hook in app.ts sends the result to the nodes.
 */
export class SiteCacheService {
  constructor(
    private readonly transactions: Transactions,
    private readonly cache: SiteCacheRepository,
    private readonly sites: SitesRepository,
    private readonly access: SiteAccess,
  ) {}

  async list(userId: number, siteId: number): Promise<{ rules: CacheRule[]; generation: number }> {
    await this.access.userSite(userId, siteId);
    const generation = await this.cache.generation(siteId);
    const rows = await this.cache.rules(siteId);
    return { rules: rows.map(presentCacheRule), generation: generation ?? 1 };
  }

  async add(userId: number, siteId: number, inputs: CacheRuleIn[]): Promise<CacheRule[]> {
    await this.access.userSite(userId, siteId);
    return this.transactions.run(async () => {
      // The site row stays locked until the transaction ends: concurrent adds count in turn.
      await this.sites.lock(siteId);
      const count = await this.cache.countRules(siteId);
      if (count + inputs.length > CACHE_RULES_PER_SITE) {
        throw new AppError(101029, { extra: { max: CACHE_RULES_PER_SITE } });
      }
      const rows = await this.cache.insertRules(siteId, inputs.map(columns));
      return rows.map(presentCacheRule);
    });
  }

  async update(userId: number, siteId: number, ruleId: number, input: CacheRuleIn): Promise<CacheRule> {
    await this.access.userSite(userId, siteId);
    const row = await this.cache.updateRule(siteId, ruleId, columns(input));
    if (!row) throw new AppError(101018);
    return presentCacheRule(row);
  }

  /** All or none: an id that is not a rule of this site refuses the whole call (101018). */
  async delete(userId: number, siteId: number, ids: number[]): Promise<void> {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      const deleted = await this.cache.deleteRules(siteId, unique);
      requireEvery(deleted, unique);
    });
  }

  /** A new cache generation: every cache key of the site changes on every node. */
  async clear(userId: number, siteId: number): Promise<{ generation: number }> {
    await this.access.userSite(userId, siteId);
    return { generation: (await this.cache.nextGeneration(siteId)) ?? 1 };
  }
}
