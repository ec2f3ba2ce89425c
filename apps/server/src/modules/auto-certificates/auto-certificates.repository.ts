import type { AutoCertStatus } from '@rampart/contract';
import { and, asc, count, eq, ilike, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { readPage } from '../../platform/db/paging.js';
import { rowsOf } from '../../platform/db/rows.js';
import { acmeChallenges, autoCertificateAttempts, autoCertificates, domains, sites } from '../../platform/db/schema.js';

export interface AutoCertificateFilter {
  domain?: string | undefined;
  status?: AutoCertStatus | undefined;
  siteID?: number | undefined;
  expiresBefore?: Date | undefined;
  lastError?: string | undefined;
}

/** A row the job holds for one attempt. */
export interface ClaimedCertificate {
  readonly id: number;
  readonly siteId: number;
  readonly domainId: number;
  readonly name: string;
  readonly operatorId: number;
  /** The site's customer (told of a failure with the operator). */
  readonly customerId: number;
  readonly certificateId: number | null;
  readonly failures: number;
}

/**
 * Automatic certificates: the operator's list (every query joins the site and carries the
 * operator's id), and the job's rows, attempts and HTTP-01 challenges.
 */
export class AutoCertificatesRepository {
  constructor(private readonly db: Db) {}

  private where(ownerId: number, f: AutoCertificateFilter): SQL | undefined {
    return and(
      eq(sites.ownerId, ownerId),
      f.siteID ? eq(autoCertificates.siteId, f.siteID) : undefined,
      f.domain?.trim() ? ilike(domains.name, containsPattern(f.domain.trim().toLowerCase())) : undefined,
      f.status ? eq(autoCertificates.status, f.status) : undefined,
      f.expiresBefore ? lt(autoCertificates.notAfter, f.expiresBefore) : undefined,
      f.lastError?.trim() ? ilike(autoCertificates.lastError, containsPattern(f.lastError.trim())) : undefined,
    );
  }

  list(ownerId: number, f: AutoCertificateFilter, page: number, pageSize: number) {
    const where = this.where(ownerId, f);
    return readPage(
      this.db
        .select({
          id: autoCertificates.id,
          domainId: autoCertificates.domainId,
          domain: domains.name,
          siteId: autoCertificates.siteId,
          siteName: sites.name,
          status: autoCertificates.status,
          notAfter: autoCertificates.notAfter,
          lastError: autoCertificates.lastError,
          failures: autoCertificates.failures,
          lastAttemptAt: autoCertificates.lastAttemptAt,
          nextAttemptAt: autoCertificates.nextAttemptAt,
        })
        .from(autoCertificates)
        .innerJoin(domains, eq(domains.id, autoCertificates.domainId))
        .innerJoin(sites, eq(sites.id, autoCertificates.siteId))
        .where(where)
        .orderBy(asc(domains.name), asc(autoCertificates.id)),
      this.db
        .select({ n: count() })
        .from(autoCertificates)
        .innerJoin(domains, eq(domains.id, autoCertificates.domainId))
        .innerJoin(sites, eq(sites.id, autoCertificates.siteId))
        .where(where),
      { page, pageSize },
    );
  }

  /** Makes every auto-SSL domain due now (the rows of `ids` in the operator's sites); the count changed. */
  async renewNow(ownerId: number, ids: number[], now: Date): Promise<number> {
    if (ids.length === 0) return 0;
    const rows = await this.db
      .update(autoCertificates)
      .set({ nextAttemptAt: now, updatedAt: sql`now()` })
      .where(
        and(
          inArray(autoCertificates.id, ids),
          sql`${autoCertificates.siteId} IN (SELECT ${sites.id} FROM ${sites} WHERE ${sites.ownerId} = ${ownerId})`,
        ),
      )
      .returning({ id: autoCertificates.id });
    return rows.length;
  }

  /** The state of the domains' automatic certificates, for the customer's domain list. */
  async ofDomains(domainIds: number[]) {
    if (domainIds.length === 0) return [];
    return this.db
      .select({
        domainId: autoCertificates.domainId,
        status: autoCertificates.status,
        lastError: autoCertificates.lastError,
        notAfter: autoCertificates.notAfter,
      })
      .from(autoCertificates)
      .where(inArray(autoCertificates.domainId, domainIds));
  }

  /** Rows for domains that turned auto SSL on; rows of domains that turned it off go. */
  async sync(): Promise<void> {
    await this.db.execute(sql`
      INSERT INTO ${autoCertificates} (site_id, domain_id)
      SELECT d.site_id, d.id FROM ${domains} d WHERE d.auto_ssl
      ON CONFLICT (domain_id) DO NOTHING`);
    await this.db.execute(sql`
      DELETE FROM ${autoCertificates} a USING ${domains} d
      WHERE a.domain_id = d.id AND NOT d.auto_ssl`);
  }

  /**
   * Takes up to `limit` due rows for this process until `leaseUntil` (rows another process holds
   * are skipped: one issuer per domain at a time), marking them `issuing`.
   */
  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedCertificate[]> {
    const claimed = await this.db.execute(sql`
      UPDATE ${autoCertificates} a SET lease_until = ${leaseUntil.toISOString()}, status = 'issuing', updated_at = now()
      WHERE a.id IN (
        SELECT c.id FROM ${autoCertificates} c
        WHERE c.next_attempt_at <= ${now.toISOString()}
          AND (c.lease_until IS NULL OR c.lease_until < ${now.toISOString()})
        ORDER BY c.next_attempt_at, c.id
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING a.id`);
    const ids = rowsOf<{ id: number | string }>(claimed).map((r) => Number(r.id));
    if (ids.length === 0) return [];
    return this.db
      .select({
        id: autoCertificates.id,
        siteId: autoCertificates.siteId,
        domainId: autoCertificates.domainId,
        name: domains.name,
        operatorId: sites.ownerId,
        customerId: sites.userId,
        certificateId: autoCertificates.certificateId,
        failures: autoCertificates.failures,
      })
      .from(autoCertificates)
      .innerJoin(domains, eq(domains.id, autoCertificates.domainId))
      .innerJoin(sites, eq(sites.id, autoCertificates.siteId))
      .where(inArray(autoCertificates.id, ids))
      .orderBy(asc(autoCertificates.id));
  }

  async startAttempt(id: number, now: Date): Promise<number> {
    const [row] = await this.db
      .insert(autoCertificateAttempts)
      .values({ autoCertificateId: id, startedAt: now })
      .returning({ id: autoCertificateAttempts.id });
    if (!row) throw new Error('insert returned no row');
    await this.db.update(autoCertificates).set({ lastAttemptAt: now }).where(eq(autoCertificates.id, id));
    return row.id;
  }

  async attempts(id: number) {
    return this.db
      .select()
      .from(autoCertificateAttempts)
      .where(eq(autoCertificateAttempts.autoCertificateId, id))
      .orderBy(asc(autoCertificateAttempts.id));
  }

  async succeeded(
    id: number,
    attemptId: number,
    values: { certificateId: number; notAfter: Date; nextAttemptAt: Date },
    now: Date,
  ): Promise<void> {
    await this.db
      .update(autoCertificateAttempts)
      .set({ finishedAt: now, ok: true })
      .where(eq(autoCertificateAttempts.id, attemptId));
    await this.db
      .update(autoCertificates)
      .set({ ...values, status: 'valid', lastError: '', failures: 0, leaseUntil: null, updatedAt: sql`now()` })
      .where(eq(autoCertificates.id, id));
  }

  async failed(id: number, attemptId: number, error: string, nextAttemptAt: Date, now: Date): Promise<void> {
    await this.db
      .update(autoCertificateAttempts)
      .set({ finishedAt: now, ok: false, error })
      .where(eq(autoCertificateAttempts.id, attemptId));
    await this.db
      .update(autoCertificates)
      .set({
        status: 'failed',
        lastError: error,
        failures: sql`${autoCertificates.failures} + 1`,
        nextAttemptAt,
        leaseUntil: null,
        updatedAt: sql`now()`,
      })
      .where(eq(autoCertificates.id, id));
  }

  async putChallenge(row: typeof acmeChallenges.$inferInsert): Promise<void> {
    await this.db.insert(acmeChallenges).values(row);
  }

  async clearChallenges(autoCertificateId: number): Promise<void> {
    await this.db.delete(acmeChallenges).where(eq(acmeChallenges.autoCertificateId, autoCertificateId));
  }

  /** The HTTP-01 challenges of these domains, for the nodes that carry them. */
  async challengesOf(domainIds: number[]) {
    if (domainIds.length === 0) return [];
    return this.db
      .select({
        host: acmeChallenges.host,
        token: acmeChallenges.token,
        keyAuthorization: acmeChallenges.keyAuthorization,
      })
      .from(acmeChallenges)
      .where(inArray(acmeChallenges.domainId, domainIds))
      .orderBy(asc(acmeChallenges.id));
  }
}
