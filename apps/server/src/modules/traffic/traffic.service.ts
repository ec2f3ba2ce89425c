import type {
  ExtraTrafficPlan,
  ExtraTrafficPlanIn,
  ExtraTrafficPlanQuery,
  MonthlyUsage,
  MonthlyUsageQuery,
} from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { SiteAccessRepository, SiteScope } from '../../platform/tenancy/site-access.repository.js';
import type { PlanView, TrafficRepository } from './traffic.repository.js';
import { allowanceOf, type MonthBytes, monthOf, type TrafficCheck } from './traffic-check.js';

function presentPlan(row: PlanView): ExtraTrafficPlan {
  return {
    id: row.id,
    userID: row.userId,
    userName: row.userName,
    siteID: row.siteId,
    siteName: row.siteName,
    productID: row.productId,
    productName: row.productName,
    bytes: row.bytes,
    year: row.year,
    month: row.month,
    memo: row.memo,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

type PlanQuery = Partial<ExtraTrafficPlanQuery> & { page: number; pageSize: number };
type UsageQuery = Partial<MonthlyUsageQuery> & { page: number; pageSize: number };

/**
 * Extra traffic plans, monthly usage and lifting restrictions (routes/traffic.ts). The operator
 * works on its own customers' sites (an id of another operator's is 101018, like a missing one);
 * a customer reads its own (and granted) sites' plans and usage.
 */
export class TrafficService {
  constructor(
    private readonly repo: TrafficRepository,
    private readonly sites: SiteAccessRepository,
    private readonly transactions: Transactions,
    private readonly check: TrafficCheck,
    private readonly monthBytes: MonthBytes,
    private readonly clock: Clock,
  ) {}

  /** The plans of the operator's sites. */
  listPlans(operatorId: number, q: PlanQuery) {
    return this.plans({ ownerId: operatorId }, q);
  }

  /** The plans of the customer's sites. */
  listPlansOfUser(userId: number, q: PlanQuery) {
    return this.plans({ userId }, q);
  }

  private async plans(scope: SiteScope, q: PlanQuery) {
    const { rows, total } = await this.repo.listPlans(scope, q, q.page, q.pageSize);
    return { data: rows.map(presentPlan), total };
  }

  private async plan(operatorId: number, id: number): Promise<ExtraTrafficPlan> {
    const row = await this.repo.findPlan(operatorId, id);
    if (!row) throw new AppError(101018);
    return presentPlan(row);
  }

  private async ownSite(operatorId: number, siteId: number): Promise<void> {
    if (!(await this.sites.find({ ownerId: operatorId }, siteId))) throw new AppError(101018);
  }

  private values(body: ExtraTrafficPlanIn) {
    return { siteId: body.siteID, bytes: body.bytes, year: body.year, month: body.month, memo: body.memo };
  }

  /** A plan that brings the site under its allowance lifts its restriction at once. */
  async createPlan(operatorId: number, body: ExtraTrafficPlanIn): Promise<ExtraTrafficPlan> {
    await this.ownSite(operatorId, body.siteID);
    const id = await this.transactions.run(() => this.repo.insertPlan(operatorId, this.values(body)));
    await this.check.reviewSites([body.siteID]);
    return this.plan(operatorId, id);
  }

  async updatePlan(operatorId: number, id: number, body: ExtraTrafficPlanIn): Promise<ExtraTrafficPlan> {
    const before = await this.repo.findPlan(operatorId, id);
    if (!before) throw new AppError(101018);
    await this.ownSite(operatorId, body.siteID);
    await this.transactions.run(async () => {
      if ((await this.repo.updatePlan(operatorId, id, this.values(body))) === undefined) throw new AppError(101018);
    });
    await this.check.reviewSites([before.siteId, body.siteID]);
    return this.plan(operatorId, id);
  }

  /** All or none; the sites may be restricted again at once when the plans were what kept them under. */
  async deletePlans(operatorId: number, ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    const siteIds = await this.transactions.run(async () => {
      const deleted = await this.repo.deletePlans(operatorId, unique);
      requireEvery(deleted, unique);
      return deleted;
    });
    await this.check.reviewSites(siteIds);
  }

  /** Lifts the restriction of the operator's sites (all or none: 101018 for one not its own). */
  async lift(operatorId: number, ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      requireEvery(await this.sites.findMany({ ownerId: operatorId }, unique, true), unique);
      await this.repo.lift({ ownerId: operatorId }, unique, monthOf(this.clock()).key);
    });
  }

  /** One page of sites with the month's usage (default: the current month, UTC). */
  /** The month's usage of the operator's sites. */
  monthlyUsages(operatorId: number, q: UsageQuery): Promise<{ data: MonthlyUsage[]; total: number }> {
    return this.usages({ ownerId: operatorId }, q);
  }

  /** The month's usage of the customer's sites. */
  monthlyUsagesOfUser(userId: number, q: UsageQuery): Promise<{ data: MonthlyUsage[]; total: number }> {
    return this.usages({ userId }, q);
  }

  private async usages(scope: SiteScope, q: UsageQuery): Promise<{ data: MonthlyUsage[]; total: number }> {
    const now = monthOf(this.clock());
    const year = q.year ?? now.year;
    const month = q.month ?? (q.year === undefined ? now.month : 1);
    const { rows, total } = await this.repo.usageSites(scope, q.userID, q.page, q.pageSize);
    const ids = rows.map((row) => row.siteId);
    const [used, extra] = await Promise.all([
      this.monthBytes(ids, year, month),
      this.repo.extraBytes(ids, year, month),
    ]);
    const data = rows.map((row): MonthlyUsage => {
      const extraBytes = extra.get(row.siteId) ?? 0;
      const allowance = allowanceOf(row, extraBytes);
      const bytes = used.get(row.siteId) ?? 0;
      return {
        year,
        month,
        userID: row.userId,
        userName: row.userName,
        siteID: row.siteId,
        siteName: row.siteName,
        productID: row.productId,
        productName: row.productName,
        used: bytes,
        planBytes: row.monthlyTraffic,
        extraBytes,
        allowance,
        left: allowance === null ? null : Math.max(0, allowance - bytes),
        restriction: row.restriction,
      };
    });
    return { data, total };
  }
}
