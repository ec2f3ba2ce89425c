import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { nodes, subNodes } from '../../platform/db/schema.js';

export type SubNodeRow = typeof subNodes.$inferSelect;

/** Sub-nodes of the owner's nodes. Every query is scoped by owner and node. */
export class SubNodesRepository {
  constructor(private readonly db: Db) {}

  list(ownerId: number, nodeId: number): Promise<SubNodeRow[]> {
    return this.db
      .select()
      .from(subNodes)
      .where(and(eq(subNodes.ownerId, ownerId), eq(subNodes.nodeId, nodeId)))
      .orderBy(asc(subNodes.ip), asc(subNodes.id));
  }

  async countOf(ownerId: number, nodeId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(subNodes)
      .where(and(eq(subNodes.ownerId, ownerId), eq(subNodes.nodeId, nodeId)));
    return row?.n ?? 0;
  }

  /**
   * Which of `ips` the owner already uses: as another sub-node's address (except sub-node
   * `exceptId`) or as an address one of the owner's nodes reported.
   */
  async taken(ownerId: number, ips: string[], exceptId?: number): Promise<string[]> {
    const subs = await this.db
      .select({ ip: subNodes.ip })
      .from(subNodes)
      .where(
        and(
          eq(subNodes.ownerId, ownerId),
          inArray(subNodes.ip, ips),
          exceptId === undefined ? undefined : ne(subNodes.id, exceptId),
        ),
      );
    const reported = await this.db
      .select({ ip: sql<string>`reported.ip` })
      .from(sql`${nodes} CROSS JOIN LATERAL jsonb_array_elements_text(${nodes.ips}) AS reported(ip)`)
      .where(and(eq(nodes.ownerId, ownerId), sql`reported.ip = ANY(${sql.param(ips)}::text[])`));
    return [...new Set([...subs, ...reported].map((r) => r.ip))].sort();
  }

  async insert(ownerId: number, nodeId: number, ips: string[], memo: string): Promise<SubNodeRow[]> {
    return this.db
      .insert(subNodes)
      .values(ips.map((ip) => ({ ownerId, nodeId, ip, memo })))
      .returning();
  }

  /** Deletes the node's sub-nodes among `ids`; answers how many. */
  async delete(ownerId: number, nodeId: number, ids: number[]): Promise<number> {
    const rows = await this.db
      .delete(subNodes)
      .where(and(eq(subNodes.ownerId, ownerId), eq(subNodes.nodeId, nodeId), inArray(subNodes.id, ids)))
      .returning({ id: subNodes.id });
    return rows.length;
  }

  async update(
    ownerId: number,
    nodeId: number,
    id: number,
    values: { ip: string; memo?: string | undefined },
  ): Promise<SubNodeRow | undefined> {
    const [row] = await this.db
      .update(subNodes)
      .set(values.memo === undefined ? { ip: values.ip } : { ip: values.ip, memo: values.memo })
      .where(and(eq(subNodes.ownerId, ownerId), eq(subNodes.nodeId, nodeId), eq(subNodes.id, id)))
      .returning();
    return row;
  }
}
