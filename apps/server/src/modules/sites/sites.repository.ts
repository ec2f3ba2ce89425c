import { and, asc, count, desc, eq, gt, ilike, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { accounts, domains, products, sites } from '../../platform/db/schema.js';
import { hasAnyTag, tagElements } from '../../platform/db/tags.js';

export type SiteStatus = 'normal' | 'pause' | 'limit';

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

const domainCount = sql<number>`(select count(*) from ${domains} where ${domains.siteId} = ${sites.id})`.mapWith(
  Number,
);
const columns = {
  id: sites.id,
  ownerId: sites.ownerId,
  userId: sites.userId,
  productId: sites.productId,
  name: sites.name,
  status: sites.status,
  tags: sites.tags,
  expiresAt: sites.expiresAt,
  forceBackup: sites.forceBackup,
  memo: sites.memo,
  maxDomains: sites.maxDomains,
  createdAt: sites.createdAt,
  productName: products.name,
  productPortType: products.portType,
  userAccount: accounts.account,
  domainCount,
};
export type SiteView = {
  id: number;
  ownerId: number;
  userId: number;
  productId: number;
  name: string;
  status: SiteStatus;
  tags: string[];
  expiresAt: Date | null;
  forceBackup: boolean;
  memo: string;
  maxDomains: number;
  createdAt: Date;
  productName: string;
  productPortType: 7 | 4;
  userAccount: string;
  domainCount: number;
};
export type SiteScope = { ownerId: number } | { userId: number };

/** Sites, scoped either to the operator that owns them or to the customer they belong to. */
export class SitesRepository {
  constructor(private readonly db: Db) {}

  private where(scope: SiteScope, f: SiteFilter): SQL | undefined {
    const now = new Date();
    return and(
      'ownerId' in scope ? eq(sites.ownerId, scope.ownerId) : eq(sites.userId, scope.userId),
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
    const [rows, [total]] = await Promise.all([
      this.db
        .select(columns)
        .from(sites)
        .innerJoin(products, eq(products.id, sites.productId))
        .innerJoin(accounts, eq(accounts.id, sites.userId))
        .where(where)
        .orderBy(desc(sites.createdAt), desc(sites.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      this.db.select({ n: count() }).from(sites).where(where),
    ]);
    return { rows: rows as SiteView[], total: total?.n ?? 0 };
  }

  /**
   * Sites among `ids` in the scope (fewer than asked when some are not the caller's). `lock` holds
   * their rows until the transaction ends, so a bulk change checks and writes the same state.
   */
  async findMany(scope: SiteScope, ids: number[], lock = false): Promise<SiteView[]> {
    if (ids.length === 0) return [];
    const base = 'ownerId' in scope ? eq(sites.ownerId, scope.ownerId) : eq(sites.userId, scope.userId);
    const query = this.db
      .select(columns)
      .from(sites)
      .innerJoin(products, eq(products.id, sites.productId))
      .innerJoin(accounts, eq(accounts.id, sites.userId))
      .where(and(base, inArray(sites.id, ids)));
    return (lock ? await query.for('update', { of: sites }) : await query) as SiteView[];
  }

  async find(scope: SiteScope, id: number): Promise<SiteView | undefined> {
    return (await this.findMany(scope, [id]))[0];
  }

  meta(ownerId: number, userId?: number) {
    return this.db
      .select({ id: sites.id, name: sites.name })
      .from(sites)
      .where(and(eq(sites.ownerId, ownerId), userId ? eq(sites.userId, userId) : undefined))
      .orderBy(asc(sites.name), asc(sites.id));
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

  /** Locks one site's row until the transaction ends (domain creation counts against its limit). */
  async lock(id: number): Promise<{ maxDomains: number } | undefined> {
    const [row] = await this.db
      .select({ maxDomains: sites.maxDomains })
      .from(sites)
      .where(eq(sites.id, id))
      .for('update');
    return row;
  }
}
