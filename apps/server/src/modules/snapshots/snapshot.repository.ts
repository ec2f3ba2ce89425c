import { and, asc, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { rowsOf } from '../../platform/db/rows.js';
import {
  certificates,
  dpNodesVersion,
  groupNodes,
  groupVirtualNodes,
  nodeGroups,
  nodes,
  productGroups,
  sites,
  virtualNodeRecords,
  zonePorts,
  zones,
} from '../../platform/db/schema.js';
import { zoneEdgeColumns } from '../../platform/db/zone-columns.js';

/** A served domain as {@link SnapshotRepository.servedDomains} answers it (see the json_build_array there). */
export type ServedDomainRow = [
  id: number,
  name: string,
  forceSSL: boolean,
  scheme: 0 | 1,
  hashType: 0 | 1,
  hostName: string,
  certificateId: number | null,
  siteId: number,
  /** Enabled, and its site serves (status normal, not expired); only then are upstreams read. */
  serves: boolean,
  upstreams: [ip: string, port: number, weight: number, backup: boolean][],
  portMap: boolean,
];

/**
 * The columns of a node the snapshots read. A write of one of them moves the nodes' version (the
 * trigger dp_nodes_moved_upd names each: drizzle/0052; data-plane-coverage.test.ts checks the list).
 */
export const nodeSnapshotColumns = {
  id: nodes.id,
  ownerId: nodes.ownerId,
  status: nodes.status,
  zoneId: nodes.zoneId,
  enabled: nodes.enabled,
  logRotateTime: nodes.logRotateTime,
  cacheEpoch: nodes.cacheEpoch,
};

/** The nodes with their zones' settings (zone columns null without a zone), as the snapshot reads them. */
function selectNodesWithZone(db: Db, where: SQL | undefined) {
  return db
    .select({
      ...nodeSnapshotColumns,
      ...zoneEdgeColumns,
      nginxEnabled: zones.nginxEnabled,
      nginxTuning: zones.nginxTuning,
    })
    .from(nodes)
    .leftJoin(zones, eq(zones.id, nodes.zoneId))
    .where(where);
}

/** A node with its zone's settings. */
export type NodeWithZone = Awaited<ReturnType<typeof selectNodesWithZone>>[number];

/**
 * The groups serving a node, as a condition on product_groups.group_id: opaque to the builder,
 * handed on to the projections that select by it (site-ports.edge).
 */
export type NodeGroups = SQL | undefined;

/**
 * The snapshot builder's read model: what one node serves, read across the modules' tables. Each
 * feature's own part of the data plane (modules, cache policies, site settings, layer-4 ports) is
 * read by that feature's `*.edge.ts` projection; this repository holds the rest.
 */
export class SnapshotRepository {
  constructor(private readonly db: Db) {}

  /** The node with its zone's settings (zone columns null when it has no zone). */
  async nodeWithZone(nodeId: number): Promise<NodeWithZone | undefined> {
    const [node] = await selectNodesWithZone(this.db, eq(nodes.id, nodeId));
    return node;
  }

  /**
   * Every node with its zone's settings and its groups (as {@link nodeGroupIds}), by id: two
   * queries for all the nodes a change wakes instead of two per node.
   */
  async everyNodeAndGroups(): Promise<Map<number, { node: NodeWithZone; groupIds: number[] }>> {
    const [all, groups] = await Promise.all([selectNodesWithZone(this.db, undefined), this.groupsOfNodes(undefined)]);
    const byNode = new Map<number, { node: NodeWithZone; groupIds: number[] }>();
    for (const node of all) byNode.set(node.id, { node, groupIds: groups.get(node.id) ?? [] });
    return byNode;
  }

  /** The nodes' version (dp_nodes_version): it moves with every write of what {@link everyNodeAndGroups} reads. */
  async nodesVersion(): Promise<number | null> {
    const [row] = await this.db
      .select({ version: dpNodesVersion.version })
      .from(dpNodesVersion)
      .where(eq(dpNodesVersion.id, 1));
    return row?.version ?? null;
  }

  /** The zone's listen ports, by port. */
  zonePorts(zoneId: number) {
    return this.db
      .select({ port: zonePorts.port, portType: zonePorts.portType })
      .from(zonePorts)
      .where(eq(zonePorts.zoneId, zoneId))
      .orderBy(asc(zonePorts.port));
  }

  /**
   * The ids of the node's groups, in order: those it is on (any line) and those of the virtual nodes
   * naming it (DNS sends such a virtual node's traffic to the node's IPs). With the owner they decide everything of its
   * data plane that is not the node's own, so nodes with equal ids share one build (snapshot-builder.ts).
   */
  async nodeGroupIds(nodeId: number): Promise<number[]> {
    return (await this.groupsOfNodes(nodeId)).get(nodeId) ?? [];
  }

  /**
   * {@link nodeGroupIds} of one node, or of every node (`nodeId` undefined): one query, each
   * group once per node however it reaches it (several lines, a virtual node besides), in order.
   */
  private async groupsOfNodes(nodeId: number | undefined): Promise<Map<number, number[]>> {
    const rows = await this.db
      .select({ nodeId: sql<number>`${groupNodes.nodeId}`.mapWith(Number), id: groupNodes.groupId })
      .from(groupNodes)
      .where(nodeId === undefined ? undefined : eq(groupNodes.nodeId, nodeId))
      .union(
        this.db
          .select({ nodeId: sql<number>`${virtualNodeRecords.nodeId}`.mapWith(Number), id: groupVirtualNodes.groupId })
          .from(groupVirtualNodes)
          .innerJoin(virtualNodeRecords, eq(virtualNodeRecords.virtualNodeId, groupVirtualNodes.virtualNodeId))
          .where(nodeId === undefined ? isNotNull(virtualNodeRecords.nodeId) : eq(virtualNodeRecords.nodeId, nodeId)),
      );
    const byNode = new Map<number, number[]>();
    for (const r of rows) {
      const ids = byNode.get(r.nodeId);
      if (ids) ids.push(r.id);
      else byNode.set(r.nodeId, [r.id]);
    }
    for (const ids of byNode.values()) ids.sort((a, b) => a - b);
    return byNode;
  }

  /** Groups given by id as a condition on product_groups.group_id (none: nothing). */
  groupsFilter(groupIds: readonly number[]): NodeGroups {
    return groupIds.length === 0 ? sql`false` : inArray(productGroups.groupId, [...groupIds]);
  }

  /**
   * The proved (or waived) domains, enabled or not, of the operator's sites whose product uses one
   * of the node's layer-7 groups (`nodeGroup`, from {@link groupsFilter}), in id order, with whether
   * each is served at `now` (enabled, and its site's status normal and not expired).
   *
   * One query answering one JSON document: far cheaper than 10,000s of rows through the driver
   * (on PGlite most of the time went into row decoding). Upstreams of served domains ride along
   * as [ip, port, weight, backup] tuples, enabled ones only, in their id order; a domain not served
   * has none (the edge answers its "disabled" page and never reaches an origin).
   */
  async servedDomains(ownerId: number, nodeGroup: NodeGroups, now: Date): Promise<ServedDomainRow[]> {
    return this.domainRows(sql`d.site_id IN ${this.servedSites(ownerId, nodeGroup)}`, now);
  }

  /** The operator's sites whose product uses one of the node's layer-7 groups (`nodeGroup`). */
  private servedSites(ownerId: number, nodeGroup: NodeGroups) {
    return this.db
      .selectDistinct({ id: sites.id })
      .from(sites)
      .innerJoin(productGroups, eq(productGroups.productId, sites.productId))
      .innerJoin(nodeGroups, eq(nodeGroups.id, productGroups.groupId))
      .where(and(nodeGroup, eq(nodeGroups.portType, 7), eq(sites.ownerId, ownerId)));
  }

  /** The ids of the sites a plane of the owner's nodes on `groupIds` serves, in order (plane-entries.ts). */
  async planeSiteIds(ownerId: number, groupIds: readonly number[]): Promise<number[]> {
    const rows = await this.servedSites(ownerId, this.groupsFilter(groupIds));
    return rows.map((r) => r.id).sort((a, b) => a - b);
  }

  /** {@link servedDomains} of the sites among `siteIds`, whoever owns them (the entry builder's read). */
  async domainsOfSites(siteIds: readonly number[], now: Date): Promise<ServedDomainRow[]> {
    if (siteIds.length === 0) return [];
    return this.domainRows(
      sql`d.site_id IN (${sql.join(
        siteIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
      now,
    );
  }

  /**
   * {@link servedDomains} of one site: the domains among `domainIds` and those named `names` (the
   * per-domain rebuild's read: a name is unique within a site).
   */
  async domainsOfSite(
    siteId: number,
    domainIds: readonly number[],
    names: readonly string[],
    now: Date,
  ): Promise<ServedDomainRow[]> {
    return this.domainRows(
      sql`d.site_id = ${siteId} AND (d.id = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(domainIds)}::jsonb)::bigint))
        OR d.name = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(names)}::jsonb))))`,
      now,
    );
  }

  private async domainRows(siteFilter: SQL, now: Date): Promise<ServedDomainRow[]> {
    const served = await this.db.execute(sql`
      SELECT coalesce(json_agg(json_build_array(
        d.id, d.name, d.force_ssl, d.scheme, d.hash_type, d.host_name, d.certificate_id, d.site_id,
        v.serves,
        CASE WHEN v.serves THEN
          (SELECT coalesce(json_agg(json_build_array(u.ip, u.port, u.weight, u.backup) ORDER BY u.id), '[]'::json)
             FROM domain_upstreams u WHERE u.domain_id = d.id AND u.enabled)
        ELSE '[]'::json END,
        d.port_map
      ) ORDER BY d.id), '[]'::json) AS doc
      FROM domains d JOIN sites s ON s.id = d.site_id
      CROSS JOIN LATERAL (SELECT d.enabled AND s.status = 'normal'
        AND (s.expires_at IS NULL OR s.expires_at > ${now.toISOString()}::timestamptz) AS serves) v
      WHERE d.proof_status IN (1, 2) AND ${siteFilter}`);
    const raw = rowsOf<{ doc: unknown }>(served)[0]?.doc;
    return (typeof raw === 'string' ? JSON.parse(raw) : raw) as ServedDomainRow[];
  }

  /** The certificates among `ids`, in id order, with their sealed keys. */
  async certificates(ids: number[]) {
    if (ids.length === 0) return [];
    return this.db
      .select({ id: certificates.id, certPem: certificates.certPem, keySealed: certificates.keySealed })
      .from(certificates)
      .where(inArray(certificates.id, ids))
      .orderBy(asc(certificates.id));
  }

  /** The names of the sites among `ids`. */
  async siteNames(ids: number[]): Promise<{ id: number; name: string }[]> {
    if (ids.length === 0) return [];
    return this.db.select({ id: sites.id, name: sites.name }).from(sites).where(inArray(sites.id, ids));
  }
}
