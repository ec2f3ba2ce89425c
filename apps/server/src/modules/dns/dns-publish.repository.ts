import { and, asc, count, desc, eq, ilike, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { rowsOf } from '../../platform/db/rows.js';
import {
  dnsPublishedNames,
  dnsReconcileLeases,
  dnsUnprocessed,
  domains,
  groupNodes,
  groupVirtualNodes,
  nodeGroups,
  nodes,
  productGroups,
  products,
  sites,
  subNodes,
  virtualNodeRecords,
  virtualNodes,
} from '../../platform/db/schema.js';
import type { NodePlacement, ProductGroup, VirtualPlacement, VirtualRecord } from './desired-records.js';

export type UnprocessedRow = typeof dnsUnprocessed.$inferSelect;

/** What the DNS publication reads and keeps, every query bound to one operator. */
export class DnsPublishRepository {
  constructor(private readonly db: Db) {}

  /** Operators with a DNS provider set (their `dnsType`). */
  async operatorsWithProvider(): Promise<number[]> {
    const rows = rowsOf<{ id: string | number }>(
      await this.db.execute(sql`SELECT id FROM accounts WHERE dns_type <> '' ORDER BY id`),
    );
    return rows.map((r) => Number(r.id));
  }

  /** The enabled domains of the operator's sites with their CNAME label, product and `forceBackup`. */
  domainsOf(ownerId: number) {
    return this.db
      .select({ label: domains.cnameLabel, productId: sites.productId, forceBackup: sites.forceBackup })
      .from(domains)
      .innerJoin(sites, eq(sites.id, domains.siteId))
      .where(and(eq(sites.ownerId, ownerId), eq(domains.enabled, true), eq(domains.cnameDisabled, false)))
      .orderBy(asc(domains.id));
  }

  productGroupsOf(ownerId: number): Promise<ProductGroup[]> {
    return this.db
      .select({ productId: productGroups.productId, groupId: productGroups.groupId, isBackup: productGroups.isBackup })
      .from(productGroups)
      .innerJoin(products, eq(products.id, productGroups.productId))
      .where(eq(products.ownerId, ownerId));
  }

  nodePlacementsOf(ownerId: number): Promise<NodePlacement[]> {
    return this.db
      .select({ groupId: groupNodes.groupId, nodeId: groupNodes.nodeId, line: groupNodes.line })
      .from(groupNodes)
      .innerJoin(nodeGroups, eq(nodeGroups.id, groupNodes.groupId))
      .where(eq(nodeGroups.ownerId, ownerId));
  }

  virtualPlacementsOf(ownerId: number): Promise<VirtualPlacement[]> {
    return this.db
      .select({
        groupId: groupVirtualNodes.groupId,
        virtualNodeId: groupVirtualNodes.virtualNodeId,
        line: groupVirtualNodes.line,
      })
      .from(groupVirtualNodes)
      .innerJoin(nodeGroups, eq(nodeGroups.id, groupVirtualNodes.groupId))
      .where(eq(nodeGroups.ownerId, ownerId));
  }

  virtualRecordsOf(ownerId: number): Promise<VirtualRecord[]> {
    return this.db
      .select({
        virtualNodeId: virtualNodeRecords.virtualNodeId,
        type: virtualNodeRecords.type,
        value: virtualNodeRecords.value,
        nodeId: virtualNodeRecords.nodeId,
      })
      .from(virtualNodeRecords)
      .innerJoin(virtualNodes, eq(virtualNodes.id, virtualNodeRecords.virtualNodeId))
      .where(eq(virtualNodes.ownerId, ownerId))
      .orderBy(asc(virtualNodeRecords.id));
  }

  /** The addresses of the operator's enabled, initialised nodes: their own, then their sub-nodes'. */
  async nodeAddressesOf(ownerId: number): Promise<Map<number, string[]>> {
    const own = await this.db
      .select({ id: nodes.id, ips: nodes.ips })
      .from(nodes)
      .where(and(eq(nodes.ownerId, ownerId), eq(nodes.status, 'initialized'), eq(nodes.enabled, true)));
    const map = new Map<number, string[]>(own.map((n) => [n.id, [...n.ips]]));
    const subs = await this.db
      .select({ nodeId: subNodes.nodeId, ip: subNodes.ip })
      .from(subNodes)
      .where(eq(subNodes.ownerId, ownerId))
      .orderBy(asc(subNodes.id));
    for (const sub of subs) map.get(sub.nodeId)?.push(sub.ip);
    return map;
  }

  async publishedNames(ownerId: number): Promise<string[]> {
    const rows = await this.db
      .select({ name: dnsPublishedNames.name })
      .from(dnsPublishedNames)
      .where(eq(dnsPublishedNames.ownerId, ownerId));
    return rows.map((r) => r.name);
  }

  async addPublishedName(ownerId: number, name: string): Promise<void> {
    await this.db.insert(dnsPublishedNames).values({ ownerId, name }).onConflictDoNothing();
  }

  async removePublishedName(ownerId: number, name: string): Promise<void> {
    await this.db
      .delete(dnsPublishedNames)
      .where(and(eq(dnsPublishedNames.ownerId, ownerId), eq(dnsPublishedNames.name, name)));
  }

  async unprocessedOf(ownerId: number): Promise<UnprocessedRow[]> {
    return this.db.select().from(dnsUnprocessed).where(eq(dnsUnprocessed.ownerId, ownerId));
  }

  async listUnprocessed(ownerId: number, page: number, pageSize: number) {
    const where = eq(dnsUnprocessed.ownerId, ownerId);
    const rows = await this.db
      .select()
      .from(dnsUnprocessed)
      .where(where)
      .orderBy(desc(dnsUnprocessed.updatedAt), desc(dnsUnprocessed.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize);
    const total = await this.db.select({ n: count() }).from(dnsUnprocessed).where(where);
    return { rows, total: total[0]?.n ?? 0 };
  }

  /** Records a failed change: a new row, or the same record's row with one more attempt. */
  async recordFailure(
    row: Pick<UnprocessedRow, 'ownerId' | 'name' | 'type' | 'line' | 'action' | 'ttl' | 'values' | 'error'>,
    nextAttemptAt: (attempts: number) => Date,
  ): Promise<void> {
    const existing = await this.db
      .select({ attempts: dnsUnprocessed.attempts })
      .from(dnsUnprocessed)
      .where(
        and(
          eq(dnsUnprocessed.ownerId, row.ownerId),
          eq(dnsUnprocessed.name, row.name),
          eq(dnsUnprocessed.type, row.type),
          eq(dnsUnprocessed.line, row.line),
        ),
      );
    const attempts = (existing[0]?.attempts ?? 0) + 1;
    const values = { ...row, attempts, nextAttemptAt: nextAttemptAt(attempts) };
    await this.db
      .insert(dnsUnprocessed)
      .values(values)
      .onConflictDoUpdate({
        target: [dnsUnprocessed.ownerId, dnsUnprocessed.name, dnsUnprocessed.type, dnsUnprocessed.line],
        set: { ...values, updatedAt: sql`now()` },
      });
  }

  async clearUnprocessed(ownerId: number, name: string, type: string, line: string): Promise<void> {
    await this.db
      .delete(dnsUnprocessed)
      .where(
        and(
          eq(dnsUnprocessed.ownerId, ownerId),
          eq(dnsUnprocessed.name, name),
          sql`${dnsUnprocessed.type} = ${type}`,
          eq(dnsUnprocessed.line, line),
        ),
      );
  }

  /** The operator's domains with their CNAME label, newest first, filtered by a part of the name or label. */
  async listCnames(ownerId: number, keyword: string | undefined, page: number, pageSize: number) {
    const where = and(
      eq(sites.ownerId, ownerId),
      keyword
        ? or(ilike(domains.name, containsPattern(keyword)), ilike(domains.cnameLabel, containsPattern(keyword)))
        : undefined,
    );
    const rows = await this.db
      .select({
        id: domains.id,
        domain: domains.name,
        label: domains.cnameLabel,
        siteId: sites.id,
        siteName: sites.name,
        enabled: domains.enabled,
        disabled: domains.cnameDisabled,
      })
      .from(domains)
      .innerJoin(sites, eq(sites.id, domains.siteId))
      .where(where)
      .orderBy(desc(domains.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize);
    const total = await this.db
      .select({ n: count() })
      .from(domains)
      .innerJoin(sites, eq(sites.id, domains.siteId))
      .where(where);
    return { rows, total: total[0]?.n ?? 0 };
  }

  /** Which of `ids` are domains of the operator's sites. */
  async domainIdsOf(ownerId: number, ids: readonly number[]): Promise<number[]> {
    const rows = await this.db
      .select({ id: domains.id })
      .from(domains)
      .innerJoin(sites, eq(sites.id, domains.siteId))
      .where(and(eq(sites.ownerId, ownerId), inArray(domains.id, [...ids])));
    return rows.map((r) => r.id);
  }

  /** Sets the CNAME publication flag of domains the caller checked are the operator's. */
  async setCnameDisabled(ids: readonly number[], disabled: boolean): Promise<void> {
    await this.db
      .update(domains)
      .set({ cnameDisabled: disabled, updatedAt: sql`now()` })
      .where(inArray(domains.id, [...ids]));
  }

  /** Which of `ids` are rows of the operator. */
  async idsOf(ownerId: number, ids: readonly number[]): Promise<number[]> {
    const rows = await this.db
      .select({ id: dnsUnprocessed.id })
      .from(dnsUnprocessed)
      .where(and(eq(dnsUnprocessed.ownerId, ownerId), inArray(dnsUnprocessed.id, [...ids])));
    return rows.map((r) => r.id);
  }

  /** Makes the operator's rows (all, or those of `ids`) due now; answers the ids that are the operator's. */
  async makeDue(ownerId: number, ids: readonly number[] | null, now: Date): Promise<number[]> {
    const rows = await this.db
      .update(dnsUnprocessed)
      .set({ nextAttemptAt: now })
      .where(and(eq(dnsUnprocessed.ownerId, ownerId), ids === null ? undefined : inArray(dnsUnprocessed.id, [...ids])))
      .returning({ id: dnsUnprocessed.id });
    return rows.map((r) => r.id);
  }

  /**
   * Takes (or renews) the operator's lease for `holder` until `until`, if it is free, expired or
   * already `holder`'s; answers whether `holder` has it now.
   */
  async takeLease(ownerId: number, holder: string, now: Date, until: Date): Promise<boolean> {
    const rows = await this.db
      .insert(dnsReconcileLeases)
      .values({ ownerId, holder, until })
      .onConflictDoUpdate({
        target: dnsReconcileLeases.ownerId,
        set: { holder, until },
        setWhere: or(eq(dnsReconcileLeases.holder, holder), lt(dnsReconcileLeases.until, now)),
      })
      .returning({ holder: dnsReconcileLeases.holder });
    return rows[0]?.holder === holder;
  }

  async releaseLease(ownerId: number, holder: string, passAt: Date): Promise<void> {
    await this.db
      .update(dnsReconcileLeases)
      .set({ until: passAt, lastPassAt: passAt })
      .where(and(eq(dnsReconcileLeases.ownerId, ownerId), eq(dnsReconcileLeases.holder, holder)));
  }
}
