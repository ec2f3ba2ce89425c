import { and, asc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { domains, sites } from '../../platform/db/schema.js';
import { tagElements } from '../../platform/db/tags.js';
import { type SiteScope, siteScope } from '../../platform/tenancy/site-access.repository.js';

export interface DomainSiteFilter {
  siteID?: number | undefined;
  siteName?: string | undefined;
}

/**
 * Domains across the sites a scope admits, for pickers, tag filters and ids by name: the
 * operator's own sites (`{ ownerId }`) or a customer's, sub-accounts included (`{ userId }`).
 * Every query joins the site and keeps to that scope, the same one every site call uses.
 */
export class DomainsAcrossSitesRepository {
  constructor(private readonly db: Db) {}

  meta(scope: SiteScope, siteIds: number[], name: string, limit: number) {
    return this.db
      .select({ id: domains.id, name: domains.name, siteID: domains.siteId })
      .from(domains)
      .innerJoin(sites, eq(sites.id, domains.siteId))
      .where(
        and(
          siteScope(scope),
          siteIds.length > 0 ? inArray(domains.siteId, siteIds) : undefined,
          name.trim() ? ilike(domains.name, containsPattern(name.trim().toLowerCase())) : undefined,
        ),
      )
      .orderBy(asc(domains.name), asc(domains.id))
      .limit(limit);
  }

  async tags(scope: SiteScope, siteIds: number[]): Promise<string[]> {
    const tag = tagElements(domains.tags);
    const rows = await this.db
      .selectDistinct({ tag })
      .from(domains)
      .innerJoin(sites, eq(sites.id, domains.siteId))
      .where(and(siteScope(scope), siteIds.length > 0 ? inArray(domains.siteId, siteIds) : undefined))
      .orderBy(sql`1`);
    return rows.map((r) => r.tag);
  }

  async idsByName(scope: SiteScope, name: string, site: DomainSiteFilter): Promise<number[]> {
    const rows = await this.db
      .select({ id: domains.id })
      .from(domains)
      .innerJoin(sites, eq(sites.id, domains.siteId))
      .where(
        and(
          siteScope(scope),
          eq(domains.name, name),
          site.siteID ? eq(sites.id, site.siteID) : undefined,
          site.siteName ? eq(sites.name, site.siteName) : undefined,
        ),
      )
      .orderBy(asc(domains.id));
    return rows.map((r) => r.id);
  }
}
