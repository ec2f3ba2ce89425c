import type { NodeCommandStatus } from '@rampart/contract';
import { and, asc, count, desc, eq, inArray, lte } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { readPage } from '../../platform/db/paging.js';
import { nodeCommands } from '../../platform/db/schema.js';

export type NodeCommandRow = typeof nodeCommands.$inferSelect;

/** Commands for node agents: one typed query per method, scoped by owner or by the node itself. */
export class NodeCommandsRepository {
  constructor(private readonly db: Db) {}

  async insertMany(rows: (typeof nodeCommands.$inferInsert)[]): Promise<NodeCommandRow[]> {
    if (rows.length === 0) return [];
    const created = await this.db.insert(nodeCommands).values(rows).returning();
    return created.sort((a, b) => a.id - b.id);
  }

  /** Marks the open commands of one node whose time ran out as expired (queued: never picked up; sent: never answered). */
  async expire(nodeId: number, now: Date): Promise<NodeCommandRow[]> {
    const expired: NodeCommandRow[] = [];
    for (const [status, message] of [
      ['queued', 'not picked up by the node in time'],
      ['sent', 'no result from the node in time'],
    ] as const) {
      const rows = await this.db
        .update(nodeCommands)
        .set({ status: 'expired', message, finishedAt: now })
        .where(and(eq(nodeCommands.nodeId, nodeId), eq(nodeCommands.status, status), lte(nodeCommands.expiresAt, now)))
        .returning();
      expired.push(...rows);
    }
    return expired;
  }

  /**
   * Hands the node its queued commands (at most `limit`, oldest first): they become sent, with a
   * new deadline for their result. Rows another control-plane process is handing out are skipped.
   */
  async take(nodeId: number, now: Date, resultDeadline: Date, limit: number): Promise<NodeCommandRow[]> {
    const queued = this.db
      .select({ id: nodeCommands.id })
      .from(nodeCommands)
      .where(and(eq(nodeCommands.nodeId, nodeId), eq(nodeCommands.status, 'queued')))
      .orderBy(asc(nodeCommands.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    const rows = await this.db
      .update(nodeCommands)
      .set({ status: 'sent', sentAt: now, expiresAt: resultDeadline })
      .where(and(inArray(nodeCommands.id, queued), eq(nodeCommands.status, 'queued')))
      .returning();
    return rows.sort((a, b) => a.id - b.id);
  }

  /** Records the result of a sent command of this node; undefined when it is not one (another node's, finished, expired). */
  async finish(
    nodeId: number,
    id: number,
    status: Extract<NodeCommandStatus, 'succeeded' | 'failed'>,
    message: string,
    now: Date,
    results: NodeCommandRow['results'] = [],
  ) {
    const rows = await this.db
      .update(nodeCommands)
      .set({ status, message, finishedAt: now, results })
      .where(and(eq(nodeCommands.id, id), eq(nodeCommands.nodeId, nodeId), eq(nodeCommands.status, 'sent')))
      .returning();
    return rows[0];
  }

  /**
   * Expires the open commands of these cache tasks whose time ran out (their nodes may never poll
   * again), so that a task's state settles. Purges and preheats have no listener for ended commands.
   */
  async expireTasks(taskIds: number[], now: Date): Promise<void> {
    if (taskIds.length === 0) return;
    for (const [status, message] of [
      ['queued', 'not picked up by the node in time'],
      ['sent', 'no result from the node in time'],
    ] as const) {
      await this.db
        .update(nodeCommands)
        .set({ status: 'expired', message, finishedAt: now })
        .where(
          and(inArray(nodeCommands.taskId, taskIds), eq(nodeCommands.status, status), lte(nodeCommands.expiresAt, now)),
        );
    }
  }

  /** A sent command of this node of `type`, or undefined. */
  async findSent(nodeId: number, id: number, type: NodeCommandRow['type']): Promise<NodeCommandRow | undefined> {
    const rows = await this.db
      .select()
      .from(nodeCommands)
      .where(
        and(
          eq(nodeCommands.id, id),
          eq(nodeCommands.nodeId, nodeId),
          eq(nodeCommands.type, type),
          eq(nodeCommands.status, 'sent'),
        ),
      );
    return rows[0];
  }

  async list(ownerId: number, nodeId: number, page: number, pageSize: number) {
    const where = and(eq(nodeCommands.ownerId, ownerId), eq(nodeCommands.nodeId, nodeId));
    return readPage(
      this.db.select().from(nodeCommands).where(where).orderBy(desc(nodeCommands.createdAt), desc(nodeCommands.id)),
      this.db.select({ n: count() }).from(nodeCommands).where(where),
      { page, pageSize },
    );
  }
}
