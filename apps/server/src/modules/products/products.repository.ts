import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { readPage } from '../../platform/db/paging.js';
import {
  domains,
  groupNodes,
  nodeGroups,
  productGroups,
  products,
  sitePorts,
  sites,
  zones,
} from '../../platform/db/schema.js';

export type ProductRow = typeof products.$inferSelect;
export interface ProductGroupRef {
  productId: number;
  id: number;
  name: string;
  zoneId: number;
  isBackup: boolean;
}

/** Products and their groups, scoped to the operator. */
export class ProductsRepository {
  constructor(private readonly db: Db) {}

  async list(ownerId: number, page: number, pageSize: number) {
    return readPage(
      this.db
        .select()
        .from(products)
        .where(eq(products.ownerId, ownerId))
        .orderBy(desc(products.createdAt), desc(products.id)),
      this.db.select({ n: count() }).from(products).where(eq(products.ownerId, ownerId)),
      { page, pageSize },
    );
  }

  meta(ownerId: number) {
    return this.db
      .select({ id: products.id, name: products.name, portType: products.portType })
      .from(products)
      .where(eq(products.ownerId, ownerId))
      .orderBy(asc(products.name));
  }

  async find(ownerId: number, id: number): Promise<ProductRow | undefined> {
    const rows = await this.db
      .select()
      .from(products)
      .where(and(eq(products.ownerId, ownerId), eq(products.id, id)));
    return rows[0];
  }

  /** How many sites each of `productIds` carries. */
  async siteCounts(productIds: number[]): Promise<Map<number, number>> {
    if (productIds.length === 0) return new Map();
    const rows = await this.db
      .select({ productId: sites.productId, n: count() })
      .from(sites)
      .where(inArray(sites.productId, productIds))
      .groupBy(sites.productId);
    return new Map(rows.map((r) => [r.productId, r.n]));
  }

  /**
   * The product, locked until the transaction ends, so that two writers adding sites to it count
   * one after the other and cannot both pass its sites limit.
   */
  async lock(ownerId: number, id: number): Promise<ProductRow | undefined> {
    const rows = await this.db
      .select()
      .from(products)
      .where(and(eq(products.ownerId, ownerId), eq(products.id, id)))
      .for('update');
    return rows[0];
  }

  /** True when a site of the product still has domains. */
  async hasDomains(productId: number): Promise<boolean> {
    const rows = await this.db
      .select({ id: domains.id })
      .from(domains)
      .innerJoin(sites, eq(sites.id, domains.siteId))
      .where(eq(sites.productId, productId))
      .limit(1);
    return rows.length > 0;
  }

  /** Whether a site on the product has layer-4 ports (they need a port-type-4 product). */
  async hasPorts(productId: number): Promise<boolean> {
    const rows = await this.db
      .select({ id: sitePorts.id })
      .from(sitePorts)
      .innerJoin(sites, eq(sites.id, sitePorts.siteId))
      .where(eq(sites.productId, productId))
      .limit(1);
    return rows.length > 0;
  }

  /** The main or backup groups of one product, with their zone and how many nodes they hold. */
  groupDetails(productId: number, isBackup: boolean) {
    const nodeCount = sql<number>`(select count(distinct ${groupNodes.nodeId}) from ${groupNodes} where ${groupNodes.groupId} = ${nodeGroups.id})`;
    return this.db
      .select({
        id: nodeGroups.id,
        name: nodeGroups.name,
        zoneID: zones.id,
        zoneName: zones.name,
        nodeCount: nodeCount.mapWith(Number),
      })
      .from(productGroups)
      .innerJoin(nodeGroups, eq(nodeGroups.id, productGroups.groupId))
      .innerJoin(zones, eq(zones.id, nodeGroups.zoneId))
      .where(and(eq(productGroups.productId, productId), eq(productGroups.isBackup, isBackup)))
      .orderBy(asc(zones.name), asc(nodeGroups.name));
  }

  async groupsOf(productIds: number[]): Promise<ProductGroupRef[]> {
    if (productIds.length === 0) return [];
    return this.db
      .select({
        productId: productGroups.productId,
        id: nodeGroups.id,
        name: nodeGroups.name,
        zoneId: nodeGroups.zoneId,
        isBackup: productGroups.isBackup,
      })
      .from(productGroups)
      .innerJoin(nodeGroups, eq(nodeGroups.id, productGroups.groupId))
      .where(inArray(productGroups.productId, productIds))
      .orderBy(asc(nodeGroups.name));
  }

  /** The operator's groups among `ids`, with their port types. */
  async ownedGroups(ownerId: number, ids: number[]) {
    if (ids.length === 0) return [];
    return this.db
      .select({ id: nodeGroups.id, portType: nodeGroups.portType })
      .from(nodeGroups)
      .where(and(eq(nodeGroups.ownerId, ownerId), inArray(nodeGroups.id, ids)));
  }

  async insert(values: typeof products.$inferInsert): Promise<number> {
    const [row] = await this.db.insert(products).values(values).returning({ id: products.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  async update(
    ownerId: number,
    id: number,
    values: { name: string; portType: 7 | 4; memo: string; siteLimit: number },
  ): Promise<boolean> {
    const rows = await this.db
      .update(products)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(products.ownerId, ownerId), eq(products.id, id)))
      .returning({ id: products.id });
    return rows.length === 1;
  }

  async setGroups(productId: number, main: number[], backup: number[]): Promise<void> {
    await this.db.delete(productGroups).where(eq(productGroups.productId, productId));
    const rows = [
      ...main.map((groupId) => ({ productId, groupId, isBackup: false })),
      ...backup.map((groupId) => ({ productId, groupId, isBackup: true })),
    ];
    if (rows.length > 0) await this.db.insert(productGroups).values(rows);
  }

  async delete(ownerId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(products)
      .where(and(eq(products.ownerId, ownerId), eq(products.id, id)))
      .returning({ id: products.id });
    return rows.length === 1;
  }
}
