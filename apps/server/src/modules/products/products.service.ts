import type { Product, ProductIn, ProductUpdateIn } from '@rampart/contract';
import { onForeignKeyViolation, onUniqueViolation } from '../../platform/db/errors.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { NodeCapacity } from '../snapshots/node-capacity.js';
import { presentProduct } from './products.presenter.js';
import type { ProductsRepository } from './products.repository.js';

/** True when `count` sites are more than a product's limit allows (0 = unlimited). */
export function overSiteLimit(product: { siteLimit: number }, count: number): boolean {
  return product.siteLimit > 0 && count > product.siteLimit;
}

/** The monthly allowance and what a site over it gets (docs/decisions.md "Traffic packages"). */
function trafficColumns(input: ProductIn) {
  return { monthlyTraffic: input.monthlyTraffic, overTraffic: input.overTraffic, throttleKbps: input.throttleKbps };
}

/** Products of one operator; their groups must be the operator's and of the product's port type. */
export class ProductsService {
  constructor(
    private readonly products: ProductsRepository,
    private readonly transactions: Transactions,
    private readonly capacity: NodeCapacity,
  ) {}

  async list(operatorId: number, page: number, pageSize: number) {
    const { rows, total } = await this.products.list(operatorId, page, pageSize);
    const ids = rows.map((r) => r.id);
    const [groups, counts] = await Promise.all([this.products.groupsOf(ids), this.products.siteCounts(ids)]);
    return { data: rows.map((r) => presentProduct(r, groups, counts.get(r.id) ?? 0)), total };
  }

  meta(operatorId: number) {
    return this.products.meta(operatorId);
  }

  async get(operatorId: number, id: number): Promise<Product> {
    const row = await this.products.find(operatorId, id);
    if (!row) throw new AppError(101018);
    const counts = await this.products.siteCounts([id]);
    return presentProduct(row, await this.products.groupsOf([id]), counts.get(id) ?? 0);
  }

  async groups(operatorId: number, id: number, isBackup: boolean) {
    if (!(await this.products.find(operatorId, id))) throw new AppError(101018);
    return this.products.groupDetails(id, isBackup);
  }

  private async checkGroups(operatorId: number, input: ProductIn) {
    const main = [...new Set(input.mainGroupIDs)];
    const backup = [...new Set(input.backupGroupIDs)];
    if (backup.some((id) => main.includes(id))) {
      throw invalidFields([{ field: 'backupGroupIDs', key: 'invalidValue' }]);
    }
    const owned = await this.products.ownedGroups(operatorId, [...main, ...backup]);
    if (owned.length !== main.length + backup.length) throw new AppError(101018);
    if (owned.some((g) => g.portType !== input.portType)) {
      throw invalidFields([{ field: 'mainGroupIDs', key: 'invalidValue' }]);
    }
    return { main, backup };
  }

  async create(operatorId: number, input: ProductIn): Promise<Product> {
    const { main, backup } = await this.checkGroups(operatorId, input);
    return onUniqueViolation(101025, async () => {
      const id = await this.transactions.run(async () => {
        const created = await this.products.insert({
          ownerId: operatorId,
          name: input.name.trim(),
          portType: input.portType,
          memo: input.memo,
          siteLimit: input.siteLimit,
          ...trafficColumns(input),
        });
        await this.products.setGroups(created, main, backup);
        return created;
      });
      return this.get(operatorId, id);
    });
  }

  async update(operatorId: number, input: ProductUpdateIn): Promise<Product> {
    const { main, backup } = await this.checkGroups(operatorId, input);
    return onUniqueViolation(101025, async () => {
      await this.transactions.run(async () => {
        // The nodes of the new groups take the product's sites.
        const loads = { products: [input.id], groups: [...main, ...backup] };
        const nodesStillFit = await this.capacity.before(operatorId, loads, { nameNode: true });
        const current = await this.products.lock(operatorId, input.id);
        if (!current) throw new AppError(101018);
        // Sites keep the product they have: a limit below them, or a new port type under their L7 domains
        // (205005) or L4 ports (205004), is refused.
        const counts = await this.products.siteCounts([input.id]);
        if (overSiteLimit(input, counts.get(input.id) ?? 0)) throw new AppError(204003);
        if (current.portType !== input.portType && (await this.products.hasDomains(input.id)))
          throw new AppError(205005);
        if (current.portType !== input.portType && (await this.products.hasPorts(input.id))) throw new AppError(205004);
        const values = {
          name: input.name.trim(),
          portType: input.portType,
          memo: input.memo,
          siteLimit: input.siteLimit,
          ...trafficColumns(input),
        };
        await this.products.update(operatorId, input.id, values);
        await this.products.setGroups(input.id, main, backup);
        await nodesStillFit();
      });
      return this.get(operatorId, input.id);
    });
  }

  async delete(operatorId: number, id: number): Promise<void> {
    await onForeignKeyViolation(204002, async () => {
      if (!(await this.products.delete(operatorId, id))) throw new AppError(101018);
    });
  }
}
