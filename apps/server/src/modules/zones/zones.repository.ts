import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { readPage } from '../../platform/db/paging.js';
import { accounts, nodes, zones } from '../../platform/db/schema.js';
import { zoneEdgeColumns } from '../../platform/db/zone-columns.js';
import { withinZoneScope } from '../account-zones/account-zones.repository.js';

export type ZoneRow = typeof zones.$inferSelect & { nodeCount: number };

// Written out in full: inside a subquery drizzle leaves column names unqualified, and "id" would
// then mean the node's id.
const nodeCount = sql<number>`(SELECT count(*)::int FROM nodes n WHERE n.zone_id = "zones"."id")`;
const columns = {
  id: zones.id,
  ownerId: zones.ownerId,
  name: zones.name,
  memo: zones.memo,
  ...zoneEdgeColumns,
  createdAt: zones.createdAt,
  updatedAt: zones.updatedAt,
  nodeCount,
};

/** Zones, always scoped to their operator: a zone of another operator is simply not found. */
export class ZonesRepository {
  constructor(private readonly db: Db) {}

  async list(
    ownerId: number,
    page: number,
    pageSize: number,
    sortBy: 'name' | 'createdAt' | 'nodeCount',
    order: 'asc' | 'desc',
    scope: ReadonlySet<number> | null = null,
  ) {
    const where = and(eq(zones.ownerId, ownerId), withinZoneScope(zones.id, scope));
    const key = sortBy === 'name' ? zones.name : sortBy === 'nodeCount' ? nodeCount : zones.createdAt;
    const dir = order === 'asc' ? asc : desc;
    const { rows, total } = await readPage(
      this.db.select(columns).from(zones).where(where).orderBy(dir(key), dir(zones.id)),
      this.db.select({ n: count() }).from(zones).where(where),
      { page, pageSize },
    );
    return { rows: rows as ZoneRow[], total };
  }

  async meta(ownerId: number, scope: ReadonlySet<number> | null = null) {
    return this.db
      .select({ id: zones.id, name: zones.name })
      .from(zones)
      .where(and(eq(zones.ownerId, ownerId), withinZoneScope(zones.id, scope)))
      .orderBy(asc(zones.name));
  }

  async find(ownerId: number, id: number): Promise<ZoneRow | undefined> {
    const rows = await this.db
      .select(columns)
      .from(zones)
      .where(and(eq(zones.ownerId, ownerId), eq(zones.id, id)));
    return rows[0] as ZoneRow | undefined;
  }

  /**
   * The operator's zone limit (0 = unlimited) and how many zones it has, with the operator's row
   * locked for the caller's transaction so two creations cannot both pass the limit.
   */
  async lockZoneLimit(ownerId: number): Promise<{ limit: number; zones: number }> {
    const [owner] = await this.db
      .select({ limit: accounts.zoneLimit })
      .from(accounts)
      .where(eq(accounts.id, ownerId))
      .for('update');
    const [row] = await this.db.select({ n: count() }).from(zones).where(eq(zones.ownerId, ownerId));
    return { limit: owner?.limit ?? 0, zones: row?.n ?? 0 };
  }

  async insert(ownerId: number, values: { name: string; memo: string }): Promise<number> {
    const [row] = await this.db
      .insert(zones)
      .values({ ownerId, ...values })
      .returning({ id: zones.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  async update(
    ownerId: number,
    id: number,
    values: Partial<{
      name: string;
      memo: string;
      http2: boolean;
      forceSSLRedirectCode: number;
      invalidDomainLimitCount: number;
      tlsLimitCount: number;
      challengeWorkBits: number;
      trustedProxies: string[];
      realIpHeader: 'X-Forwarded-For' | 'X-Real-IP';
      proxyProtocol: boolean;
      l4SynFlood: { rate: number; burst: number } | null;
      l4NewConnections: { rate: number; burst: number } | null;
      l4KernelBlocks: boolean;
      l4Escalation: { refusals: number; seconds: number } | null;
    }>,
  ): Promise<boolean> {
    const rows = await this.db
      .update(zones)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(zones.ownerId, ownerId), eq(zones.id, id)))
      .returning({ id: zones.id });
    return rows.length === 1;
  }

  async delete(ownerId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(zones)
      .where(and(eq(zones.ownerId, ownerId), eq(zones.id, id)))
      .returning({ id: zones.id });
    return rows.length === 1;
  }

  /** Places the operator's uninitialised nodes in a zone; returns how many moved. */
  async initializeNodes(ownerId: number, ids: number[], zoneId: number): Promise<number> {
    const rows = await this.db
      .update(nodes)
      .set({ zoneId, status: 'initialized', updatedAt: sql`now()` })
      .where(and(eq(nodes.ownerId, ownerId), eq(nodes.status, 'uninitialized'), inArray(nodes.id, ids)))
      .returning({ id: nodes.id });
    return rows.length;
  }

  async moveNodes(ownerId: number, ids: number[], zoneId: number): Promise<void> {
    await this.db
      .update(nodes)
      .set({ zoneId, updatedAt: sql`now()` })
      .where(and(eq(nodes.ownerId, ownerId), inArray(nodes.id, ids)));
  }
}
