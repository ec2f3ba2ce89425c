import type {
  OperatorSite,
  ResourceInfo,
  Site,
  SiteCreateIn,
  SiteUpdateIn,
  SiteUser,
  UserProduct,
  UserSiteDetail,
} from '@rampart/contract';
import { onForeignKeyViolation } from '../../platform/db/errors.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SiteStatus, SiteView } from '../../platform/tenancy/site-access.repository.js';
import type { AccountsRepository } from '../auth/accounts.repository.js';
import type { LicenseLimits } from '../licenses/license-limits.js';
import type { ProductsRepository } from '../products/products.repository.js';
import { overSiteLimit } from '../products/products.service.js';
import type { CapacityScope, NodeCapacity } from '../snapshots/node-capacity.js';
import { presentOperatorSite, presentSite } from './sites.presenter.js';
import type { SiteFilter, SitesRepository } from './sites.repository.js';

type Paged = SiteFilter & { page: number; pageSize: number };
/**
 * A site the traffic check restricted is neither re-enabled nor moved to another product (whose
 * allowance would change what it may serve) until the operator lifts the restriction: 205006.
 */
function notTrafficRestricted(rows: SiteView[]): void {
  if (rows.some((row) => row.trafficRestriction !== null)) throw new AppError(205006);
}

type Checked = (rows: SiteView[]) => Promise<void> | void;

function expired(row: SiteView, now = new Date()): boolean {
  return row.expiresAt !== null && row.expiresAt <= now;
}

/** Sites: the operator manages them; the customer sees its own. */
export class SitesService {
  constructor(
    private readonly transactions: Transactions,
    private readonly sites: SitesRepository,
    private readonly products: ProductsRepository,
    private readonly accounts: AccountsRepository,
    private readonly capacity: NodeCapacity,
    /** Bytes served for the customer's sites this month and the last (traffic analytics). */
    private readonly monthTraffic: (accountId: number) => Promise<{ current: number; last: number }>,
    private readonly licenseLimits: LicenseLimits,
    /** Gives a new site its operator's predefined settings (in the creating transaction). */
    private readonly startSettings: (operatorId: number, siteId: number) => Promise<void> = async () => {},
  ) {}

  async listForOperator(operatorId: number, q: Paged) {
    const { rows, total } = await this.sites.list({ ownerId: operatorId }, q, q.page, q.pageSize);
    return { data: rows.map(presentOperatorSite), total };
  }

  async listForUser(userId: number, q: Paged) {
    const { rows, total } = await this.sites.list({ userId }, q, q.page, q.pageSize);
    return { data: rows.map(presentSite), total };
  }

  /** One of the customer's sites with its product's port type (the console shows the tabs that apply). */
  async getForUser(userId: number, siteId: number): Promise<UserSiteDetail> {
    const row = await this.sites.find({ userId }, siteId);
    if (!row) throw new AppError(101018);
    return { ...presentSite(row), portType: row.productPortType };
  }

  meta(operatorId: number, userId?: number) {
    return this.sites.meta(operatorId, userId);
  }

  tags(operatorId: number) {
    return this.sites.tags(operatorId);
  }

  private async operatorSite(operatorId: number, id: number): Promise<OperatorSite> {
    const row = await this.sites.find({ ownerId: operatorId }, id);
    if (!row) throw new Error('site not found after writing it');
    return presentOperatorSite(row);
  }

  /** The customer must be an account of the user tier below the operator (101018 otherwise). */
  private async customer(operatorId: number, userId: number): Promise<number> {
    const user = await this.accounts.findById(userId);
    if (user?.tier !== 'user' || !(await this.accounts.isDescendant(operatorId, user.id))) {
      throw new AppError(101018);
    }
    return user.id;
  }

  /**
   * The product, locked, when `adding` more sites keep it within its sites limit (204003), so two
   * concurrent writers cannot both take the last place.
   */
  private async productWithRoom(operatorId: number, productId: number, adding: number) {
    const product = await this.products.lock(operatorId, productId);
    if (!product) throw new AppError(101018);
    const carried = await this.sites.countOnProduct(productId);
    if (adding > 0 && overSiteLimit(product, carried + adding)) throw new AppError(204003);
    return product;
  }

  async create(operatorId: number, input: SiteCreateIn): Promise<OperatorSite> {
    const userId = await this.customer(operatorId, input.userID);
    const id = await this.transactions.run(async () => {
      await this.licenseLimits.check(operatorId, 'sites');
      const product = await this.productWithRoom(operatorId, input.productID, 1);
      const siteId = await this.sites.insert({
        ownerId: operatorId,
        userId,
        productId: product.id,
        name: input.siteName.trim(),
        tags: [...new Set(input.tags)],
        expiresAt: input.expiredAt ? new Date(input.expiredAt) : null,
      });
      await this.startSettings(operatorId, siteId);
      return siteId;
    });
    return this.operatorSite(operatorId, id);
  }

  async update(operatorId: number, input: SiteUpdateIn): Promise<OperatorSite> {
    const changed = await this.sites.updateMany(operatorId, [input.id], {
      name: input.siteName.trim(),
      memo: input.memo,
    });
    if (changed !== 1) throw new AppError(101018);
    return this.operatorSite(operatorId, input.id);
  }

  /**
   * All or none: the sites are locked and read, `check` may refuse the whole change, then `values`
   * are written to every one of them in the same transaction. An id that is not the operator's is
   * 101018, exactly like a missing one.
   */
  private change(
    operatorId: number,
    ids: number[],
    values: Parameters<SitesRepository['updateMany']>[2],
    check?: Checked,
    /** Nodes the change may load (sites moved to another product): checked after the write. */
    loads?: CapacityScope,
  ) {
    const unique = [...new Set(ids)];
    return this.transactions.run(async () => {
      const nodesStillFit = loads ? await this.capacity.before(operatorId, loads, { nameNode: true }) : null;
      const rows = await this.sites.findMany({ ownerId: operatorId }, unique, true);
      requireEvery(rows, unique);
      await check?.(rows);
      await this.sites.updateMany(operatorId, unique, values);
      await nodesStillFit?.();
      return rows;
    });
  }

  /**
   * A site that still has layer-4 ports (205004) or domains (205005) is refused: its customer's
   * configuration would vanish from the edge.
   */
  async delete(operatorId: number, ids: number[]) {
    const unique = [...new Set(ids)];
    await onForeignKeyViolation(205005, async () => {
      await this.transactions.run(async () => {
        requireEvery(await this.sites.findMany({ ownerId: operatorId }, unique, true), unique);
        const withPorts = await this.sites.withPorts(operatorId, unique);
        if (withPorts.length > 0) throw new AppError(205004, { extra: { siteIDs: withPorts.sort((a, b) => a - b) } });
        requireEvery(await this.sites.deleteMany(operatorId, unique), unique);
      });
    });
  }

  /**
   * 'limit' is the state traffic quotas put a site in, never set by hand; 'normal' on an expired
   * site would not serve it (the expiry wins), so the expiry must be moved first. Both are 205002.
   */
  async setStatus(operatorId: number, ids: number[], status: SiteStatus) {
    if (status === 'limit') throw new AppError(205002);
    await this.change(operatorId, ids, { status }, (rows) => {
      if (status === 'normal') notTrafficRestricted(rows);
      if (status === 'normal' && rows.some((row) => expired(row))) throw new AppError(205002);
    });
  }

  /** The sub-accounts the old customer gave access to lose it with the sites. */
  async setUser(operatorId: number, ids: number[], userID: number) {
    const userId = await this.customer(operatorId, userID);
    await this.change(operatorId, ids, { userId }, async (rows) => {
      await this.sites.revokeAll(rows.filter((row) => row.userId !== userId).map((row) => row.id));
    });
  }

  /** Another product of the same port type (101003 on productID otherwise), within its sites limit. */
  async changeProduct(operatorId: number, ids: number[], productID: number) {
    await this.change(
      operatorId,
      ids,
      { productId: productID },
      async (rows) => {
        notTrafficRestricted(rows);
        const moving = rows.filter((row) => row.productId !== productID).length;
        const product = await this.productWithRoom(operatorId, productID, moving);
        if (rows.some((row) => row.productPortType !== product.portType)) {
          throw invalidFields([{ field: 'productID', key: 'invalidValue' }]);
        }
      },
      // The nodes of the new product's groups take the sites' domains.
      { sites: ids, products: [productID] },
    );
  }

  /**
   * Which nodes serve a site is derived from its product's groups whenever a snapshot is built, so
   * nothing per site is stored to re-derive: refreshing publishes the sites again (this successful
   * call bumps the configuration generation, and every node rebuilds) and answers the groups that
   * serve each site now — the backup groups while it is forced to backup.
   */
  async refreshProduct(operatorId: number, ids: number[]) {
    const rows = await this.sites.findMany({ ownerId: operatorId }, [...new Set(ids)]);
    if (rows.length !== new Set(ids).size) throw new AppError(101018);
    const groups = await this.products.groupsOf([...new Set(rows.map((row) => row.productId))]);
    return rows.map((row) => ({
      siteID: row.id,
      groups: groups
        .filter((g) => g.productId === row.productId && g.isBackup === row.forceBackup)
        .map((g) => ({ id: g.id, name: g.name })),
    }));
  }

  /**
   * A site that already has more domains (401002) or layer-4 ports (401007) than the new limit
   * allows is refused; `maxPorts` left out keeps each site's current value.
   */
  async setLimitations(operatorId: number, ids: number[], limitations: { maxDomains: number; maxPorts?: number }) {
    const { maxDomains, maxPorts } = limitations;
    await this.change(operatorId, ids, { maxDomains, ...(maxPorts !== undefined ? { maxPorts } : {}) }, (rows) => {
      if (maxDomains > 0 && rows.some((row) => row.domainCount > maxDomains)) throw new AppError(401002);
      if (maxPorts !== undefined && maxPorts > 0 && rows.some((row) => row.portCount > maxPorts)) {
        throw new AppError(401007);
      }
    });
  }

  async setExpiry(operatorId: number, ids: number[], expiredAt: string | null) {
    await this.change(operatorId, ids, { expiresAt: expiredAt ? new Date(expiredAt) : null });
  }

  async setForceBackup(operatorId: number, ids: number[], forceBackup: boolean) {
    await this.change(operatorId, ids, { forceBackup });
  }

  async setTags(operatorId: number, ids: number[], tags: string[]) {
    await this.change(operatorId, ids, { tags: [...new Set(tags)] });
  }

  // The customer's side: its sites' tags, who of its sub-accounts may use them, and its totals.

  metaForUser(userId: number) {
    return this.sites.metaForUser(userId);
  }

  userTags(userId: number) {
    return this.sites.userTags(userId);
  }

  /** Only the customer holding every one of the sites may retag them (101018 otherwise, nothing changed). */
  async setUserTags(userId: number, ids: number[], tags: string[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      requireEvery(await this.sites.setHolderTags(userId, unique, [...new Set(tags)]), unique);
    });
  }

  async setUserSiteTags(userId: number, siteId: number, tags: string[]): Promise<Site> {
    await this.setUserTags(userId, [siteId], tags);
    return this.getForUser(userId, siteId);
  }

  /** The site must be the caller's own (a sub-account given access to it may not ask: 101018). */
  async siteUsers(userId: number, siteId: number): Promise<SiteUser[]> {
    if (!(await this.sites.find({ holderId: userId }, siteId))) throw new AppError(101018);
    return this.sites.siteUsers(userId, siteId);
  }

  /**
   * Gives (or takes back) access: every site must be held by the caller and every account one of
   * its sub-accounts, else 101018 and nothing changes.
   */
  async setSiteUsers(userId: number, siteIds: number[], userIds: number[], grant: boolean): Promise<void> {
    const sitesWanted = [...new Set(siteIds)];
    const usersWanted = [...new Set(userIds)];
    await this.transactions.run(async () => {
      const held = await this.sites.findMany({ holderId: userId }, sitesWanted, true);
      requireEvery(held, sitesWanted);
      requireEvery(await this.sites.subAccounts(userId, usersWanted), usersWanted);
      if (grant) await this.sites.grant(sitesWanted, usersWanted);
      else await this.sites.revoke(sitesWanted, usersWanted);
    });
  }

  async resourceInfo(userId: number): Promise<ResourceInfo> {
    const [counts, traffic] = await Promise.all([this.sites.resourceCounts(userId), this.monthTraffic(userId)]);
    return { ...counts, currentMonthTraffic: traffic.current, lastMonthTraffic: traffic.last };
  }

  async userProducts(
    userId: number,
    q: { productIDs?: number[] | undefined; page: number; pageSize: number },
  ): Promise<{ data: UserProduct[]; total: number }> {
    const { rows, total } = await this.sites.userProducts(userId, q.productIDs, q.page, q.pageSize);
    return { data: rows, total };
  }
}
