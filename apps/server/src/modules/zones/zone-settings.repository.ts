import type { NginxTuning, NginxTuningSection, ZonePortType, ZoneResource } from '@rampart/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { rowsOf } from '../../platform/db/rows.js';
import { zonePorts, zones } from '../../platform/db/schema.js';
import { SitePortsRepository } from '../site-ports/site-ports.repository.js';

export type ZonePortRow = { id: number; port: number; portType: ZonePortType };
const portColumns = { id: zonePorts.id, port: zonePorts.port, portType: zonePorts.portType };

/**
 * A zone's listen ports and nginx settings. The caller has already found the zone among the
 * operator's (ZonesService), so these queries take the zone id alone; writes to the zone row repeat
 * the owner anyway.
 */
export class ZoneSettingsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The zone's resource usage in one statement. A site counts when its product has a group of the
   * zone; nodes are online when seen after `onlineSince`.
   */
  async resource(zoneId: number, onlineSince: Date): Promise<ZoneResource> {
    const result = rowsOf<Record<keyof ZoneResource, number | string>>(
      await this.db.execute(sql`
      WITH zn AS (SELECT id, enabled, last_seen_at FROM nodes WHERE zone_id = ${zoneId} AND status = 'initialized'),
           zs AS (
             SELECT DISTINCT s.id FROM sites s
             JOIN product_groups pg ON pg.product_id = s.product_id
             JOIN node_groups g ON g.id = pg.group_id
             WHERE g.zone_id = ${zoneId}
           )
      SELECT
        (SELECT count(*)::int FROM zn) AS "nodes",
        (SELECT count(*)::int FROM zn WHERE last_seen_at >= ${onlineSince.toISOString()}::timestamptz) AS "onlineNodes",
        (SELECT count(*)::int FROM zn WHERE enabled) AS "enabledNodes",
        (SELECT count(*)::int FROM sub_nodes sn JOIN zn ON zn.id = sn.node_id) AS "subNodes",
        (SELECT count(*)::int FROM node_groups WHERE zone_id = ${zoneId}) AS "groups",
        (SELECT count(*)::int FROM virtual_nodes WHERE zone_id = ${zoneId}) AS "virtualNodes",
        (SELECT count(*)::int FROM zs) AS "sites",
        (SELECT count(*)::int FROM domains d JOIN zs ON zs.id = d.site_id) AS "domains",
        (SELECT count(*)::int FROM site_ports p JOIN zs ON zs.id = p.site_id) AS "sitePorts",
        (SELECT count(*)::int FROM zone_ports WHERE zone_id = ${zoneId}) AS "listenPorts"
    `),
    );
    const row = result[0];
    if (!row) throw new Error('resource query returned no row');
    return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as ZoneResource;
  }

  /**
   * The operator's port lock (the one site ports take), held until the transaction ends: listen
   * ports, reserved ports and layer-4 ports of one operator change one writer at a time.
   */
  lockOperatorPorts(ownerId: number): Promise<void> {
    return SitePortsRepository.lockOperator(this.db, ownerId);
  }

  ports(zoneId: number): Promise<ZonePortRow[]> {
    return this.db.select(portColumns).from(zonePorts).where(eq(zonePorts.zoneId, zoneId)).orderBy(asc(zonePorts.port));
  }

  /** The zone's ports, locked until the transaction ends so two writers cannot both pass the checks. */
  portsForUpdate(zoneId: number): Promise<ZonePortRow[]> {
    return this.db
      .select(portColumns)
      .from(zonePorts)
      .where(eq(zonePorts.zoneId, zoneId))
      .orderBy(asc(zonePorts.port))
      .for('update');
  }

  async insertPorts(zoneId: number, ports: readonly { port: number; portType: ZonePortType }[]): Promise<void> {
    if (ports.length === 0) return;
    await this.db.insert(zonePorts).values(ports.map((p) => ({ zoneId, ...p })));
  }

  async updatePort(zoneId: number, id: number, values: { port: number; portType: ZonePortType }): Promise<void> {
    await this.db
      .update(zonePorts)
      .set(values)
      .where(and(eq(zonePorts.zoneId, zoneId), eq(zonePorts.id, id)));
  }

  async deletePorts(zoneId: number, ids: number[]): Promise<void> {
    await this.db.delete(zonePorts).where(and(eq(zonePorts.zoneId, zoneId), inArray(zonePorts.id, ids)));
  }

  /** The zone's reserved ports (the operator's list, without the node's own); locked when `forUpdate`. */
  async reservedPorts(zoneId: number, forUpdate = false): Promise<number[]> {
    const query = this.db.select({ ports: zones.reservedPorts }).from(zones).where(eq(zones.id, zoneId));
    const [row] = await (forUpdate ? query.for('update') : query);
    return row?.ports ?? [];
  }

  async setReservedPorts(ownerId: number, zoneId: number, ports: number[]): Promise<void> {
    await this.db
      .update(zones)
      .set({ reservedPorts: ports, updatedAt: sql`now()` })
      .where(and(eq(zones.ownerId, ownerId), eq(zones.id, zoneId)));
  }

  async nginx(ownerId: number, zoneId: number): Promise<{ enable: boolean; tuning: NginxTuning } | undefined> {
    const [row] = await this.db
      .select({ enable: zones.nginxEnabled, tuning: zones.nginxTuning })
      .from(zones)
      .where(and(eq(zones.ownerId, ownerId), eq(zones.id, zoneId)));
    return row;
  }

  async setNginxEnabled(ownerId: number, zoneId: number, enable: boolean): Promise<void> {
    await this.db
      .update(zones)
      .set({ nginxEnabled: enable, updatedAt: sql`now()` })
      .where(and(eq(zones.ownerId, ownerId), eq(zones.id, zoneId)));
  }

  /** Replaces one section in place (jsonb_set), so writers of different sections never undo each other. */
  async setNginxSection<S extends NginxTuningSection>(
    ownerId: number,
    zoneId: number,
    section: S,
    value: NginxTuning[S],
  ): Promise<void> {
    await this.db
      .update(zones)
      .set({
        nginxTuning: sql`jsonb_set(${zones.nginxTuning}, ${`{${section}}`}::text[], ${JSON.stringify(value)}::jsonb)`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(zones.ownerId, ownerId), eq(zones.id, zoneId)));
  }
}
