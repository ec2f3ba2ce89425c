import type { AutoCertStatus } from '@rampart/contract';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lte,
  notInArray,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { readPage } from '../../platform/db/paging.js';
import {
  certificates,
  domains,
  domainUpstreams,
  nodeGroups,
  productGroups,
  sites,
  zonePorts,
} from '../../platform/db/schema.js';
import { hasAnyTag } from '../../platform/db/tags.js';
import { moduleBindingsOf } from '../site-modules/site-modules.repository.js';

// The DNS publication's flag (modules/dns) is not part of a domain's answers.
export type DomainRow = Omit<typeof domains.$inferSelect, 'cnameDisabled'> & {
  certificateName: string | null;
  certificateNotBefore: Date | null;
  certificateNotAfter: Date | null;
  /** The automatic certificate's state when the domain has one (auto-certificates). */
  autoSSLStatus?: AutoCertStatus | null;
  autoSSLError?: string | null;
};
export type UpstreamRow = typeof domainUpstreams.$inferSelect;
export type NewUpstream = Omit<typeof domainUpstreams.$inferInsert, 'id' | 'domainId'>;

export interface DomainFilter {
  keywords?: string | undefined;
  status?: 0 | 1 | undefined;
  forceSSL?: 'true' | 'false' | undefined;
  tags?: string[] | undefined;
  /** 0 none, 1 valid now, 2 expired or not yet valid. */
  certStatus?: 0 | 1 | 2 | undefined;
  /** Any of these (0 not checked, 1 verified, 2 not pointing). */
  cnameStatuses?: (0 | 1 | 2)[] | undefined;
  createdAtStart?: string | undefined;
  createdAtEnd?: string | undefined;
  updatedAtStart?: string | undefined;
  updatedAtEnd?: string | undefined;
  sortBy: 'name' | 'createdAt' | 'updatedAt';
  orderBy: 'asc' | 'desc';
}

/**
 * Rows per INSERT statement: PostgreSQL takes at most 65,535 parameters in one (a domain row gives
 * fewer than 25), and a request adds at most DOMAINS_PER_REQUEST_MAX domains.
 */
const INSERT_CHUNK = 1000;

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
  autoSSL: domains.autoSSL,
  // The automatic certificate's state (auto-certificates), one row per domain at most.
  autoSSLStatus: sql<AutoCertStatus | null>`(SELECT a.status FROM auto_certificates a WHERE a.domain_id = ${domains.id})`,
  autoSSLError: sql<string | null>`(SELECT a.last_error FROM auto_certificates a WHERE a.domain_id = ${domains.id})`,
  portMap: domains.portMap,
  cnameLabel: domains.cnameLabel,
  cnameStatus: domains.cnameStatus,
  cnameCheckedAt: domains.cnameCheckedAt,
  proofStatus: domains.proofStatus,
  proofToken: domains.proofToken,
  proofCheckedAt: domains.proofCheckedAt,
  certificateId: domains.certificateId,
  tags: domains.tags,
  createdAt: domains.createdAt,
  updatedAt: domains.updatedAt,
  certificateName: certificates.name,
  certificateNotBefore: certificates.notBefore,
  certificateNotAfter: certificates.notAfter,
};

/** The certificate state filter, against the database clock like the edge's validity check. */
function certStatusWhere(status: 0 | 1 | 2): SQL | undefined {
  if (status === 0) return isNull(domains.certificateId);
  const valid = and(lte(certificates.notBefore, sql`now()`), gte(certificates.notAfter, sql`now()`));
  if (status === 1) return and(isNotNull(domains.certificateId), valid);
  return and(isNotNull(domains.certificateId), sql`not (${valid})`);
}

function between(
  column: typeof domains.createdAt | typeof domains.updatedAt,
  start?: string,
  end?: string,
): SQL | undefined {
  return and(start ? gte(column, new Date(start)) : undefined, end ? lte(column, new Date(end)) : undefined);
}

/** Domains and upstreams of one site; every query takes the site id the caller was checked against. */
export class DomainsRepository {
  constructor(private readonly db: Db) {}

  async list(siteId: number, f: DomainFilter, page: number, pageSize: number) {
    const where = and(
      eq(domains.siteId, siteId),
      f.keywords ? ilike(domains.name, containsPattern(f.keywords.trim().toLowerCase())) : undefined,
      f.status === undefined ? undefined : eq(domains.enabled, f.status === 1),
      f.forceSSL === undefined ? undefined : eq(domains.forceSSL, f.forceSSL === 'true'),
      f.tags && f.tags.length > 0 ? hasAnyTag(domains.tags, f.tags) : undefined,
      f.certStatus === undefined ? undefined : certStatusWhere(f.certStatus),
      f.cnameStatuses && f.cnameStatuses.length > 0 ? inArray(domains.cnameStatus, f.cnameStatuses) : undefined,
      between(domains.createdAt, f.createdAtStart, f.createdAtEnd),
      between(domains.updatedAt, f.updatedAtStart, f.updatedAtEnd),
    );
    const order = f.orderBy === 'asc' ? asc : desc;
    return readPage<DomainRow>(
      this.db
        .select(columns)
        .from(domains)
        .leftJoin(certificates, eq(certificates.id, domains.certificateId))
        .where(where)
        .orderBy(order(SORT[f.sortBy]), order(domains.id)),
      this.db
        .select({ n: count() })
        .from(domains)
        .leftJoin(certificates, eq(certificates.id, domains.certificateId))
        .where(where),
      { page, pageSize },
    );
  }

  /** Domains of the site with auto SSL on, leaving out `exceptIds`. */
  async countAutoSSL(siteId: number, exceptIds: number[] = []): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(domains)
      .where(
        and(
          eq(domains.siteId, siteId),
          eq(domains.autoSSL, true),
          exceptIds.length > 0 ? notInArray(domains.id, exceptIds) : undefined,
        ),
      );
    return row?.n ?? 0;
  }

  /** The listen ports of the zones whose groups the site's product uses (main and backup). */
  async listenPorts(siteId: number): Promise<{ port: number; portType: 'http' | 'https' }[]> {
    return this.db
      .selectDistinct({ port: zonePorts.port, portType: zonePorts.portType })
      .from(sites)
      .innerJoin(productGroups, eq(productGroups.productId, sites.productId))
      .innerJoin(nodeGroups, eq(nodeGroups.id, productGroups.groupId))
      .innerJoin(zonePorts, eq(zonePorts.zoneId, nodeGroups.zoneId))
      .where(eq(sites.id, siteId))
      .orderBy(asc(zonePorts.port));
  }

  /** Records the result of a CNAME check of the site's domains (ids by status). */
  async setCnameStatus(siteId: number, ids: number[], status: 0 | 1 | 2, at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(domains)
      .set({ cnameStatus: status, cnameCheckedAt: at })
      .where(and(eq(domains.siteId, siteId), inArray(domains.id, ids)));
  }

  /** Marks every domain of the operator's sites not checked (its CNAME domain changed). */
  async resetCnameStatusOfOperator(operatorId: number): Promise<void> {
    const owned = this.db.select({ id: sites.id }).from(sites).where(eq(sites.ownerId, operatorId));
    await this.db.update(domains).set({ cnameStatus: 0, cnameCheckedAt: null }).where(inArray(domains.siteId, owned));
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

  async findByNames(siteId: number, names: string[]): Promise<DomainRow[]> {
    if (names.length === 0) return [];
    const rows = await this.db
      .select(columns)
      .from(domains)
      .leftJoin(certificates, eq(certificates.id, domains.certificateId))
      .where(and(eq(domains.siteId, siteId), inArray(domains.name, names)));
    return rows as DomainRow[];
  }

  /** Id, name and status of the site's domains whose name holds `keyword`, by name. */
  meta(siteId: number, keyword: string, limit: number) {
    return this.db
      .select({ id: domains.id, name: domains.name, enabled: domains.enabled })
      .from(domains)
      .where(
        and(
          eq(domains.siteId, siteId),
          keyword.trim() ? ilike(domains.name, containsPattern(keyword.trim().toLowerCase())) : undefined,
        ),
      )
      .orderBy(asc(domains.name), asc(domains.id))
      .limit(limit);
  }

  /** The site's domains with these ids (all of the site when `ids` is empty), by name. */
  async forExport(siteId: number, ids: number[]): Promise<DomainRow[]> {
    const rows = await this.db
      .select(columns)
      .from(domains)
      .leftJoin(certificates, eq(certificates.id, domains.certificateId))
      .where(and(eq(domains.siteId, siteId), ids.length > 0 ? inArray(domains.id, ids) : undefined))
      .orderBy(asc(domains.name), asc(domains.id));
    return rows as DomainRow[];
  }

  /**
   * Sets `newIP` on every upstream with `oldIP` of the site's domains (only those in `domainIds`
   * unless it is empty); answers the changed upstreams' domain ids.
   */
  async replaceUpstreamIP(
    siteId: number,
    domainIds: number[],
    oldIP: string,
    newIP: string,
  ): Promise<{ domainId: number; port: number }[]> {
    const inSite = this.db
      .select({ id: domains.id })
      .from(domains)
      .where(and(eq(domains.siteId, siteId), domainIds.length > 0 ? inArray(domains.id, domainIds) : undefined));
    const rows = await this.db
      .update(domainUpstreams)
      .set({ ip: newIP })
      .where(and(eq(domainUpstreams.ip, oldIP), inArray(domainUpstreams.domainId, inSite)))
      .returning({ domainId: domainUpstreams.domainId, port: domainUpstreams.port });
    return rows;
  }

  /** Site modules bound to the domains (module id and name by type). */
  modulesOf(domainIds: number[]) {
    return moduleBindingsOf(this.db, domainIds);
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

  /**
   * Names among `names` that a live domain (enabled, and proved or waived) outside `exceptIds`
   * already has, in any site.
   */
  enabledNamesTaken(names: string[], exceptIds: number[] = []): Promise<string[]> {
    return this.namesTaken(
      and(eq(domains.enabled, true), inArray(domains.proofStatus, [1, 2])) as SQL,
      names,
      exceptIds,
    );
  }

  /**
   * Inserts domains of one site with distinct names in few statements (a batch of hundreds is one
   * or two round trips, not one per domain); answers their ids in the rows' order.
   */
  async insertMany(rows: (typeof domains.$inferInsert)[]): Promise<number[]> {
    const ids = new Map<string, number>();
    for (let from = 0; from < rows.length; from += INSERT_CHUNK) {
      const created = await this.db
        .insert(domains)
        .values(rows.slice(from, from + INSERT_CHUNK))
        .returning({ id: domains.id, name: domains.name });
      for (const c of created) ids.set(c.name, c.id);
    }
    return rows.map((r) => {
      const id = ids.get(r.name);
      if (id === undefined) throw new Error(`insert returned no row for ${r.name}`);
      return id;
    });
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

  /** The upstreams of several new domains, in few statements. */
  async insertUpstreamsOfMany(lists: readonly { domainId: number; list: readonly NewUpstream[] }[]): Promise<void> {
    const rows = lists.flatMap(({ domainId, list }) => list.map((u) => ({ ...u, domainId })));
    for (let from = 0; from < rows.length; from += INSERT_CHUNK) {
      await this.db.insert(domainUpstreams).values(rows.slice(from, from + INSERT_CHUNK));
    }
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

  async touch(domainId: number | number[]): Promise<void> {
    const ids = Array.isArray(domainId) ? domainId : [domainId];
    if (ids.length === 0) return;
    await this.db.update(domains).set({ updatedAt: sql`now()` }).where(inArray(domains.id, ids));
  }
}
