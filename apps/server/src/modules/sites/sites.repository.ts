import {
  and,
  asc,
  count,
  countDistinct,
  desc,
  eq,
  gt,
  ilike,
  inArray,
  isNull,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { containsPattern } from '../../platform/db/like.js';
import { readPage } from '../../platform/db/paging.js';
import { accounts, domains, products, sitePorts, sites, siteUsers } from '../../platform/db/schema.js';
import { hasAnyTag, tagElements } from '../../platform/db/tags.js';
import {
  SiteAccessRepository,
  type SiteScope,
  type SiteStatus,
  type SiteView,
  siteColumns,
  siteScope,
} from '../../platform/tenancy/site-access.repository.js';

export interface SiteFilter {
  siteName?: string | undefined;
  status?: SiteStatus | undefined;
  productID?: number | undefined;
  /** The operator's list only. */
  siteID?: number | undefined;
  userID?: number | undefined;
  tags?: string[] | undefined;
  expired?: boolean | undefined;
  forceBackup?: boolean | undefined;
}

/** Sites, scoped either to the operator that owns them or to the customer they belong to. */
export class SitesRepository extends SiteAccessRepository {
  private where(scope: SiteScope, f: SiteFilter): SQL | undefined {
    const now = new Date();
    return and(
      siteScope(scope),
      f.siteName ? ilike(sites.name, containsPattern(f.siteName)) : undefined,
      f.status ? eq(sites.status, f.status) : undefined,
      f.productID ? eq(sites.productId, f.productID) : undefined,
      f.siteID ? eq(sites.id, f.siteID) : undefined,
      f.userID ? eq(sites.userId, f.userID) : undefined,
      f.tags && f.tags.length > 0 ? hasAnyTag(sites.tags, f.tags) : undefined,
      f.expired === undefined
        ? undefined
        : f.expired
          ? lte(sites.expiresAt, now)
          : or(isNull(sites.expiresAt), gt(sites.expiresAt, now)),
      f.forceBackup === undefined ? undefined : eq(sites.forceBackup, f.forceBackup),
    );
  }

  async list(scope: SiteScope, f: SiteFilter, page: number, pageSize: number) {
    const where = this.where(scope, f);
    return readPage<SiteView>(
      this.db
        .select(siteColumns)
        .from(sites)
        .innerJoin(products, eq(products.id, sites.productId))
        .innerJoin(accounts, eq(accounts.id, sites.userId))
        .where(where)
        .orderBy(desc(sites.createdAt), desc(sites.id)),
      this.db.select({ n: count() }).from(sites).where(where),
      { page, pageSize },
    );
  }

  meta(ownerId: number, userId?: number) {
    return this.db
      .select({ id: sites.id, name: sites.name })
      .from(sites)
      .where(and(eq(sites.ownerId, ownerId), userId ? eq(sites.userId, userId) : undefined))
      .orderBy(asc(sites.name), asc(sites.id));
  }

  /** The customer's sites (held or given access to) as id and name. */
  metaForUser(userId: number) {
    return this.db
      .select({ id: sites.id, name: sites.name })
      .from(sites)
      .where(siteScope({ userId }))
      .orderBy(asc(sites.name), asc(sites.id));
  }

  /** Every tag the customer's sites (held or given access to) carry, sorted. */
  async userTags(userId: number): Promise<string[]> {
    const tag = tagElements(sites.tags);
    const rows = await this.db.selectDistinct({ tag }).from(sites).where(siteScope({ userId })).orderBy(sql`1`);
    return rows.map((r) => r.tag);
  }

  /** How many sites the customer reaches and how many domains they have. */
  async resourceCounts(userId: number): Promise<{ siteCount: number; domainCount: number }> {
    const [row] = await this.db
      .select({ siteCount: countDistinct(sites.id), domainCount: count(domains.id) })
      .from(sites)
      .leftJoin(domains, eq(domains.siteId, sites.id))
      .where(siteScope({ userId }));
    return { siteCount: row?.siteCount ?? 0, domainCount: row?.domainCount ?? 0 };
  }

  /** The products the customer's sites are on, with how many of them each carries; paged in SQL. */
  async userProducts(userId: number, productIds: number[] | undefined, page: number, pageSize: number) {
    const where = and(
      siteScope({ userId }),
      productIds && productIds.length > 0 ? inArray(sites.productId, productIds) : undefined,
    );
    return readPage(
      this.db
        .select({ id: products.id, name: products.name, portType: products.portType, siteCount: count(sites.id) })
        .from(sites)
        .innerJoin(products, eq(products.id, sites.productId))
        .where(where)
        .groupBy(products.id, products.name, products.portType)
        .orderBy(asc(products.name), asc(products.id)),
      this.db
        .select({ n: countDistinct(sites.productId) })
        .from(sites)
        .where(where),
      { page, pageSize },
    );
  }

  /** Replaces the tags of the customer's own sites among `ids`; answers how many it changed. */
  async setHolderTags(holderId: number, ids: number[], tags: string[]): Promise<number> {
    const rows = await this.db
      .update(sites)
      .set({ tags, updatedAt: sql`now()` })
      .where(and(siteScope({ holderId }), inArray(sites.id, ids)))
      .returning({ id: sites.id });
    return rows.length;
  }

  /** The customer's sub-accounts (tier user, parent the customer), each with whether it may use `siteId`. */
  siteUsers(holderId: number, siteId: number) {
    const granted = sql<boolean>`exists (select 1 from ${siteUsers} where ${siteUsers.siteId} = ${siteId} and ${siteUsers.accountId} = ${accounts.id})`;
    return this.db
      .select({ id: accounts.id, account: accounts.account, name: accounts.name, email: accounts.email, granted })
      .from(accounts)
      .where(and(eq(accounts.parentId, holderId), eq(accounts.tier, 'user')))
      .orderBy(asc(accounts.account), asc(accounts.id));
  }

  /** Which of `ids` are sub-accounts of the customer. */
  async subAccounts(holderId: number, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.parentId, holderId), eq(accounts.tier, 'user'), inArray(accounts.id, ids)));
    return rows.map((r) => r.id);
  }

  async grant(siteIds: number[], accountIds: number[]): Promise<void> {
    const values = siteIds.flatMap((siteId) => accountIds.map((accountId) => ({ siteId, accountId })));
    if (values.length > 0) await this.db.insert(siteUsers).values(values).onConflictDoNothing();
  }

  async revoke(siteIds: number[], accountIds: number[]): Promise<void> {
    await this.db
      .delete(siteUsers)
      .where(and(inArray(siteUsers.siteId, siteIds), inArray(siteUsers.accountId, accountIds)));
  }

  /** Forgets every sub-account given access to `siteIds` (the sites went to another customer). */
  async revokeAll(siteIds: number[]): Promise<void> {
    if (siteIds.length > 0) await this.db.delete(siteUsers).where(inArray(siteUsers.siteId, siteIds));
  }

  /** Every tag the operator's sites carry, sorted. */
  async tags(ownerId: number): Promise<string[]> {
    const tag = tagElements(sites.tags);
    const rows = await this.db.selectDistinct({ tag }).from(sites).where(eq(sites.ownerId, ownerId)).orderBy(sql`1`);
    return rows.map((r) => r.tag);
  }

  /** How many sites the product carries. */
  async countOnProduct(productId: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(sites).where(eq(sites.productId, productId));
    return row?.n ?? 0;
  }

  async insert(values: typeof sites.$inferInsert): Promise<number> {
    const [row] = await this.db.insert(sites).values(values).returning({ id: sites.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  /** Which of the operator's sites among `ids` still have layer-4 ports. */
  async withPorts(ownerId: number, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectDistinct({ id: sites.id })
      .from(sites)
      .innerJoin(sitePorts, eq(sitePorts.siteId, sites.id))
      .where(and(eq(sites.ownerId, ownerId), inArray(sites.id, ids)));
    return rows.map((r) => r.id);
  }

  async deleteMany(ownerId: number, ids: number[]): Promise<number> {
    const rows = await this.db
      .delete(sites)
      .where(and(eq(sites.ownerId, ownerId), inArray(sites.id, ids)))
      .returning({ id: sites.id });
    return rows.length;
  }

  /** Sets columns of the operator's sites among `ids`; answers how many it changed. */
  async updateMany(ownerId: number, ids: number[], values: Partial<typeof sites.$inferInsert>): Promise<number> {
    if (ids.length === 0) return 0;
    const rows = await this.db
      .update(sites)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(sites.ownerId, ownerId), inArray(sites.id, ids)))
      .returning({ id: sites.id });
    return rows.length;
  }
}
