import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { rowsOf } from '../../platform/db/rows.js';

/** First key of the advisory lock that serialises capacity checks of one operator's nodes. */
const CAPACITY_LOCK_CLASS = 4_010_002;

/**
 * What a write may change the load of: the nodes serving these sites, the sites of these products,
 * the nodes of these groups or virtual nodes, or these nodes themselves.
 */
export interface CapacityScope {
  sites?: readonly number[];
  products?: readonly number[];
  groups?: readonly number[];
  virtualNodes?: readonly number[];
  nodes?: readonly number[];
}

/** Every place of a node in a group: directly, or through a virtual node naming it. */
const PLACED = sql`(SELECT gn.node_id, gn.group_id FROM group_nodes gn
  UNION SELECT r.node_id, gv.group_id FROM group_virtual_nodes gv
    JOIN virtual_node_records r ON r.virtual_node_id = gv.virtual_node_id WHERE r.node_id IS NOT NULL)`;

function ids(list: readonly number[] | undefined): SQL {
  const clean = [...new Set(list ?? [])].filter((id) => Number.isSafeInteger(id));
  return clean.length === 0
    ? sql`(NULL::bigint)`
    : sql`(${sql.join(
        clean.map((id) => sql`${id}::bigint`),
        sql`, `,
      )})`;
}

/** The operator's nodes a write on `scope` can load (node ids), as a sub-query. */
function nodesOf(ownerId: number, s: CapacityScope): SQL {
  return sql`(SELECT n.id FROM nodes n WHERE n.owner_id = ${ownerId} AND (
    n.id IN ${ids(s.nodes)}
    OR n.id IN (SELECT p.node_id FROM ${PLACED} p WHERE p.group_id IN ${ids(s.groups)})
    OR n.id IN (SELECT r.node_id FROM virtual_node_records r WHERE r.virtual_node_id IN ${ids(s.virtualNodes)})
    OR n.id IN (SELECT p.node_id FROM ${PLACED} p JOIN product_groups pg ON pg.group_id = p.group_id
                WHERE pg.product_id IN ${ids(s.products)}
                   OR pg.product_id IN (SELECT st.product_id FROM sites st WHERE st.id IN ${ids(s.sites)}))))`;
}

/** The domain load of an operator's nodes (NodeCapacity's queries). */
export class NodeCapacityRepository {
  constructor(private readonly db: Db) {}

  /** Takes the operator's capacity lock until the current transaction ends. */
  async lock(ownerId: number): Promise<void> {
    await this.db.execute(sql`SELECT pg_advisory_xact_lock(${CAPACITY_LOCK_CLASS}::int, ${ownerId}::int)`);
  }

  /**
   * How many domains each node a write on `scope` can load would serve: every domain, enabled or
   * not, of the operator's sites whose product uses one of the node's layer-7 groups (the snapshot
   * builder's rule, counting disabled domains too so that enabling one never needs a check).
   */
  async loads(ownerId: number, scope: CapacityScope): Promise<Map<number, number>> {
    const result = await this.db.execute(sql`
      SELECT p.node_id AS id, count(DISTINCT d.id)::int AS domains
      FROM ${PLACED} p
      JOIN node_groups g ON g.id = p.group_id AND g.port_type = 7
      JOIN product_groups pg ON pg.group_id = p.group_id
      JOIN sites s ON s.product_id = pg.product_id AND s.owner_id = ${ownerId}
      JOIN domains d ON d.site_id = s.id
      WHERE p.node_id IN ${nodesOf(ownerId, scope)}
      GROUP BY p.node_id`);
    const rows = rowsOf<{ id: number | string; domains: number | string }>(result);
    return new Map(rows.map((r) => [Number(r.id), Number(r.domains)]));
  }
}
