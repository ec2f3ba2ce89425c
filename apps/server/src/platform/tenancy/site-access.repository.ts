import { and, eq, exists, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { accounts, domains, products, sitePorts, sites, siteUsers } from '../db/schema.js';

/*
 * A site as every module that works inside one reads it, and whose it is: the shared kernel below
 * the modules (sites' own list, tags and writes are modules/sites/sites.repository.ts, which
 * extends this).
 */

export type SiteStatus = 'normal' | 'pause' | 'limit';

const domainCount = sql<number>`(select count(*) from ${domains} where ${domains.siteId} = ${sites.id})`.mapWith(
  Number,
);
const portCount = sql<number>`(select count(*) from ${sitePorts} where ${sitePorts.siteId} = ${sites.id})`.mapWith(
  Number,
);
export const siteColumns = {
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
  maxPorts: sites.maxPorts,
  trafficRestriction: sites.trafficRestriction,
  createdAt: sites.createdAt,
  productName: products.name,
  productPortType: products.portType,
  userAccount: accounts.account,
  domainCount,
  portCount,
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
  maxPorts: number;
  trafficRestriction: 'pause' | 'throttle' | null;
  createdAt: Date;
  productName: string;
  productPortType: 7 | 4;
  userAccount: string;
  domainCount: number;
  portCount: number;
};
/**
 * Whose sites: the operator that owns them (`ownerId`), the customer that holds them or a
 * sub-account it gave access to (`userId`, what every customer call reads and manages through),
 * or only the customer that holds them (`holderId`, for who may see them and their tags).
 */
export type SiteScope = { ownerId: number } | { userId: number } | { holderId: number };

export function siteScope(scope: SiteScope): SQL {
  if ('ownerId' in scope) return eq(sites.ownerId, scope.ownerId);
  if ('holderId' in scope) return eq(sites.userId, scope.holderId);
  return or(
    eq(sites.userId, scope.userId),
    exists(
      sql`(select 1 from ${siteUsers} where ${siteUsers.siteId} = ${sites.id} and ${siteUsers.accountId} = ${scope.userId})`,
    ),
  ) as SQL;
}

/** Finds sites in a scope and locks a site's row: what site access and the site-scoped modules need. */
export class SiteAccessRepository {
  constructor(protected readonly db: Db) {}

  /**
   * Sites among `ids` in the scope (fewer than asked when some are not the caller's). `lock` holds
   * their rows until the transaction ends, so a bulk change checks and writes the same state.
   */
  async findMany(scope: SiteScope, ids: number[], lock = false): Promise<SiteView[]> {
    if (ids.length === 0) return [];
    const base = siteScope(scope);
    const query = this.db
      .select(siteColumns)
      .from(sites)
      .innerJoin(products, eq(products.id, sites.productId))
      .innerJoin(accounts, eq(accounts.id, sites.userId))
      .where(and(base, inArray(sites.id, ids)));
    return (lock ? await query.for('update', { of: sites }) : await query) as SiteView[];
  }

  async find(scope: SiteScope, id: number): Promise<SiteView | undefined> {
    return (await this.findMany(scope, [id]))[0];
  }

  /** Locks one site's row until the transaction ends (domain creation counts against its limit). */
  async lock(id: number): Promise<{ maxDomains: number; maxPorts: number } | undefined> {
    const [row] = await this.db
      .select({ maxDomains: sites.maxDomains, maxPorts: sites.maxPorts })
      .from(sites)
      .where(eq(sites.id, id))
      .for('update');
    return row;
  }
}
