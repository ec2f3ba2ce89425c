import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { dashboards, domains, nodes, sitePorts, sites } from '../../platform/db/schema.js';
import { hasAnyTag } from '../../platform/db/tags.js';
import { type SiteScope, siteScope } from '../../platform/tenancy/site-access.repository.js';

/** A domain as analytics places its events: its site and the operator that owns the site. */
export interface DomainPlace {
  domainId: number;
  siteId: number;
  ownerId: number;
}

/**
 * What analytics reads from the configuration database: where events belong (domains → sites,
 * nodes → zones), which sites a caller may see (the tenant filter every statistics query carries),
 * and the saved dashboard layouts.
 */
export class AnalyticsRepository {
  constructor(private readonly db: Db) {}

  async domainPlaces(ids: readonly number[]): Promise<DomainPlace[]> {
    if (ids.length === 0) return [];
    return this.db
      .select({ domainId: domains.id, siteId: domains.siteId, ownerId: sites.ownerId })
      .from(domains)
      .innerJoin(sites, eq(sites.id, domains.siteId))
      .where(inArray(domains.id, [...ids]));
  }

  /** Layer-4 ports as the layer-4 counters place their records: the port's site and its operator. */
  async portPlaces(ids: readonly number[]): Promise<{ portId: number; siteId: number; ownerId: number }[]> {
    if (ids.length === 0) return [];
    return this.db
      .select({ portId: sitePorts.id, siteId: sitePorts.siteId, ownerId: sites.ownerId })
      .from(sitePorts)
      .innerJoin(sites, eq(sites.id, sitePorts.siteId))
      .where(inArray(sitePorts.id, [...ids]));
  }

  async nodePlace(nodeId: number): Promise<{ zoneId: number; ownerId: number } | undefined> {
    const [row] = await this.db
      .select({ zoneId: nodes.zoneId, ownerId: nodes.ownerId })
      .from(nodes)
      .where(eq(nodes.id, nodeId));
    return row ? { zoneId: row.zoneId ?? 0, ownerId: row.ownerId } : undefined;
  }

  /**
   * The ids of the sites in scope, narrowed to `siteIds` and to the sites of `domainIds` when given,
   * and to one customer's (`userId`) for an operator. Never more than the scope holds.
   */
  async visibleSites(
    scope: SiteScope,
    filter: { siteIds?: readonly number[] | undefined; domainIds?: readonly number[] | undefined; userId?: number },
  ): Promise<number[]> {
    const where: (SQL | undefined)[] = [siteScope(scope)];
    if (filter.siteIds && filter.siteIds.length > 0) where.push(inArray(sites.id, [...filter.siteIds]));
    if (filter.userId !== undefined) where.push(eq(sites.userId, filter.userId));
    if (filter.domainIds && filter.domainIds.length > 0) {
      where.push(
        sql`exists (select 1 from ${domains} where ${domains.siteId} = ${sites.id} and ${inArray(domains.id, [...filter.domainIds])})`,
      );
    }
    const rows = await this.db
      .select({ id: sites.id })
      .from(sites)
      .where(and(...where));
    return rows.map((r) => r.id);
  }

  /** The domains of these sites carrying any of `tags`. */
  async taggedDomains(siteIds: readonly number[], tags: readonly string[]): Promise<number[]> {
    if (siteIds.length === 0 || tags.length === 0) return [];
    const rows = await this.db
      .select({ id: domains.id })
      .from(domains)
      .where(and(inArray(domains.siteId, [...siteIds]), hasAnyTag(domains.tags, [...tags])));
    return rows.map((r) => r.id);
  }

  /** Names of these domains and of their sites (for lists and tops). */
  async domainNames(ids: readonly number[]): Promise<Map<number, { name: string; siteId: number; siteName: string }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: domains.id, name: domains.name, siteId: sites.id, siteName: sites.name })
      .from(domains)
      .innerJoin(sites, eq(sites.id, domains.siteId))
      .where(inArray(domains.id, [...ids]));
    return new Map(rows.map((r) => [r.id, { name: r.name, siteId: r.siteId, siteName: r.siteName }]));
  }

  /** The operator's nodes, within these zones when given (what a zone-restricted caller may count). */
  async nodeIds(ownerId: number, zoneIds: readonly number[] | null): Promise<number[]> {
    const rows = await this.db
      .select({ id: nodes.id })
      .from(nodes)
      .where(and(eq(nodes.ownerId, ownerId), zoneIds ? inArray(nodes.zoneId, [...zoneIds, -1]) : undefined));
    return rows.map((r) => r.id);
  }

  async dashboard(accountId: number): Promise<unknown | undefined> {
    const [row] = await this.db
      .select({ widgets: dashboards.widgets })
      .from(dashboards)
      .where(eq(dashboards.accountId, accountId));
    return row?.widgets;
  }

  async saveDashboard(accountId: number, widgets: unknown): Promise<void> {
    await this.db
      .insert(dashboards)
      .values({ accountId, widgets })
      .onConflictDoUpdate({ target: dashboards.accountId, set: { widgets, updatedAt: sql`now()` } });
  }
}
