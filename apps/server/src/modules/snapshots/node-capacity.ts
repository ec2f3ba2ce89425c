import { DATA_PLANE_LIMITS } from '@rampart/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { AppError } from '../../platform/errors/app-error.js';

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

/**
 * How many domains each node would serve: every domain, enabled or not, of the operator's sites
 * whose product uses one of the node's layer-7 groups (the snapshot builder's rule, counting
 * disabled domains too so that enabling one never needs a check).
 */
async function loads(db: Db, ownerId: number, nodeIds: SQL): Promise<Map<number, number>> {
  const result = await db.execute(sql`
    SELECT p.node_id AS id, count(DISTINCT d.id)::int AS domains
    FROM ${PLACED} p
    JOIN node_groups g ON g.id = p.group_id AND g.port_type = 7
    JOIN product_groups pg ON pg.group_id = p.group_id
    JOIN sites s ON s.product_id = pg.product_id AND s.owner_id = ${ownerId}
    JOIN domains d ON d.site_id = s.id
    WHERE p.node_id IN ${nodeIds}
    GROUP BY p.node_id`);
  const rows = (result as unknown as { rows: { id: number | string; domains: number | string }[] }).rows;
  return new Map(rows.map((r) => [Number(r.id), Number(r.domains)]));
}

/**
 * The data-plane limit of a node (DATA_PLANE_LIMITS.domains; lower when the installation says so):
 * a node's snapshot cannot carry more domains, so every write that adds domains to a node or moves
 * sites onto it is checked here, inside the write's transaction.
 *
 * Use: `const check = await capacity.before(tx, operatorId, scope)` first in the transaction (it
 * takes the operator's capacity lock, so concurrent writers count in turn, and notes the nodes'
 * loads), then the write, then `await check()`: 401002 when a node ends over the limit and the
 * write raised its load. A node already over (the limit was lowered) keeps accepting writes that
 * do not add to it.
 */
export class NodeCapacity {
  constructor(readonly domainLimit: number = DATA_PLANE_LIMITS.domains) {}

  async before(tx: Db, ownerId: number, scope: CapacityScope, options: { nameNode?: boolean } = {}) {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${CAPACITY_LOCK_CLASS}::int, ${ownerId}::int)`);
    const nodeIds = nodesOf(ownerId, scope);
    const start = await loads(tx, ownerId, nodeIds);
    return async (): Promise<void> => {
      const end = await loads(tx, ownerId, nodesOf(ownerId, scope));
      const over = [...end]
        .filter(([id, n]) => n > this.domainLimit && n > (start.get(id) ?? 0))
        .sort(([a], [b]) => a - b)[0];
      if (over) {
        throw new AppError(401002, {
          extra: {
            scope: 'node',
            limit: this.domainLimit,
            ...(options.nameNode ? { nodeID: over[0], domains: over[1] } : {}),
          },
        });
      }
    };
  }
}
