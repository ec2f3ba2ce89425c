import { and, asc, count, desc, eq, ilike, inArray, notInArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { certificates, domains, domainUpstreams } from '../../platform/db/schema.js';

export type DomainRow = typeof domains.$inferSelect & { certificateName: string | null };
export type UpstreamRow = typeof domainUpstreams.$inferSelect;
export type NewUpstream = Omit<typeof domainUpstreams.$inferInsert, 'id' | 'domainId'>;

export interface DomainFilter {
  keywords?: string | undefined;
  status?: 0 | 1 | undefined;
  forceSSL?: 'true' | 'false' | undefined;
  sortBy: 'name' | 'createdAt' | 'updatedAt';
  orderBy: 'asc' | 'desc';
}

const SORT = { name: domains.name, createdAt: domains.createdAt, updatedAt: domains.updatedAt } as const;
const columns = {
  id: domains.id,
  siteId: domains.siteId,
  name: domains.name,
  enabled: domains.enabled,
  scheme: domains.scheme,
  hashType: domains.hashType,
  hostName: domains.hostName,
  forceSSL: domains.forceSSL,
  certificateId: domains.certificateId,
  tags: domains.tags,
  createdAt: domains.createdAt,
  updatedAt: domains.updatedAt,
  certificateName: certificates.name,
};

/** Domains and upstreams of one site; every query takes the site id the caller was checked against. */
export class DomainsRepository {
  constructor(private readonly db: Db) {}

  async list(siteId: number, f: DomainFilter, page: number, pageSize: number) {
    const where = and(
      eq(domains.siteId, siteId),
      f.keywords ? ilike(domains.name, containsPattern(f.keywords.trim().toLowerCase())) : undefined,
      f.status === undefined ? undefined : eq(domains.enabled, f.status === 1),
      f.forceSSL === undefined ? undefined : eq(domains.forceSSL, f.forceSSL === 'true'),
    );
    const order = f.orderBy === 'asc' ? asc : desc;
    const [rows, [total]] = await Promise.all([
      this.db
        .select(columns)
        .from(domains)
        .leftJoin(certificates, eq(certificates.id, domains.certificateId))
        .where(where)
        .orderBy(order(SORT[f.sortBy]), order(domains.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      this.db.select({ n: count() }).from(domains).where(where),
    ]);
    return { rows: rows as DomainRow[], total: total?.n ?? 0 };
  }

  async countInSite(siteId: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(domains).where(eq(domains.siteId, siteId));
    return row?.n ?? 0;
  }

  async findMany(siteId: number, ids: number[]): Promise<DomainRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .select(columns)
      .from(domains)
      .leftJoin(certificates, eq(certificates.id, domains.certificateId))
      .where(and(eq(domains.siteId, siteId), inArray(domains.id, ids)));
    return rows as DomainRow[];
  }

  async upstreamsOf(domainIds: number[]): Promise<UpstreamRow[]> {
    if (domainIds.length === 0) return [];
    return this.db
      .select()
      .from(domainUpstreams)
      .where(inArray(domainUpstreams.domainId, domainIds))
      .orderBy(asc(domainUpstreams.id));
  }

  /** Names among `names` that a domain matching `scope` has, leaving out the domains `exceptIds`. */
  private async namesTaken(scope: SQL, names: string[], exceptIds: number[]): Promise<string[]> {
    if (names.length === 0) return [];
    const rows = await this.db
      .select({ name: domains.name })
      .from(domains)
      .where(
        and(scope, inArray(domains.name, names), exceptIds.length > 0 ? notInArray(domains.id, exceptIds) : undefined),
      );
    return rows.map((r) => r.name);
  }

  /** Names among `names` already used in this site (any status). */
  namesInSite(siteId: number, names: string[], exceptIds: number[] = []): Promise<string[]> {
    return this.namesTaken(eq(domains.siteId, siteId), names, exceptIds);
  }

  /** Names among `names` that an enabled domain outside `exceptIds` already has, in any site. */
  enabledNamesTaken(names: string[], exceptIds: number[] = []): Promise<string[]> {
    return this.namesTaken(eq(domains.enabled, true), names, exceptIds);
  }

  async insert(row: typeof domains.$inferInsert): Promise<number> {
    const [created] = await this.db.insert(domains).values(row).returning({ id: domains.id });
    if (!created) throw new Error('insert returned no row');
    return created.id;
  }

  async update(siteId: number, ids: number[], values: Partial<typeof domains.$inferInsert>): Promise<number> {
    if (ids.length === 0) return 0;
    const rows = await this.db
      .update(domains)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(domains.siteId, siteId), inArray(domains.id, ids)))
      .returning({ id: domains.id });
    return rows.length;
  }

  async deleteMany(siteId: number, ids: number[]): Promise<number> {
    const rows = await this.db
      .delete(domains)
      .where(and(eq(domains.siteId, siteId), inArray(domains.id, ids)))
      .returning({ id: domains.id });
    return rows.length;
  }

  async insertUpstreams(domainId: number, list: NewUpstream[]): Promise<UpstreamRow[]> {
    if (list.length === 0) return [];
    return this.db
      .insert(domainUpstreams)
      .values(list.map((u) => ({ ...u, domainId })))
      .returning();
  }

  async replaceUpstreams(domainId: number, list: NewUpstream[]): Promise<void> {
    await this.db.delete(domainUpstreams).where(eq(domainUpstreams.domainId, domainId));
    await this.insertUpstreams(domainId, list);
  }

  async deleteUpstreams(domainId: number, ids: number[]): Promise<number> {
    const rows = await this.db
      .delete(domainUpstreams)
      .where(and(eq(domainUpstreams.domainId, domainId), inArray(domainUpstreams.id, ids)))
      .returning({ id: domainUpstreams.id });
    return rows.length;
  }

  async updateUpstream(domainId: number, id: number, values: NewUpstream): Promise<UpstreamRow | undefined> {
    const [row] = await this.db
      .update(domainUpstreams)
      .set(values)
      .where(and(eq(domainUpstreams.domainId, domainId), eq(domainUpstreams.id, id)))
      .returning();
    return row;
  }

  async touch(domainId: number): Promise<void> {
    await this.db.update(domains).set({ updatedAt: sql`now()` }).where(eq(domains.id, domainId));
  }
}
