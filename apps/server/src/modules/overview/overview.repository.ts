import { and, count, desc, eq, isNull, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { certificates, domains, nodeGroups, nodes, products, sites, zones } from '../../platform/db/schema.js';
import { withinZoneScope } from '../account-zones/account-zones.repository.js';

/** Which of an operator's nodes count: all, or (for a sub-account limited to zones) those placed in them. */
export type NodeScope = ReadonlySet<number> | null;

const exists = async (query: Promise<unknown[]>) => (await query).length > 0;
/** A time as a query parameter inside `sql` (no column there to map it). */
const at = (time: Date) => sql`${time.toISOString()}::timestamptz`;

/** The counts behind the operator's overview; every query keeps to the operator's own rows. */
export class OverviewRepository {
  constructor(private readonly db: Db) {}

  private nodesOf(operatorId: number, scope: NodeScope): SQL | undefined {
    // A restricted caller sees only nodes placed in its zones (unplaced ones belong to no zone).
    return and(eq(nodes.ownerId, operatorId), withinZoneScope(nodes.zoneId, scope));
  }

  /** Whether each first-run step has something (the CNAME domain is a setting, asked elsewhere). */
  async steps(operatorId: number) {
    const one = <T>(q: { limit(n: number): Promise<T[]> }) => exists(q.limit(1));
    const [zone, group, node, product, site, domain, certificate] = await Promise.all([
      one(this.db.select({ id: zones.id }).from(zones).where(eq(zones.ownerId, operatorId))),
      one(this.db.select({ id: nodeGroups.id }).from(nodeGroups).where(eq(nodeGroups.ownerId, operatorId))),
      one(
        this.db
          .select({ id: nodes.id })
          .from(nodes)
          .where(and(eq(nodes.ownerId, operatorId), eq(nodes.status, 'initialized'))),
      ),
      one(this.db.select({ id: products.id }).from(products).where(eq(products.ownerId, operatorId))),
      one(this.db.select({ id: sites.id }).from(sites).where(eq(sites.ownerId, operatorId))),
      one(
        this.db
          .select({ id: domains.id })
          .from(domains)
          .innerJoin(sites, eq(sites.id, domains.siteId))
          .where(eq(sites.ownerId, operatorId)),
      ),
      one(
        this.db
          .select({ id: certificates.id })
          .from(certificates)
          .innerJoin(sites, eq(sites.id, certificates.siteId))
          .where(eq(sites.ownerId, operatorId)),
      ),
    ]);
    return { zone, group, node, product, site, domain, certificate };
  }

  /** Node counts; `onlineSince`: a node that reported after it is online. */
  async nodeCounts(operatorId: number, scope: NodeScope, onlineSince: Date) {
    const [row] = await this.db
      .select({
        total: count(),
        uninitialized: sql<number>`count(*) filter (where ${nodes.status} = 'uninitialized')`.mapWith(Number),
        online: sql<number>`count(*) filter (where ${nodes.lastSeenAt} > ${at(onlineSince)})`.mapWith(Number),
      })
      .from(nodes)
      .where(this.nodesOf(operatorId, scope));
    return { total: row?.total ?? 0, uninitialized: row?.uninitialized ?? 0, online: row?.online ?? 0 };
  }

  /** Initialised nodes offline or reporting an error: offline first, longest silent first. */
  async nodeProblems(operatorId: number, scope: NodeScope, onlineSince: Date, limit: number) {
    const offline = or(isNull(nodes.lastSeenAt), lte(nodes.lastSeenAt, onlineSince));
    return this.db
      .select({
        id: nodes.id,
        name: nodes.name,
        ips: nodes.ips,
        lastError: nodes.lastError,
        lastSeenAt: nodes.lastSeenAt,
      })
      .from(nodes)
      .where(
        and(this.nodesOf(operatorId, scope), eq(nodes.status, 'initialized'), or(offline, ne(nodes.lastError, ''))),
      )
      .orderBy(sql`${nodes.lastSeenAt} asc nulls first`, nodes.id)
      .limit(limit);
  }

  /** Agent versions in use, most nodes first. */
  async versions(operatorId: number, scope: NodeScope) {
    return this.db
      .select({ version: nodes.version, nodes: count() })
      .from(nodes)
      .where(this.nodesOf(operatorId, scope))
      .groupBy(nodes.version)
      .orderBy(desc(count()), nodes.version);
  }

  async siteCounts(operatorId: number) {
    const [[siteRow], [domainRow]] = await Promise.all([
      this.db.select({ n: count() }).from(sites).where(eq(sites.ownerId, operatorId)),
      this.db
        .select({
          total: count(),
          proofPending: sql<number>`count(*) filter (where ${domains.proofStatus} in (0, 3))`.mapWith(Number),
          cnameUnverified: sql<number>`count(*) filter (where ${domains.cnameStatus} <> 1)`.mapWith(Number),
        })
        .from(domains)
        .innerJoin(sites, eq(sites.id, domains.siteId))
        .where(eq(sites.ownerId, operatorId)),
    ]);
    return {
      sites: siteRow?.n ?? 0,
      domains: domainRow?.total ?? 0,
      proofPending: domainRow?.proofPending ?? 0,
      cnameUnverified: domainRow?.cnameUnverified ?? 0,
    };
  }

  async certificateCounts(operatorId: number, now: Date, soon: Date) {
    const [row] = await this.db
      .select({
        total: count(),
        expired: sql<number>`count(*) filter (where ${certificates.notAfter} <= ${at(now)})`.mapWith(Number),
        expiringSoon:
          sql<number>`count(*) filter (where ${certificates.notAfter} > ${at(now)} and ${certificates.notAfter} <= ${at(soon)})`.mapWith(
            Number,
          ),
      })
      .from(certificates)
      .innerJoin(sites, eq(sites.id, certificates.siteId))
      .where(eq(sites.ownerId, operatorId));
    return { total: row?.total ?? 0, expired: row?.expired ?? 0, expiringSoon: row?.expiringSoon ?? 0 };
  }
}
