import type { Site } from '@rampart/contract';
import type { Db } from '../../platform/db/database.js';
import { isForeignKeyViolation } from '../../platform/db/errors.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { AccountsRepository } from '../auth/accounts.repository.js';
import type { ProductsRepository } from '../products/products.repository.js';
import { type SiteFilter, SitesRepository, type SiteView } from './sites.repository.js';

export function presentSite(row: SiteView): Site {
  return {
    siteID: row.id,
    siteName: row.name,
    status: row.status,
    tags: row.tags,
    productID: row.productId,
    productName: row.productName,
    userID: row.userId,
    userAccount: row.userAccount,
    expiredAt: row.expiresAt?.toISOString() ?? null,
    forceBackup: row.forceBackup,
    createdAt: row.createdAt.toISOString(),
  };
}

type Paged = SiteFilter & { page: number; pageSize: number };

/** Sites: the operator manages them; the customer sees its own. */
export class SitesService {
  constructor(
    private readonly db: Db,
    private readonly sites: SitesRepository,
    private readonly products: ProductsRepository,
    private readonly accounts: AccountsRepository,
  ) {}

  async listForOperator(operatorId: number, q: Paged) {
    const { rows, total } = await this.sites.list({ ownerId: operatorId }, q, q.page, q.pageSize);
    return { data: rows.map(presentSite), total };
  }

  async listForUser(userId: number, q: Paged) {
    const { rows, total } = await this.sites.list({ userId }, q, q.page, q.pageSize);
    return { data: rows.map(presentSite), total };
  }

  async getForUser(userId: number, siteId: number): Promise<Site> {
    const row = await this.sites.find({ userId }, siteId);
    if (!row) throw new AppError(101018);
    return presentSite(row);
  }

  async create(
    operatorId: number,
    input: { siteName: string; userID: number; productID: number; tags: string[]; expiredAt: string | null },
  ): Promise<Site> {
    // The product must be the operator's, and the customer an account of the user tier below it.
    const product = await this.products.find(operatorId, input.productID);
    const user = await this.accounts.findById(input.userID);
    if (!product || !user || user.tier !== 'user' || !(await this.accounts.isDescendant(operatorId, user.id))) {
      throw new AppError(101018);
    }
    const id = await this.sites.insert({
      ownerId: operatorId,
      userId: user.id,
      productId: product.id,
      name: input.siteName.trim(),
      tags: [...new Set(input.tags)],
      expiresAt: input.expiredAt ? new Date(input.expiredAt) : null,
    });
    const row = await this.sites.find({ ownerId: operatorId }, id);
    if (!row) throw new Error('created site not found');
    return presentSite(row);
  }

  /** All or none: an id that is not the operator's leaves every site as it was. */
  private async allOrNone(ids: number[], change: (repo: SitesRepository, unique: number[]) => Promise<number>) {
    const unique = [...new Set(ids)];
    await this.db.transaction(async (tx) => {
      if ((await change(new SitesRepository(tx), unique)) !== unique.length) throw new AppError(101018);
    });
  }

  /** A site that still has domains is refused (205005): its customer's configuration would vanish from the edge. */
  async delete(operatorId: number, ids: number[]) {
    try {
      await this.allOrNone(ids, (repo, unique) => repo.deleteMany(operatorId, unique));
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new AppError(205005);
      throw error;
    }
  }

  setStatus(operatorId: number, ids: number[], status: 'normal' | 'pause' | 'limit') {
    return this.allOrNone(ids, (repo, unique) => repo.setStatus(operatorId, unique, status));
  }
}
