import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { readPage } from '../../platform/db/paging.js';
import { nodes, nodeUpgradeLogs } from '../../platform/db/schema.js';

export type NodeUpgradeLogRow = typeof nodeUpgradeLogs.$inferSelect;

/** Node upgrade state and logs: one typed query per method, each scoped by owner or by the node itself. */
export class NodeUpgradeRepository {
  constructor(private readonly db: Db) {}

  /** The reported agent versions of the operator's nodes among `ids`. */
  async versions(ownerId: number, ids: number[]) {
    return this.db
      .select({ id: nodes.id, version: nodes.version })
      .from(nodes)
      .where(and(eq(nodes.ownerId, ownerId), inArray(nodes.id, ids)));
  }

  async start(ownerId: number, ids: number[], version: string): Promise<void> {
    await this.db
      .update(nodes)
      .set({ upgradeStatus: 'upgrading', upgradeVersion: version, updatedAt: sql`now()` })
      .where(and(eq(nodes.ownerId, ownerId), inArray(nodes.id, ids)));
  }

  /** Ends the node's running upgrade to `version` as succeeded or failed; false when it has none. */
  async end(nodeId: number, version: string, status: 'succeeded' | 'failed'): Promise<boolean> {
    const rows = await this.db
      .update(nodes)
      .set({ upgradeStatus: status, updatedAt: sql`now()` })
      .where(and(eq(nodes.id, nodeId), eq(nodes.upgradeStatus, 'upgrading'), eq(nodes.upgradeVersion, version)))
      .returning({ id: nodes.id });
    return rows.length === 1;
  }

  async insertLogs(rows: (typeof nodeUpgradeLogs.$inferInsert)[]): Promise<void> {
    if (rows.length > 0) await this.db.insert(nodeUpgradeLogs).values(rows);
  }

  /** Whether the node is the operator's. */
  async owns(ownerId: number, nodeId: number): Promise<boolean> {
    const rows = await this.db
      .select({ id: nodes.id })
      .from(nodes)
      .where(and(eq(nodes.ownerId, ownerId), eq(nodes.id, nodeId)));
    return rows.length === 1;
  }

  async listLogs(ownerId: number, nodeId: number, page: number, pageSize: number) {
    const where = and(eq(nodeUpgradeLogs.ownerId, ownerId), eq(nodeUpgradeLogs.nodeId, nodeId));
    return readPage(
      this.db
        .select()
        .from(nodeUpgradeLogs)
        .where(where)
        .orderBy(desc(nodeUpgradeLogs.createdAt), desc(nodeUpgradeLogs.id)),
      this.db.select({ n: count() }).from(nodeUpgradeLogs).where(where),
      { page, pageSize },
    );
  }
}
