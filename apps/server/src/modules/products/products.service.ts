import type { Locale, Product } from '@rampart/contract';
import type { Db } from '../../platform/db/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db/errors.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import { type ProductGroupRef, type ProductRow, ProductsRepository } from './products.repository.js';

export function presentProduct(row: ProductRow, groups: ProductGroupRef[]): Product {
  const ref = (g: ProductGroupRef) => ({ id: g.id, name: g.name, zoneId: g.zoneId });
  return {
    id: row.id,
    name: row.name,
    portType: row.portType,
    memo: row.memo,
    mainGroups: groups.filter((g) => g.productId === row.id && !g.isBackup).map(ref),
    backupGroups: groups.filter((g) => g.productId === row.id && g.isBackup).map(ref),
    createdAt: row.createdAt.toISOString(),
  };
}

interface ProductInput {
  name: string;
  portType: 7 | 4;
  memo: string;
  mainGroupIDs: number[];
  backupGroupIDs: number[];
}

/** Products of one operator; their groups must be the operator's and of the product's port type. */
export class ProductsService {
  constructor(
    private readonly db: Db,
    private readonly products: ProductsRepository,
  ) {}

  async list(operatorId: number, page: number, pageSize: number) {
    const { rows, total } = await this.products.list(operatorId, page, pageSize);
    const groups = await this.products.groupsOf(rows.map((r) => r.id));
    return { data: rows.map((r) => presentProduct(r, groups)), total };
  }

  meta(operatorId: number) {
    return this.products.meta(operatorId);
  }

  async get(operatorId: number, id: number): Promise<Product> {
    const row = await this.products.find(operatorId, id);
    if (!row) throw new AppError(101018);
    return presentProduct(row, await this.products.groupsOf([id]));
  }

  private async checkGroups(operatorId: number, input: ProductInput, locale: Locale) {
    const main = [...new Set(input.mainGroupIDs)];
    const backup = [...new Set(input.backupGroupIDs)];
    if (backup.some((id) => main.includes(id))) {
      throw invalidFields(locale, [{ field: 'backupGroupIDs', key: 'invalidValue' }]);
    }
    const owned = await this.products.ownedGroups(operatorId, [...main, ...backup]);
    if (owned.length !== main.length + backup.length) throw new AppError(101018);
    if (owned.some((g) => g.portType !== input.portType)) {
      throw invalidFields(locale, [{ field: 'mainGroupIDs', key: 'invalidValue' }]);
    }
    return { main, backup };
  }

  async create(operatorId: number, input: ProductInput, locale: Locale): Promise<Product> {
    const { main, backup } = await this.checkGroups(operatorId, input, locale);
    try {
      const id = await this.db.transaction(async (tx) => {
        const repo = new ProductsRepository(tx);
        const created = await repo.insert({
          ownerId: operatorId,
          name: input.name.trim(),
          portType: input.portType,
          memo: input.memo,
        });
        await repo.setGroups(created, main, backup);
        return created;
      });
      return await this.get(operatorId, id);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(101025);
      throw error;
    }
  }

  async update(operatorId: number, input: ProductInput & { id: number }, locale: Locale): Promise<Product> {
    const { main, backup } = await this.checkGroups(operatorId, input, locale);
    try {
      await this.db.transaction(async (tx) => {
        const repo = new ProductsRepository(tx);
        const values = { name: input.name.trim(), portType: input.portType, memo: input.memo };
        if (!(await repo.update(operatorId, input.id, values))) throw new AppError(101018);
        await repo.setGroups(input.id, main, backup);
      });
      return await this.get(operatorId, input.id);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(101025);
      throw error;
    }
  }

  async delete(operatorId: number, id: number): Promise<void> {
    try {
      if (!(await this.products.delete(operatorId, id))) throw new AppError(101018);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new AppError(204002);
      throw error;
    }
  }
}
