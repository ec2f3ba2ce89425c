import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { readPage } from '../../platform/db/paging.js';
import { accounts, operatorLogoImages, operatorLogos } from '../../platform/db/schema.js';

export type LogoRow = typeof operatorLogos.$inferSelect;
export type LogoImageRow = typeof operatorLogoImages.$inferSelect;
export type LogoTexts = Pick<LogoRow, 'title' | 'subTitle' | 'description' | 'copyright' | 'version'>;

/** Logo sets, always reached through the operator that owns them. */
export class LogosRepository {
  constructor(private readonly db: Db) {}

  async list(ownerId: number, page: number, pageSize: number) {
    const where = eq(operatorLogos.ownerId, ownerId);
    return readPage(
      this.db.select().from(operatorLogos).where(where).orderBy(asc(operatorLogos.id)),
      this.db.select({ n: count() }).from(operatorLogos).where(where),
      { page, pageSize },
    );
  }

  async byOwner(ownerId: number): Promise<LogoRow | undefined> {
    const [row] = await this.db.select().from(operatorLogos).where(eq(operatorLogos.ownerId, ownerId));
    return row;
  }

  async images(logoIds: number[]): Promise<LogoImageRow[]> {
    if (logoIds.length === 0) return [];
    return this.db.select().from(operatorLogoImages).where(inArray(operatorLogoImages.logoId, logoIds));
  }

  /** `undefined` when the operator has one already (the unique owner index). */
  async insert(ownerId: number, texts: Partial<LogoTexts>): Promise<LogoRow | undefined> {
    const [row] = await this.db
      .insert(operatorLogos)
      .values({ ownerId, ...texts })
      .onConflictDoNothing({ target: operatorLogos.ownerId })
      .returning();
    return row;
  }

  async update(ownerId: number, texts: Partial<LogoTexts>): Promise<LogoRow | undefined> {
    const [row] = await this.db
      .update(operatorLogos)
      .set({ ...texts, updatedAt: sql`now()` })
      .where(eq(operatorLogos.ownerId, ownerId))
      .returning();
    return row;
  }

  async putImage(logoId: number, slot: string, mime: string, data: Buffer): Promise<void> {
    await this.db
      .insert(operatorLogoImages)
      .values({ logoId, slot, mime, data })
      .onConflictDoUpdate({
        target: [operatorLogoImages.logoId, operatorLogoImages.slot],
        set: { mime, data },
      });
  }

  async removeImages(logoId: number, slots: string[]): Promise<void> {
    if (slots.length === 0) return;
    await this.db
      .delete(operatorLogoImages)
      .where(and(eq(operatorLogoImages.logoId, logoId), inArray(operatorLogoImages.slot, slots)));
  }

  /** Its images go with it (cascade). */
  async delete(ownerId: number): Promise<boolean> {
    const rows = await this.db
      .delete(operatorLogos)
      .where(eq(operatorLogos.ownerId, ownerId))
      .returning({ id: operatorLogos.id });
    return rows.length > 0;
  }

  /**
   * The operator a login page names: a client-tier account with that login name and no client
   * above it (sub-accounts are not operators). Without a name, the first operator of the
   * installation (the seeded `client` on a fresh one).
   */
  async operatorNamed(name: string | undefined): Promise<{ id: number; account: string } | undefined> {
    const parents = this.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.tier, 'client'));
    const isOperator = and(
      eq(accounts.tier, 'client'),
      sql`(${accounts.parentId} IS NULL OR ${accounts.parentId} NOT IN (${parents}))`,
    );
    const [row] = await this.db
      .select({ id: accounts.id, account: accounts.account })
      .from(accounts)
      .where(name === undefined ? isOperator : and(isOperator, eq(accounts.account, name)))
      .orderBy(asc(accounts.id))
      .limit(1);
    return row;
  }

  async accountName(id: number): Promise<string> {
    const [row] = await this.db.select({ account: accounts.account }).from(accounts).where(eq(accounts.id, id));
    return row?.account ?? '';
  }
}
