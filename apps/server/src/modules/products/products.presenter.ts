import type { Product } from '@rampart/contract';
import type { ProductGroupRef, ProductRow } from './products.repository.js';

/** A product with its main and backup groups (`groups`: those of any products, this one's picked). */
export function presentProduct(row: ProductRow, groups: ProductGroupRef[], siteCount: number): Product {
  const ref = (g: ProductGroupRef) => ({ id: g.id, name: g.name, zoneId: g.zoneId });
  return {
    id: row.id,
    name: row.name,
    portType: row.portType,
    memo: row.memo,
    mainGroups: groups.filter((g) => g.productId === row.id && !g.isBackup).map(ref),
    backupGroups: groups.filter((g) => g.productId === row.id && g.isBackup).map(ref),
    siteLimit: row.siteLimit,
    siteCount,
    monthlyTraffic: row.monthlyTraffic,
    overTraffic: row.overTraffic,
    throttleKbps: row.throttleKbps,
    createdAt: row.createdAt.toISOString(),
  };
}
