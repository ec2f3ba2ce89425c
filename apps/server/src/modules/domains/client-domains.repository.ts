import { and, count, desc, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { readPage } from '../../platform/db/paging.js';
import { accounts, domains, sites } from '../../platform/db/schema.js';
import { hasAnyTag } from '../../platform/db/tags.js';

/** One row of the operator's domain list. */
export type ClientDomainRow = Awaited<ReturnType<ClientDomainsRepository['list']>>['rows'][number];

export interface ClientDomainFilter {
  siteID?: number | undefined;
  name?: string | undefined;
  tags?: string[] | undefined;
  status?: 0 | 1 | undefined;
}

/** The operator's view of domains: every query joins the site and carries the operator's id. */
export class ClientDomainsRepository {
  constructor(private readonly db: Db) {}

  private where(ownerId: number, f: ClientDomainFilter): SQL | undefined {
    return and(
      eq(sites.ownerId, ownerId),
      f.siteID ? eq(domains.siteId, f.siteID) : undefined,
      f.name ? ilike(domains.name, containsPattern(f.name.trim().toLowerCase())) : undefined,
      f.tags && f.tags.length > 0 ? hasAnyTag(domains.tags, f.tags) : undefined,
      f.status === undefined ? undefined : eq(domains.enabled, f.status === 1),
    );
  }

  async list(ownerId: number, f: ClientDomainFilter, page: number, pageSize: number) {
    const where = this.where(ownerId, f);
    return readPage(
      this.db
        .select({
          id: domains.id,
          name: domains.name,
          siteId: domains.siteId,
          siteName: sites.name,
          userAccount: accounts.account,
          enabled: domains.enabled,
          tags: domains.tags,
          createdAt: domains.createdAt,
        })
        .from(domains)
        .innerJoin(sites, eq(sites.id, domains.siteId))
        .innerJoin(accounts, eq(accounts.id, sites.userId))
        .where(where)
        .orderBy(desc(domains.createdAt), desc(domains.id)),
      this.db.select({ n: count() }).from(domains).innerJoin(sites, eq(sites.id, domains.siteId)).where(where),
      { page, pageSize },
    );
  }

  /** Ids among `ids` of domains in the operator's sites. */
  async owned(ownerId: number, ids: number[]): Promise<number[]> {
    const rows = await this.db
      .select({ id: domains.id })
      .from(domains)
      .innerJoin(sites, eq(sites.id, domains.siteId))
      .where(and(eq(sites.ownerId, ownerId), inArray(domains.id, ids)));
    return rows.map((r) => r.id);
  }

  /** The domains among `ids` in the operator's sites, with what their states need (domain-states.service.ts). */
  async forStates(ownerId: number, ids: number[]) {
    if (ids.length === 0) return [];
    return this.db
      .select({
        id: domains.id,
        name: domains.name,
        siteId: domains.siteId,
        enabled: domains.enabled,
        proofStatus: domains.proofStatus,
      })
      .from(domains)
      .innerJoin(sites, eq(sites.id, domains.siteId))
      .where(and(eq(sites.ownerId, ownerId), inArray(domains.id, ids)));
  }

  async setTags(ids: number[], tags: string[]): Promise<void> {
    await this.db.update(domains).set({ tags, updatedAt: sql`now()` }).where(inArray(domains.id, ids));
  }
}
