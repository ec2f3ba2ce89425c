import { and, count, desc, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { accounts, products, sites } from '../../platform/db/schema.js';

export interface SiteFilter {
  siteName?: string | undefined;
  status?: 'normal' | 'pause' | 'limit' | undefined;
  productID?: number | undefined;
}

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
  createdAt: sites.createdAt,
  productName: products.name,
  userAccount: accounts.account,
};
export type SiteView = {
  id: number;
  ownerId: number;
  userId: number;
  productId: number;
  name: string;
  status: 'normal' | 'pause' | 'limit';
  tags: string[];
  expiresAt: Date | null;
  forceBackup: boolean;
  createdAt: Date;
  productName: string;
  userAccount: string;
};

/** Sites, scoped either to the operator that owns them or to the customer they belong to. */
export class SitesRepository {
  constructor(private readonly db: Db) {}

  private where(scope: SQL, f: SiteFilter): SQL | undefined {
    return and(
      scope,
      f.siteName ? ilike(sites.name, containsPattern(f.siteName)) : undefined,
      f.status ? eq(sites.status, f.status) : undefined,
      f.productID ? eq(sites.productId, f.productID) : undefined,
    );
  }

  async list(scope: { ownerId: number } | { userId: number }, f: SiteFilter, page: number, pageSize: number) {
    const base = 'ownerId' in scope ? eq(sites.ownerId, scope.ownerId) : eq(sites.userId, scope.userId);
    const where = this.where(base, f);
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

  async find(scope: { ownerId: number } | { userId: number }, id: number): Promise<SiteView | undefined> {
    const base = 'ownerId' in scope ? eq(sites.ownerId, scope.ownerId) : eq(sites.userId, scope.userId);
    const rows = await this.db
      .select(columns)
      .from(sites)
      .innerJoin(products, eq(products.id, sites.productId))
      .innerJoin(accounts, eq(accounts.id, sites.userId))
      .where(and(base, eq(sites.id, id)));
    return rows[0] as SiteView | undefined;
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

  async setStatus(ownerId: number, ids: number[], status: 'normal' | 'pause' | 'limit'): Promise<number> {
    const rows = await this.db
      .update(sites)
      .set({ status, updatedAt: sql`now()` })
      .where(and(eq(sites.ownerId, ownerId), inArray(sites.id, ids)))
      .returning({ id: sites.id });
    return rows.length;
  }
}
