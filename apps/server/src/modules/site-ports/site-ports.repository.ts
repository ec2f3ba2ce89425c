import { RESERVED_NODE_PORTS, type SitePort, type SiteZonePort } from '@rampart/contract';
import { and, asc, count, eq, gt, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { readPage } from '../../platform/db/paging.js';
import { rowsOf } from '../../platform/db/rows.js';
import {
  nodeGroups,
  nodes,
  productGroups,
  sitePorts,
  sitePortUpstreams,
  sites,
  zonePorts,
  zones,
} from '../../platform/db/schema.js';

export type SitePortRow = typeof sitePorts.$inferSelect;
export type FailedNode = SitePort['failedNodes'][number];
export type PortUpstreamRow = typeof sitePortUpstreams.$inferSelect;
export type NewPortUpstream = Required<Omit<typeof sitePortUpstreams.$inferInsert, 'id' | 'portId'>>;
export interface PortFilter {
  port?: number | undefined;
  protocol?: 'tcp' | 'udp' | 'both' | undefined;
  status?: 0 | 1 | undefined;
}

/** First key of the advisory lock that serialises port-number checks (any constant unique to this use). */
const PORT_LOCK_CLASS = 4_004_007;

/** Zones whose groups a site's product uses (main or backup): the zones whose nodes serve its ports. */
function zonesOfSite(siteId: number) {
  return sql`(select distinct ${nodeGroups.zoneId} from ${sites}
    join ${productGroups} on ${productGroups.productId} = ${sites.productId}
    join ${nodeGroups} on ${nodeGroups.id} = ${productGroups.groupId}
    where ${sites.id} = ${siteId})`;
}

/**
 * Layer-4 ports of a site and their upstreams. The caller checked the site is the customer's
 * (SiteAccess); every query here still names the site, so a port id of another site finds nothing.
 */
export class SitePortsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Serialises port-number checks of one operator's sites and zones until the transaction ends
   * (site ports and zone ports of the same operator are checked under the same lock).
   */
  static async lockOperator(db: Db, ownerId: number): Promise<void> {
    await db.execute(sql`select pg_advisory_xact_lock(${PORT_LOCK_CLASS}::int, ${ownerId}::int)`);
  }

  /** {@link SitePortsRepository.lockOperator} on this repository's database. */
  lockPortNumbers(ownerId: number): Promise<void> {
    return SitePortsRepository.lockOperator(this.db, ownerId);
  }

  private where(siteId: number, f: PortFilter): SQL | undefined {
    return and(
      eq(sitePorts.siteId, siteId),
      f.port !== undefined ? eq(sitePorts.port, f.port) : undefined,
      f.protocol !== undefined ? eq(sitePorts.protocol, f.protocol) : undefined,
      f.status !== undefined ? eq(sitePorts.enabled, f.status === 1) : undefined,
    );
  }

  async list(siteId: number, f: PortFilter, page: number, pageSize: number) {
    const where = this.where(siteId, f);
    return readPage(
      this.db.select().from(sitePorts).where(where).orderBy(asc(sitePorts.port)),
      this.db.select({ n: count() }).from(sitePorts).where(where),
      { page, pageSize },
    );
  }

  async byIds(siteId: number, ids: number[]): Promise<SitePortRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(sitePorts)
      .where(and(eq(sitePorts.siteId, siteId), inArray(sitePorts.id, ids)))
      .orderBy(asc(sitePorts.port));
  }

  /** One port of the site, locked until the transaction ends (upstream changes check the result). */
  async lockPort(siteId: number, id: number): Promise<SitePortRow | undefined> {
    const [row] = await this.db
      .select()
      .from(sitePorts)
      .where(and(eq(sitePorts.siteId, siteId), eq(sitePorts.id, id)))
      .for('update');
    return row;
  }

  async countInSite(siteId: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(sitePorts).where(eq(sitePorts.siteId, siteId));
    return row?.n ?? 0;
  }

  /** The listen ports of the zones serving the site, by zone then port. */
  async zonePortsOfSite(siteId: number): Promise<SiteZonePort[]> {
    const [listen, reserved] = await Promise.all([
      this.db
        .select({ zoneID: zones.id, zoneName: zones.name, port: zonePorts.port, portType: zonePorts.portType })
        .from(zonePorts)
        .innerJoin(zones, eq(zones.id, zonePorts.zoneId))
        .where(inArray(zonePorts.zoneId, zonesOfSite(siteId))),
      this.reservedOfZones(siteId),
    ]);
    const out: SiteZonePort[] = [
      ...listen,
      ...reserved.flatMap((z) =>
        z.ports.map((port) => ({ zoneID: z.id, zoneName: z.name, port, portType: 'reserved' as const })),
      ),
    ];
    return out.sort((a, b) => a.zoneID - b.zoneID || a.port - b.port);
  }

  /** Each zone of the site with its reserved ports, the node's own included. */
  private async reservedOfZones(siteId: number) {
    const rows = await this.db
      .select({ id: zones.id, name: zones.name, ports: zones.reservedPorts })
      .from(zones)
      .where(inArray(zones.id, zonesOfSite(siteId)));
    return rows.map((z) => ({ ...z, ports: [...new Set([...z.ports, ...RESERVED_NODE_PORTS])] }));
  }

  /**
   * The operator's nodes whose latest report lists one of `portIds` as failed to bind, by port id.
   * The ids are the site's ports (the caller checked the site), and only the operator's nodes count.
   */
  async failedNodesOf(ownerId: number, portIds: number[]): Promise<Map<number, FailedNode[]>> {
    const out = new Map<number, FailedNode[]>();
    if (portIds.length === 0) return out;
    const result = rowsOf<{ portId: number | string; nodeID: number | string; nodeName: string; error: string }>(
      await this.db.execute(sql`
      SELECT (f->>'id')::bigint AS "portId", n.id AS "nodeID", n.name AS "nodeName", f->>'error' AS "error"
      FROM ${nodes} n CROSS JOIN LATERAL jsonb_array_elements(n.failed_ports) f
      WHERE n.owner_id = ${ownerId} AND f->>'kind' = 'stream'
        AND (f->>'id')::bigint IN (${sql.join(
          portIds.map((id) => sql`${id}`),
          sql`, `,
        )})
      ORDER BY n.id
    `),
    );
    for (const r of result) {
      const list = out.get(Number(r.portId)) ?? [];
      // A node reports a port once per protocol: one entry per node is enough.
      if (!list.some((n) => n.nodeID === Number(r.nodeID))) {
        list.push({ nodeID: Number(r.nodeID), nodeName: r.nodeName, error: r.error });
      }
      out.set(Number(r.portId), list);
    }
    return out;
  }

  /** Numbers a port of `siteId` may never take: what its zones reserve, and the node's own ports. */
  async reservedNumbers(siteId: number): Promise<Set<number>> {
    const zonesReserved = await this.reservedOfZones(siteId);
    return new Set([...RESERVED_NODE_PORTS, ...zonesReserved.flatMap((z) => z.ports)]);
  }

  /**
   * Port numbers a port of `siteId` cannot take: the zone listen ports of its zones, the ports of
   * the site itself, and the ports of the operator's other sites served in one of those zones.
   * `exceptPortId` is the port being changed.
   */
  async takenNumbers(ownerId: number, siteId: number, exceptPortId?: number): Promise<Set<number>> {
    const zoneIds = zonesOfSite(siteId);
    const sharing = this.db
      .selectDistinct({ id: sites.id })
      .from(sites)
      .innerJoin(productGroups, eq(productGroups.productId, sites.productId))
      .innerJoin(nodeGroups, eq(nodeGroups.id, productGroups.groupId))
      .where(and(eq(sites.ownerId, ownerId), inArray(nodeGroups.zoneId, zoneIds)));
    const [siteRows, zoneRows] = await Promise.all([
      this.db
        .select({ port: sitePorts.port })
        .from(sitePorts)
        .where(
          and(
            or(eq(sitePorts.siteId, siteId), inArray(sitePorts.siteId, sharing)),
            exceptPortId !== undefined ? ne(sitePorts.id, exceptPortId) : undefined,
          ),
        ),
      this.db.select({ port: zonePorts.port }).from(zonePorts).where(inArray(zonePorts.zoneId, zoneIds)),
    ]);
    return new Set([...siteRows, ...zoneRows].map((r) => r.port));
  }

  async insertPorts(
    siteId: number,
    items: { port: Omit<typeof sitePorts.$inferInsert, 'siteId'>; upstreams: NewPortUpstream[] }[],
  ): Promise<SitePortRow[]> {
    const rows = await this.db
      .insert(sitePorts)
      .values(items.map((item) => ({ ...item.port, siteId })))
      .returning();
    const upstreams = rows.flatMap((row, i) => (items[i]?.upstreams ?? []).map((u) => ({ ...u, portId: row.id })));
    if (upstreams.length > 0) await this.db.insert(sitePortUpstreams).values(upstreams);
    return rows;
  }

  async updatePort(
    siteId: number,
    id: number,
    values: Partial<Pick<SitePortRow, 'port' | 'protocol' | 'hashType' | 'enabled' | 'memo'>>,
  ): Promise<SitePortRow | undefined> {
    const [row] = await this.db
      .update(sitePorts)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(sitePorts.siteId, siteId), eq(sitePorts.id, id)))
      .returning();
    return row;
  }

  /** Sets `enabled` on the site's ports among `ids`; answers how many it changed. */
  async setEnabled(siteId: number, ids: number[], enabled: boolean): Promise<number> {
    const rows = await this.db
      .update(sitePorts)
      .set({ enabled, updatedAt: sql`now()` })
      .where(and(eq(sitePorts.siteId, siteId), inArray(sitePorts.id, ids)))
      .returning({ id: sitePorts.id });
    return rows.length;
  }

  async deletePorts(siteId: number, ids: number[]): Promise<number> {
    const rows = await this.db
      .delete(sitePorts)
      .where(and(eq(sitePorts.siteId, siteId), inArray(sitePorts.id, ids)))
      .returning({ id: sitePorts.id });
    return rows.length;
  }

  async upstreamsOf(portIds: number[]): Promise<PortUpstreamRow[]> {
    if (portIds.length === 0) return [];
    return this.db
      .select()
      .from(sitePortUpstreams)
      .where(inArray(sitePortUpstreams.portId, portIds))
      .orderBy(asc(sitePortUpstreams.id));
  }

  async insertUpstreams(portId: number, list: NewPortUpstream[]): Promise<void> {
    if (list.length > 0) await this.db.insert(sitePortUpstreams).values(list.map((u) => ({ ...u, portId })));
  }

  async updateUpstream(portId: number, id: number, values: NewPortUpstream): Promise<number> {
    const rows = await this.db
      .update(sitePortUpstreams)
      .set(values)
      .where(and(eq(sitePortUpstreams.portId, portId), eq(sitePortUpstreams.id, id)))
      .returning({ id: sitePortUpstreams.id });
    return rows.length;
  }

  async deleteUpstreams(portId: number, ids: number[]): Promise<number> {
    const rows = await this.db
      .delete(sitePortUpstreams)
      .where(and(eq(sitePortUpstreams.portId, portId), inArray(sitePortUpstreams.id, ids)))
      .returning({ id: sitePortUpstreams.id });
    return rows.length;
  }

  async touch(id: number): Promise<void> {
    await this.db.update(sitePorts).set({ updatedAt: sql`now()` }).where(eq(sitePorts.id, id));
  }

  /** Ports of sites served in `zoneId` (any protocol, on or off): numbers the zone cannot listen on. */
  async numbersInZone(zoneId: number): Promise<Set<number>> {
    const rows = await this.db
      .selectDistinct({ port: sitePorts.port })
      .from(sitePorts)
      .innerJoin(sites, eq(sites.id, sitePorts.siteId))
      .innerJoin(productGroups, eq(productGroups.productId, sites.productId))
      .innerJoin(nodeGroups, eq(nodeGroups.id, productGroups.groupId))
      .where(eq(nodeGroups.zoneId, zoneId));
    return new Set(rows.map((r) => r.port));
  }

  // The edge's view of one node (site-ports.edge.ts).

  /**
   * The enabled ports of the operator's serving sites (status normal, not expired at `now`) on
   * products using one of the node's groups (`nodeGroup`, a condition on product_groups.group_id)
   * of port type 4, in id order.
   */
  servedPorts(ownerId: number, nodeGroup: SQL | undefined, now: Date): Promise<SitePortRow[]> {
    const servedSites = this.db
      .selectDistinct({ id: sites.id })
      .from(sites)
      .innerJoin(productGroups, eq(productGroups.productId, sites.productId))
      .innerJoin(nodeGroups, eq(nodeGroups.id, productGroups.groupId))
      .where(
        and(
          nodeGroup,
          eq(nodeGroups.portType, 4),
          eq(sites.ownerId, ownerId),
          eq(sites.status, 'normal'),
          or(isNull(sites.expiresAt), gt(sites.expiresAt, now)),
        ),
      );
    return this.db
      .select()
      .from(sitePorts)
      .where(and(eq(sitePorts.enabled, true), inArray(sitePorts.siteId, servedSites)))
      .orderBy(asc(sitePorts.id));
  }

  /** The enabled upstreams of the ports, in id order. */
  enabledUpstreamsOf(portIds: number[]): Promise<PortUpstreamRow[]> {
    if (portIds.length === 0) return Promise.resolve([]);
    return this.db
      .select()
      .from(sitePortUpstreams)
      .where(and(eq(sitePortUpstreams.enabled, true), inArray(sitePortUpstreams.portId, portIds)))
      .orderBy(asc(sitePortUpstreams.id));
  }
}
