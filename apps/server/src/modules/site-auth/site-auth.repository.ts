import type { AuthKind } from '@rampart/contract';
import { and, asc, count, desc, eq, ilike, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { readPage } from '../../platform/db/paging.js';
import { domains, siteAuthCredentials, siteAuthGroups, siteAuthRules } from '../../platform/db/schema.js';

export type AuthGroupRow = typeof siteAuthGroups.$inferSelect;
export type AuthCredentialRow = typeof siteAuthCredentials.$inferSelect;
export type AuthRuleRow = typeof siteAuthRules.$inferSelect;
export type AuthRuleValues = Omit<typeof siteAuthRules.$inferInsert, 'id' | 'siteId' | 'createdAt' | 'updatedAt'>;

/** Auth groups, their credentials and rules; every query takes the site id the caller was checked against. */
export class SiteAuthRepository {
  constructor(private readonly db: Db) {}

  async hasAny(siteId: number): Promise<boolean> {
    const [row] = await this.db.select({ n: count() }).from(siteAuthGroups).where(eq(siteAuthGroups.siteId, siteId));
    return (row?.n ?? 0) > 0;
  }

  async listGroups(siteId: number, name: string, page: number, pageSize: number) {
    const where = and(
      eq(siteAuthGroups.siteId, siteId),
      name ? ilike(siteAuthGroups.name, containsPattern(name)) : undefined,
    );
    return readPage(
      this.db.select().from(siteAuthGroups).where(where).orderBy(asc(siteAuthGroups.name), asc(siteAuthGroups.id)),
      this.db.select({ n: count() }).from(siteAuthGroups).where(where),
      { page, pageSize },
    );
  }

  /** id and name of the site's groups, by name; with `kind`, those holding a credential of it. */
  async metaGroups(siteId: number, kind: AuthKind | undefined) {
    const holds = kind
      ? sql`exists (select 1 from ${siteAuthCredentials} c where c.group_id = ${siteAuthGroups.id} and c.kind = ${kind})`
      : undefined;
    return this.db
      .select({ id: siteAuthGroups.id, name: siteAuthGroups.name })
      .from(siteAuthGroups)
      .where(and(eq(siteAuthGroups.siteId, siteId), holds))
      .orderBy(asc(siteAuthGroups.name), asc(siteAuthGroups.id));
  }

  async findGroup(siteId: number, id: number): Promise<AuthGroupRow | undefined> {
    const [row] = await this.db
      .select()
      .from(siteAuthGroups)
      .where(and(eq(siteAuthGroups.siteId, siteId), eq(siteAuthGroups.id, id)));
    return row;
  }

  async groupsByIds(siteId: number, ids: number[]): Promise<AuthGroupRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(siteAuthGroups)
      .where(and(eq(siteAuthGroups.siteId, siteId), inArray(siteAuthGroups.id, ids)));
  }

  async countGroups(siteId: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(siteAuthGroups).where(eq(siteAuthGroups.siteId, siteId));
    return row?.n ?? 0;
  }

  async groupNameTaken(siteId: number, name: string, exceptId = 0): Promise<boolean> {
    const [row] = await this.db
      .select({ id: siteAuthGroups.id })
      .from(siteAuthGroups)
      .where(and(eq(siteAuthGroups.siteId, siteId), eq(siteAuthGroups.name, name), ne(siteAuthGroups.id, exceptId)));
    return row !== undefined;
  }

  async insertGroup(siteId: number, name: string, remark: string): Promise<AuthGroupRow> {
    const [row] = await this.db.insert(siteAuthGroups).values({ siteId, name, remark }).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async updateGroup(siteId: number, id: number, name: string, remark: string): Promise<AuthGroupRow | undefined> {
    const [row] = await this.db
      .update(siteAuthGroups)
      .set({ name, remark, updatedAt: new Date() })
      .where(and(eq(siteAuthGroups.siteId, siteId), eq(siteAuthGroups.id, id)))
      .returning();
    return row;
  }

  async deleteGroups(siteId: number, ids: number[]): Promise<number> {
    const rows = await this.db
      .delete(siteAuthGroups)
      .where(and(eq(siteAuthGroups.siteId, siteId), inArray(siteAuthGroups.id, ids)))
      .returning({ id: siteAuthGroups.id });
    return rows.length;
  }

  /** Per group: its credentials of each kind and the rules that use it. */
  async groupCounts(ids: number[]) {
    if (ids.length === 0) return { credentials: [], rules: [] };
    const [credentials, rules] = await Promise.all([
      this.db
        .select({ groupId: siteAuthCredentials.groupId, kind: siteAuthCredentials.kind, n: count() })
        .from(siteAuthCredentials)
        .where(inArray(siteAuthCredentials.groupId, ids))
        .groupBy(siteAuthCredentials.groupId, siteAuthCredentials.kind),
      this.db
        .select({ groupId: siteAuthRules.groupId, n: count() })
        .from(siteAuthRules)
        .where(inArray(siteAuthRules.groupId, ids))
        .groupBy(siteAuthRules.groupId),
    ]);
    return { credentials, rules };
  }

  /** The groups among `ids` that a rule uses, with the rule's name. */
  async groupsInUse(ids: number[]) {
    if (ids.length === 0) return [];
    return this.db
      .select({ groupId: siteAuthRules.groupId, rule: siteAuthRules.name })
      .from(siteAuthRules)
      .where(inArray(siteAuthRules.groupId, ids))
      .orderBy(asc(siteAuthRules.id));
  }

  // Credentials

  async listCredentials(groupId: number, kind: AuthKind, page: number, pageSize: number) {
    const where = and(eq(siteAuthCredentials.groupId, groupId), eq(siteAuthCredentials.kind, kind));
    return readPage(
      this.db.select().from(siteAuthCredentials).where(where).orderBy(asc(siteAuthCredentials.id)),
      this.db.select({ n: count() }).from(siteAuthCredentials).where(where),
      { page, pageSize },
    );
  }

  async countCredentials(groupId: number, kind: AuthKind): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(siteAuthCredentials)
      .where(and(eq(siteAuthCredentials.groupId, groupId), eq(siteAuthCredentials.kind, kind)));
    return row?.n ?? 0;
  }

  async findCredential(groupId: number, kind: AuthKind, id: number): Promise<AuthCredentialRow | undefined> {
    const [row] = await this.db
      .select()
      .from(siteAuthCredentials)
      .where(
        and(
          eq(siteAuthCredentials.groupId, groupId),
          eq(siteAuthCredentials.kind, kind),
          eq(siteAuthCredentials.id, id),
        ),
      );
    return row;
  }

  async credentialNameTaken(groupId: number, kind: AuthKind, name: string, exceptId = 0): Promise<boolean> {
    const [row] = await this.db
      .select({ id: siteAuthCredentials.id })
      .from(siteAuthCredentials)
      .where(
        and(
          eq(siteAuthCredentials.groupId, groupId),
          eq(siteAuthCredentials.kind, kind),
          eq(siteAuthCredentials.name, name),
          ne(siteAuthCredentials.id, exceptId),
        ),
      );
    return row !== undefined;
  }

  async insertCredential(
    groupId: number,
    kind: AuthKind,
    name: string,
    data: Record<string, unknown>,
  ): Promise<AuthCredentialRow> {
    const [row] = await this.db.insert(siteAuthCredentials).values({ groupId, kind, name, data }).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async updateCredential(
    groupId: number,
    kind: AuthKind,
    id: number,
    name: string,
    data: Record<string, unknown>,
  ): Promise<AuthCredentialRow | undefined> {
    const [row] = await this.db
      .update(siteAuthCredentials)
      .set({ name, data, updatedAt: new Date() })
      .where(
        and(
          eq(siteAuthCredentials.groupId, groupId),
          eq(siteAuthCredentials.kind, kind),
          eq(siteAuthCredentials.id, id),
        ),
      )
      .returning();
    return row;
  }

  async deleteCredentials(groupId: number, kind: AuthKind, ids: number[]): Promise<number> {
    const rows = await this.db
      .delete(siteAuthCredentials)
      .where(
        and(
          eq(siteAuthCredentials.groupId, groupId),
          eq(siteAuthCredentials.kind, kind),
          inArray(siteAuthCredentials.id, ids),
        ),
      )
      .returning({ id: siteAuthCredentials.id });
    return rows.length;
  }

  /** Every credential of the groups, for the nodes. */
  async credentialsOfGroups(groupIds: number[]): Promise<AuthCredentialRow[]> {
    if (groupIds.length === 0) return [];
    return this.db
      .select()
      .from(siteAuthCredentials)
      .where(inArray(siteAuthCredentials.groupId, groupIds))
      .orderBy(asc(siteAuthCredentials.id));
  }

  // Rules

  async listRules(siteId: number, page: number, pageSize: number) {
    const where = eq(siteAuthRules.siteId, siteId);
    return readPage(
      this.db
        .select({ rule: siteAuthRules, groupName: siteAuthGroups.name })
        .from(siteAuthRules)
        .innerJoin(siteAuthGroups, eq(siteAuthGroups.id, siteAuthRules.groupId))
        .where(where)
        .orderBy(desc(siteAuthRules.priority), asc(siteAuthRules.id)),
      this.db.select({ n: count() }).from(siteAuthRules).where(where),
      { page, pageSize },
    );
  }

  async findRule(siteId: number, id: number) {
    const [row] = await this.db
      .select({ rule: siteAuthRules, groupName: siteAuthGroups.name })
      .from(siteAuthRules)
      .innerJoin(siteAuthGroups, eq(siteAuthGroups.id, siteAuthRules.groupId))
      .where(and(eq(siteAuthRules.siteId, siteId), eq(siteAuthRules.id, id)));
    return row;
  }

  async countRules(siteId: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(siteAuthRules).where(eq(siteAuthRules.siteId, siteId));
    return row?.n ?? 0;
  }

  async insertRule(siteId: number, values: AuthRuleValues): Promise<number> {
    const [row] = await this.db
      .insert(siteAuthRules)
      .values({ siteId, ...values })
      .returning({ id: siteAuthRules.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  async updateRule(siteId: number, id: number, values: AuthRuleValues): Promise<boolean> {
    const rows = await this.db
      .update(siteAuthRules)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(siteAuthRules.siteId, siteId), eq(siteAuthRules.id, id)))
      .returning({ id: siteAuthRules.id });
    return rows.length > 0;
  }

  async deleteRules(siteId: number, ids: number[]): Promise<number> {
    const rows = await this.db
      .delete(siteAuthRules)
      .where(and(eq(siteAuthRules.siteId, siteId), inArray(siteAuthRules.id, ids)))
      .returning({ id: siteAuthRules.id });
    return rows.length;
  }

  /** The ids among `ids` that are domains of the site. */
  async domainIdsInSite(siteId: number, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .select({ id: domains.id })
      .from(domains)
      .where(and(eq(domains.siteId, siteId), inArray(domains.id, ids)));
    return rows.map((r) => r.id);
  }

  /** The enabled rules of the sites, in the order the edge tries them. */
  async enabledRulesOfSites(siteIds: number[]): Promise<AuthRuleRow[]> {
    if (siteIds.length === 0) return [];
    return this.db
      .select()
      .from(siteAuthRules)
      .where(and(inArray(siteAuthRules.siteId, siteIds), eq(siteAuthRules.enabled, true)))
      .orderBy(desc(siteAuthRules.priority), asc(siteAuthRules.id));
  }
}
