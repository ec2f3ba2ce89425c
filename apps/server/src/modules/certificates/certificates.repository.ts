import { and, asc, count, desc, eq, ilike, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { readPage } from '../../platform/db/paging.js';
import { certificates, domains, sites } from '../../platform/db/schema.js';
import { type SiteScope, siteScope } from '../../platform/tenancy/site-access.repository.js';

export type CertificateRow = typeof certificates.$inferSelect;
export type CertificateListRow = Omit<CertificateRow, 'keySealed' | 'certPem'> & { domainCount: number };

const listColumns = {
  id: certificates.id,
  siteId: certificates.siteId,
  name: certificates.name,
  memo: certificates.memo,
  names: certificates.names,
  issuer: certificates.issuer,
  notBefore: certificates.notBefore,
  notAfter: certificates.notAfter,
  fingerprint: certificates.fingerprint,
  createdAt: certificates.createdAt,
  updatedAt: certificates.updatedAt,
  domainCount: sql<number>`(SELECT count(*)::int FROM "domains" WHERE "domains"."certificate_id" = "certificates"."id")`,
};

const SORT = { name: certificates.name, notAfter: certificates.notAfter, createdAt: certificates.createdAt } as const;

/** Certificates of one site; every query takes the site id the caller was checked against. */
export class CertificatesRepository {
  constructor(private readonly db: Db) {}

  async list(
    siteId: number,
    q: {
      name?: string | undefined;
      sortBy: keyof typeof SORT;
      orderBy: 'asc' | 'desc';
      page: number;
      pageSize: number;
    },
  ) {
    const where = and(
      eq(certificates.siteId, siteId),
      q.name ? ilike(certificates.name, containsPattern(q.name)) : undefined,
    );
    const order = q.orderBy === 'asc' ? asc : desc;
    return readPage<CertificateListRow>(
      this.db
        .select(listColumns)
        .from(certificates)
        .where(where)
        .orderBy(order(SORT[q.sortBy]), order(certificates.id)),
      this.db.select({ n: count() }).from(certificates).where(where),
      q,
    );
  }

  /** Certificates of the scope's sites ending before `before`, soonest first (at most `limit`), and how many there are. */
  async endingBefore(scope: SiteScope, before: Date, limit: number) {
    const where = and(siteScope(scope), lt(certificates.notAfter, before));
    const [rows, [total]] = await Promise.all([
      this.db
        .select({
          id: certificates.id,
          name: certificates.name,
          siteId: sites.id,
          siteName: sites.name,
          notAfter: certificates.notAfter,
        })
        .from(certificates)
        .innerJoin(sites, eq(sites.id, certificates.siteId))
        .where(where)
        .orderBy(asc(certificates.notAfter), asc(certificates.id))
        .limit(limit),
      this.db
        .select({ n: count() })
        .from(certificates)
        .innerJoin(sites, eq(sites.id, certificates.siteId))
        .where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  async meta(siteId: number) {
    return this.db
      .select({
        id: certificates.id,
        name: certificates.name,
        names: certificates.names,
        notAfter: certificates.notAfter,
      })
      .from(certificates)
      .where(eq(certificates.siteId, siteId))
      .orderBy(asc(certificates.name), asc(certificates.id));
  }

  async find(siteId: number, id: number): Promise<CertificateRow | undefined> {
    const rows = await this.db
      .select()
      .from(certificates)
      .where(and(eq(certificates.siteId, siteId), eq(certificates.id, id)));
    return rows[0];
  }

  /** The site's domains using any of the certificates (a lookup never reaches another site's domains). */
  async domainsOf(siteId: number, certificateIds: number[]) {
    if (certificateIds.length === 0) return [];
    return this.db
      .select({ id: domains.id, name: domains.name, certificateId: domains.certificateId })
      .from(domains)
      .where(and(eq(domains.siteId, siteId), inArray(domains.certificateId, certificateIds)))
      .orderBy(asc(domains.name));
  }

  /** The site's domains among `ids` (fewer when some are not the site's). */
  async siteDomains(siteId: number, ids: number[]): Promise<{ id: number; name: string }[]> {
    if (ids.length === 0) return [];
    return this.db
      .select({ id: domains.id, name: domains.name })
      .from(domains)
      .where(and(eq(domains.siteId, siteId), inArray(domains.id, ids)));
  }

  /** Sets (or with null clears) the certificate of the site's domains among `ids`. */
  async assign(siteId: number, ids: number[], certificateId: number | null): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(domains)
      .set({ certificateId, updatedAt: sql`now()` })
      .where(and(eq(domains.siteId, siteId), inArray(domains.id, ids)));
  }

  async insert(row: typeof certificates.$inferInsert): Promise<number> {
    const [created] = await this.db.insert(certificates).values(row).returning({ id: certificates.id });
    if (!created) throw new Error('insert returned no row');
    return created.id;
  }

  async update(siteId: number, id: number, values: Partial<typeof certificates.$inferInsert>): Promise<boolean> {
    const rows = await this.db
      .update(certificates)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(certificates.siteId, siteId), eq(certificates.id, id)))
      .returning({ id: certificates.id });
    return rows.length === 1;
  }

  async deleteMany(siteId: number, ids: number[]): Promise<number> {
    const rows = await this.db
      .delete(certificates)
      .where(and(eq(certificates.siteId, siteId), inArray(certificates.id, ids)))
      .returning({ id: certificates.id });
    return rows.length;
  }

  async findMany(siteId: number, ids: number[]): Promise<CertificateRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(certificates)
      .where(and(eq(certificates.siteId, siteId), inArray(certificates.id, ids)));
  }
}
