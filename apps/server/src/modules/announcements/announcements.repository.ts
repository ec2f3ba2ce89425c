import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { readPage } from '../../platform/db/paging.js';
import { announcements } from '../../platform/db/schema.js';

export type AnnouncementRow = typeof announcements.$inferSelect;
type Values = { title: string; content: string; running: boolean };

/** Announcements, always scoped to the operator that wrote them. */
export class AnnouncementsRepository {
  constructor(private readonly db: Db) {}

  async list(ownerId: number, page: number, pageSize: number, running?: boolean) {
    const where =
      running === undefined
        ? eq(announcements.ownerId, ownerId)
        : and(eq(announcements.ownerId, ownerId), eq(announcements.running, running));
    return readPage(
      this.db.select().from(announcements).where(where).orderBy(desc(announcements.createdAt), desc(announcements.id)),
      this.db.select({ n: count() }).from(announcements).where(where),
      { page, pageSize },
    );
  }

  async insert(ownerId: number, values: Values): Promise<AnnouncementRow> {
    const [row] = await this.db
      .insert(announcements)
      .values({ ownerId, ...values })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async update(ownerId: number, id: number, values: Values): Promise<AnnouncementRow | undefined> {
    const [row] = await this.db
      .update(announcements)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(announcements.ownerId, ownerId), eq(announcements.id, id)))
      .returning();
    return row;
  }

  async deleteMany(ownerId: number, ids: number[]): Promise<number> {
    const rows = await this.db
      .delete(announcements)
      .where(and(eq(announcements.ownerId, ownerId), inArray(announcements.id, ids)))
      .returning({ id: announcements.id });
    return rows.length;
  }
}
