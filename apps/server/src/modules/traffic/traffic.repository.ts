import { and, count, desc, eq, ilike, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { readPage } from '../../platform/db/paging.js';
import { accounts, extraTrafficPlans, products, sites } from '../../platform/db/schema.js';
import { type SiteScope, siteScope } from '../../platform/tenancy/site-access.repository.js';

export type TrafficRestriction = 'pause' | 'throttle';

const planColumns = {
  id: extraTrafficPlans.id,
  userId: sites.userId,
  userName: accounts.account,
  siteId: extraTrafficPlans.siteId,
  siteName: sites.name,
  productId: sites.productId,
  productName: products.name,
  bytes: extraTrafficPlans.bytes,
  year: extraTrafficPlans.year,
  month: extraTrafficPlans.month,
  memo: extraTrafficPlans.memo,
  createdAt: extraTrafficPlans.createdAt,
  updatedAt: extraTrafficPlans.updatedAt,
};
export type PlanView = {
  id: number;
  userId: number;
  userName: string;
  siteId: number;
  siteName: string;
  productId: number;
  productName: string;
  bytes: number;
  year: number;
  month: number;
  memo: string;
  createdAt: Date;
  updatedAt: Date;
};
export interface PlanFilter {
  userID?: number | undefined;
  productName?: string | undefined;
  year?: number | undefined;
  month?: number | undefined;
}
export type PlanValues = { siteId: number; bytes: number; year: number; month: number; memo: string };

/** A site as the monthly usage and the traffic check read it: with its product's allowance. */
export type UsageSite = {
  siteId: number;
  siteName: string;
  ownerId: number;
  userId: number;
  userName: string;
  productId: number;
  productName: string;
  monthlyTraffic: number;
  overTraffic: TrafficRestriction;
  restriction: TrafficRestriction | null;
  liftedMonth: string | null;
  status: 'normal' | 'pause' | 'limit';
};
const usageColumns = {
  siteId: sites.id,
  siteName: sites.name,
  ownerId: sites.ownerId,
  userId: sites.userId,
  userName: accounts.account,
  productId: sites.productId,
  productName: products.name,
  monthlyTraffic: products.monthlyTraffic,
  overTraffic: products.overTraffic,
  restriction: sites.trafficRestriction,
  liftedMonth: sites.trafficLiftedMonth,
  status: sites.status,
};

/** Extra traffic plans (scoped through their site) and the sites' traffic restriction. */
export class TrafficRepository {
  constructor(private readonly db: Db) {}

  private planWhere(scope: SiteScope, f: PlanFilter): SQL | undefined {
    return and(
      siteScope(scope),
      f.userID ? eq(sites.userId, f.userID) : undefined,
      f.productName ? ilike(products.name, containsPattern(f.productName)) : undefined,
      f.year ? eq(extraTrafficPlans.year, f.year) : undefined,
      f.month ? eq(extraTrafficPlans.month, f.month) : undefined,
    );
  }

  private plans() {
    return this.db
      .select(planColumns)
      .from(extraTrafficPlans)
      .innerJoin(sites, eq(sites.id, extraTrafficPlans.siteId))
      .innerJoin(products, eq(products.id, sites.productId))
      .innerJoin(accounts, eq(accounts.id, sites.userId));
  }

  listPlans(scope: SiteScope, f: PlanFilter, page: number, pageSize: number) {
    const where = this.planWhere(scope, f);
    return readPage<PlanView>(
      this.plans().where(where).orderBy(desc(extraTrafficPlans.createdAt), desc(extraTrafficPlans.id)),
      this.db
        .select({ n: count() })
        .from(extraTrafficPlans)
        .innerJoin(sites, eq(sites.id, extraTrafficPlans.siteId))
        .innerJoin(products, eq(products.id, sites.productId))
        .where(where),
      { page, pageSize },
    );
  }

  async findPlan(ownerId: number, id: number): Promise<PlanView | undefined> {
    const rows = await this.plans().where(and(eq(extraTrafficPlans.ownerId, ownerId), eq(extraTrafficPlans.id, id)));
    return rows[0];
  }

  async insertPlan(ownerId: number, values: PlanValues): Promise<number> {
    const [row] = await this.db
      .insert(extraTrafficPlans)
      .values({ ownerId, ...values })
      .returning({ id: extraTrafficPlans.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  /** The plan's site before the change, or undefined when the plan is not the operator's. */
  async updatePlan(ownerId: number, id: number, values: PlanValues): Promise<number | undefined> {
    const [before] = await this.db
      .select({ siteId: extraTrafficPlans.siteId })
      .from(extraTrafficPlans)
      .where(and(eq(extraTrafficPlans.ownerId, ownerId), eq(extraTrafficPlans.id, id)))
      .for('update');
    if (!before) return undefined;
    await this.db
      .update(extraTrafficPlans)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(extraTrafficPlans.ownerId, ownerId), eq(extraTrafficPlans.id, id)));
    return before.siteId;
  }

  /** The sites of the deleted plans (one per plan deleted). */
  async deletePlans(ownerId: number, ids: number[]): Promise<number[]> {
    const rows = await this.db
      .delete(extraTrafficPlans)
      .where(and(eq(extraTrafficPlans.ownerId, ownerId), inArray(extraTrafficPlans.id, ids)))
      .returning({ siteId: extraTrafficPlans.siteId });
    return rows.map((row) => row.siteId);
  }

  /** Extra bytes per site for one month. */
  async extraBytes(siteIds: readonly number[], year: number, month: number): Promise<Map<number, number>> {
    if (siteIds.length === 0) return new Map();
    const rows = await this.db
      .select({ siteId: extraTrafficPlans.siteId, n: sql<string>`sum(${extraTrafficPlans.bytes})` })
      .from(extraTrafficPlans)
      .where(
        and(
          inArray(extraTrafficPlans.siteId, [...siteIds]),
          eq(extraTrafficPlans.year, year),
          eq(extraTrafficPlans.month, month),
        ),
      )
      .groupBy(extraTrafficPlans.siteId);
    return new Map(rows.map((row) => [row.siteId, Number(row.n)]));
  }

  private usage() {
    return this.db
      .select(usageColumns)
      .from(sites)
      .innerJoin(products, eq(products.id, sites.productId))
      .innerJoin(accounts, eq(accounts.id, sites.userId));
  }

  /** A page of the sites in scope (optionally one customer's), by customer then site. */
  usageSites(scope: SiteScope, userID: number | undefined, page: number, pageSize: number) {
    const where = and(siteScope(scope), userID ? eq(sites.userId, userID) : undefined);
    return readPage<UsageSite>(
      this.usage().where(where).orderBy(sites.userId, sites.id),
      this.db.select({ n: count() }).from(sites).where(where),
      { page, pageSize },
    );
  }

  /** Sites the traffic check looks at: on a product with an allowance, or restricted now. */
  watched(): Promise<UsageSite[]> {
    return this.usage()
      .where(sql`${products.monthlyTraffic} > 0 OR ${isNotNull(sites.trafficRestriction)}`)
      .orderBy(sites.id) as Promise<UsageSite[]>;
  }

  async usageSitesByIds(siteIds: readonly number[]): Promise<UsageSite[]> {
    if (siteIds.length === 0) return [];
    return this.usage().where(inArray(sites.id, [...siteIds])) as Promise<UsageSite[]>;
  }

  /**
   * Restricts a site that is not restricted yet; 'pause' also takes a serving site out of service
   * (status 'limit', which the edge answers as a disabled domain). False when it already was.
   */
  async restrict(siteId: number, mode: TrafficRestriction): Promise<boolean> {
    const rows = await this.db
      .update(sites)
      .set({
        trafficRestriction: mode,
        ...(mode === 'pause'
          ? { status: sql`CASE WHEN ${sites.status} = 'normal' THEN 'limit' ELSE ${sites.status} END` }
          : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(sites.id, siteId), sql`${sites.trafficRestriction} IS NULL`))
      .returning({ id: sites.id });
    return rows.length > 0;
  }

  /**
   * Lifts the restriction of the sites in scope that have one (a site the restriction paused serves
   * again); `liftedMonth` set keeps the check away from them for that month. The ids lifted.
   */
  async lift(scope: SiteScope, siteIds: readonly number[], liftedMonth: string | null): Promise<number[]> {
    if (siteIds.length === 0) return [];
    const rows = await this.db
      .update(sites)
      .set({
        trafficRestriction: null,
        status: sql`CASE WHEN ${sites.status} = 'limit' THEN 'normal' ELSE ${sites.status} END`,
        ...(liftedMonth ? { trafficLiftedMonth: liftedMonth } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(siteScope(scope), inArray(sites.id, [...siteIds]), isNotNull(sites.trafficRestriction)))
      .returning({ id: sites.id });
    return rows.map((row) => row.id);
  }

  /** The throttle (KB/s) of each throttled site among `siteIds`. */
  async throttled(siteIds: readonly number[]): Promise<Map<number, number>> {
    if (siteIds.length === 0) return new Map();
    const rows = await this.db
      .select({ siteId: sites.id, kbps: products.throttleKbps })
      .from(sites)
      .innerJoin(products, eq(products.id, sites.productId))
      .where(and(inArray(sites.id, [...siteIds]), eq(sites.trafficRestriction, 'throttle')));
    return new Map(rows.map((row) => [row.siteId, row.kbps]));
  }
}
