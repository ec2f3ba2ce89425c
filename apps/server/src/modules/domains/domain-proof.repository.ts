import type { DomainProofStatus } from '@rampart/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { domains, sites } from '../../platform/db/schema.js';

/** One claim of a name: a domain row with the customer and operator of its site. */
export interface Claim {
  id: number;
  siteId: number;
  name: string;
  enabled: boolean;
  proofStatus: DomainProofStatus;
  proofToken: string;
  cnameLabel: string;
  /** The customer whose site holds the claim. */
  userId: number;
  /** The operator of that site. */
  ownerId: number;
}

const claimColumns = {
  id: domains.id,
  siteId: domains.siteId,
  name: domains.name,
  enabled: domains.enabled,
  proofStatus: domains.proofStatus,
  proofToken: domains.proofToken,
  cnameLabel: domains.cnameLabel,
  userId: sites.userId,
  ownerId: sites.ownerId,
};

/**
 * Claims of names across every site of the installation. Only the proof logic reads across
 * tenants, to settle who holds a name; nothing it reads about another customer's claim is answered
 * to the caller beyond "the name is taken" (401001), as before proof existed.
 */
export class DomainProofRepository {
  constructor(private readonly db: Db) {}

  /**
   * Serialises every claim, proof and waiver of these names until the transaction ends (advisory
   * locks in name order, so two writers of overlapping names cannot deadlock).
   */
  async lockNames(names: string[]): Promise<void> {
    const keys = [...new Set(names)].sort().map((name) => sql`${`domain-name:${name}`}`);
    if (keys.length === 0) return;
    // One statement; unnest keeps the array's order, in which the locks are taken.
    await this.db.execute(
      sql`SELECT pg_advisory_xact_lock(hashtext(k)) FROM unnest(ARRAY[${sql.join(keys, sql`, `)}]::text[]) AS k`,
    );
  }

  async claimsOf(names: string[]): Promise<Claim[]> {
    if (names.length === 0) return [];
    return (await this.db
      .select(claimColumns)
      .from(domains)
      .innerJoin(sites, eq(sites.id, domains.siteId))
      .where(inArray(domains.name, names))
      .orderBy(asc(domains.id))) as Claim[];
  }

  /** The site's claims with these ids. */
  async siteClaims(siteId: number, ids: number[]): Promise<Claim[]> {
    if (ids.length === 0) return [];
    return (await this.db
      .select(claimColumns)
      .from(domains)
      .innerJoin(sites, eq(sites.id, domains.siteId))
      .where(and(eq(domains.siteId, siteId), inArray(domains.id, ids)))) as Claim[];
  }

  /** Claims waiting for proof (pending or lost), longest unchecked first: the background job's work. */
  async waiting(limit: number): Promise<Claim[]> {
    return (await this.db
      .select(claimColumns)
      .from(domains)
      .innerJoin(sites, eq(sites.id, domains.siteId))
      .where(inArray(domains.proofStatus, [0, 3]))
      .orderBy(sql`${domains.proofCheckedAt} ASC NULLS FIRST`, asc(domains.id))
      .limit(limit)) as Claim[];
  }

  /** Pending claims of the operator's customers, oldest first. */
  async pendingOfOperator(operatorId: number): Promise<Claim[]> {
    return (await this.db
      .select(claimColumns)
      .from(domains)
      .innerJoin(sites, eq(sites.id, domains.siteId))
      .where(and(eq(sites.ownerId, operatorId), eq(domains.proofStatus, 0)))
      .orderBy(asc(domains.id))) as Claim[];
  }

  async setStatus(ids: number[], status: DomainProofStatus): Promise<void> {
    if (ids.length === 0) return;
    await this.db.update(domains).set({ proofStatus: status, updatedAt: sql`now()` }).where(inArray(domains.id, ids));
  }

  async setChecked(ids: number[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db.update(domains).set({ proofCheckedAt: at }).where(inArray(domains.id, ids));
  }
}
