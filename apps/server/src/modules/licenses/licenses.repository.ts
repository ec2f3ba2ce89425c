import type { LicenseKind, LicenseSetting } from '@rampart/contract';
import { and, count, desc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { type Page, readPage } from '../../platform/db/paging.js';
import { rowsOf } from '../../platform/db/rows.js';
import { accounts, licenses, offlineLicenses } from '../../platform/db/schema.js';

export type LicenseRow = typeof licenses.$inferSelect & { userName: string };
export type OfflineLicenseRow = typeof offlineLicenses.$inferSelect;

const licenseColumns = {
  id: licenses.id,
  operatorId: licenses.operatorId,
  source: licenses.source,
  settings: licenses.settings,
  expiresAt: licenses.expiresAt,
  issuedAt: licenses.issuedAt,
  key: licenses.key,
  createdAt: licenses.createdAt,
  updatedAt: licenses.updatedAt,
  userName: accounts.account,
};

/**
 * What an operator runs of each kind a licence limits, across its whole account. Written out in
 * SQL: each is one count over the operator's rows (domains and ports through its sites).
 */
const USAGE: Record<LicenseKind, (operatorId: number) => ReturnType<typeof sql>> = {
  nodes: (id) => sql`SELECT count(*)::int AS n FROM nodes WHERE owner_id = ${id}`,
  sites: (id) => sql`SELECT count(*)::int AS n FROM sites WHERE owner_id = ${id}`,
  domains: (id) =>
    sql`SELECT count(*)::int AS n FROM domains d JOIN sites s ON s.id = d.site_id WHERE s.owner_id = ${id}`,
  autoSSLDomains: (id) =>
    sql`SELECT count(*)::int AS n FROM domains d JOIN sites s ON s.id = d.site_id WHERE s.owner_id = ${id} AND d.auto_ssl`,
  ports: (id) =>
    sql`SELECT count(*)::int AS n FROM site_ports p JOIN sites s ON s.id = p.site_id WHERE s.owner_id = ${id}`,
  zones: (id) => sql`SELECT count(*)::int AS n FROM zones WHERE owner_id = ${id}`,
};

/** Licences: the operators' (online and activated offline) and the vendor's offline ones. */
export class LicensesRepository {
  constructor(private readonly db: Db) {}

  list(page: Page) {
    return readPage(
      this.db
        .select(licenseColumns)
        .from(licenses)
        .innerJoin(accounts, eq(accounts.id, licenses.operatorId))
        .where(eq(licenses.source, 'online'))
        .orderBy(desc(licenses.id)),
      this.db.select({ n: count() }).from(licenses).where(eq(licenses.source, 'online')),
      page,
    );
  }

  async find(id: number, source: 'online' | 'offline' = 'online'): Promise<LicenseRow | undefined> {
    const [row] = await this.db
      .select(licenseColumns)
      .from(licenses)
      .innerJoin(accounts, eq(accounts.id, licenses.operatorId))
      .where(and(eq(licenses.id, id), eq(licenses.source, source)));
    return row;
  }

  /**
   * The operator's licence: its activated offline licence if it has one (the vendor signed it;
   * an install's own admin tier cannot), else the online licence issued last.
   */
  async current(operatorId: number): Promise<LicenseRow | undefined> {
    const [row] = await this.db
      .select(licenseColumns)
      .from(licenses)
      .innerJoin(accounts, eq(accounts.id, licenses.operatorId))
      .where(and(eq(licenses.operatorId, operatorId), isNotNull(licenses.issuedAt)))
      .orderBy(desc(sql`${licenses.source} = 'offline'`), desc(licenses.issuedAt), desc(licenses.id))
      .limit(1);
    return row;
  }

  /** Every operator with an issued licence (online or activated offline). */
  async licensedOperators(): Promise<number[]> {
    const rows = await this.db
      .selectDistinct({ operatorId: licenses.operatorId })
      .from(licenses)
      .where(isNotNull(licenses.issuedAt))
      .orderBy(licenses.operatorId);
    return rows.map((row) => row.operatorId);
  }

  /** Whether an operator other than `operatorId` holds the offline licence document `key`. */
  async offlineKeyHeldByOther(key: string, operatorId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: licenses.id })
      .from(licenses)
      .where(and(eq(licenses.source, 'offline'), eq(licenses.key, key), ne(licenses.operatorId, operatorId)))
      .limit(1);
    return row !== undefined;
  }

  async insert(values: {
    operatorId: number;
    source: 'online' | 'offline';
    settings: LicenseSetting;
    issuedAt: Date | null;
    key?: string;
  }): Promise<number> {
    const [row] = await this.db
      .insert(licenses)
      .values({ ...values, expiresAt: new Date(values.settings.expiredAt) })
      .returning({ id: licenses.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  async update(
    id: number,
    source: 'online' | 'offline',
    change: { settings?: LicenseSetting; issuedAt?: Date; key?: string },
  ): Promise<boolean> {
    const set = {
      ...change,
      ...(change.settings ? { expiresAt: new Date(change.settings.expiredAt) } : {}),
      updatedAt: sql`now()`,
    };
    const rows = await this.db
      .update(licenses)
      .set(set)
      .where(and(eq(licenses.id, id), eq(licenses.source, source)))
      .returning({ id: licenses.id });
    return rows.length === 1;
  }

  async deleteMany(ids: number[]): Promise<number> {
    const rows = await this.db
      .delete(licenses)
      .where(and(inArray(licenses.id, ids), eq(licenses.source, 'online')))
      .returning({ id: licenses.id });
    return rows.length;
  }

  /**
   * Serialises the operator's creations until the transaction ends (its account row, locked): two
   * requests racing for the last place see each other's row.
   */
  async lockOperator(operatorId: number): Promise<void> {
    await this.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, operatorId)).for('update');
  }

  async used(operatorId: number, kind: LicenseKind): Promise<number> {
    const result = rowsOf<{ n: number }>(await this.db.execute(USAGE[kind](operatorId)));
    return Number(result[0]?.n ?? 0);
  }

  listOffline(page: Page) {
    return readPage(
      this.db.select().from(offlineLicenses).orderBy(desc(offlineLicenses.id)),
      this.db.select({ n: count() }).from(offlineLicenses),
      page,
    );
  }

  async findOffline(id: number): Promise<OfflineLicenseRow | undefined> {
    const [row] = await this.db.select().from(offlineLicenses).where(eq(offlineLicenses.id, id));
    return row;
  }

  async insertOffline(values: {
    ownerId: number;
    customer: string;
    installId: string;
    operator: string;
    settings: LicenseSetting;
  }): Promise<number> {
    const [row] = await this.db.insert(offlineLicenses).values(values).returning({ id: offlineLicenses.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  async updateOffline(
    id: number,
    change: Partial<{
      customer: string;
      installId: string;
      operator: string;
      settings: LicenseSetting;
      key: string | null;
      issuedAt: Date | null;
    }>,
  ): Promise<boolean> {
    const rows = await this.db
      .update(offlineLicenses)
      .set({ ...change, updatedAt: sql`now()` })
      .where(eq(offlineLicenses.id, id))
      .returning({ id: offlineLicenses.id });
    return rows.length === 1;
  }

  async deleteOffline(ids: number[]): Promise<number> {
    const rows = await this.db
      .delete(offlineLicenses)
      .where(inArray(offlineLicenses.id, ids))
      .returning({ id: offlineLicenses.id });
    return rows.length;
  }
}
