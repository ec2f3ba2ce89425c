import type { SiteModuleType } from '@rampart/contract';
import { and, asc, count, desc, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { readPage } from '../../platform/db/paging.js';
import { domainModules, domains, siteModuleRules, siteModules } from '../../platform/db/schema.js';

export type ModuleRow = typeof siteModules.$inferSelect;
export type RuleRow = typeof siteModuleRules.$inferSelect;
export type RuleType = RuleRow['type'];

/** Site modules, their rules and bindings; every query takes the site id the caller was checked against. */
export class SiteModulesRepository {
  constructor(private readonly db: Db) {}

  async list(siteId: number, type: SiteModuleType, name: string | undefined, page: number, pageSize: number) {
    const where = and(
      eq(siteModules.siteId, siteId),
      eq(siteModules.type, type),
      name?.trim() ? ilike(siteModules.name, containsPattern(name.trim())) : undefined,
    );
    return readPage(
      this.db.select().from(siteModules).where(where).orderBy(asc(siteModules.id)),
      this.db.select({ n: count() }).from(siteModules).where(where),
      { page, pageSize },
    );
  }

  async find(siteId: number, type: SiteModuleType, id: number): Promise<ModuleRow | undefined> {
    const [row] = await this.db
      .select()
      .from(siteModules)
      .where(and(eq(siteModules.siteId, siteId), eq(siteModules.type, type), eq(siteModules.id, id)));
    return row;
  }

  async findMany(siteId: number, type: SiteModuleType, ids: number[]): Promise<ModuleRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(siteModules)
      .where(and(eq(siteModules.siteId, siteId), eq(siteModules.type, type), inArray(siteModules.id, ids)));
  }

  async countOfType(siteId: number, type: SiteModuleType): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(siteModules)
      .where(and(eq(siteModules.siteId, siteId), eq(siteModules.type, type)));
    return row?.n ?? 0;
  }

  async namesTaken(siteId: number, type: SiteModuleType, names: string[], exceptId = 0): Promise<string[]> {
    if (names.length === 0) return [];
    const rows = await this.db
      .select({ name: siteModules.name })
      .from(siteModules)
      .where(
        and(
          eq(siteModules.siteId, siteId),
          eq(siteModules.type, type),
          inArray(siteModules.name, names),
          sql`${siteModules.id} <> ${exceptId}`,
        ),
      );
    return rows.map((r) => r.name);
  }

  insert(siteId: number, type: SiteModuleType, items: { name: string; settings: Record<string, unknown> }[]) {
    return this.db
      .insert(siteModules)
      .values(items.map((i) => ({ siteId, type, ...i })))
      .returning();
  }

  async update(siteId: number, type: SiteModuleType, id: number, name: string, settings: Record<string, unknown>) {
    const [row] = await this.db
      .update(siteModules)
      .set({ name, settings, updatedAt: new Date() })
      .where(and(eq(siteModules.siteId, siteId), eq(siteModules.type, type), eq(siteModules.id, id)))
      .returning();
    return row;
  }

  async deleteMany(siteId: number, type: SiteModuleType, ids: number[]): Promise<number> {
    const rows = await this.db
      .delete(siteModules)
      .where(and(eq(siteModules.siteId, siteId), eq(siteModules.type, type), inArray(siteModules.id, ids)))
      .returning({ id: siteModules.id });
    return rows.length;
  }

  /** The site's domains bound to any of `moduleIds`: module id and domain id and name. */
  boundDomains(siteId: number, moduleIds: number[]) {
    if (moduleIds.length === 0) return Promise.resolve([]);
    return this.db
      .select({ moduleId: domainModules.moduleId, domainId: domains.id, name: domains.name })
      .from(domainModules)
      .innerJoin(domains, eq(domains.id, domainModules.domainId))
      .where(and(eq(domains.siteId, siteId), inArray(domainModules.moduleId, moduleIds)))
      .orderBy(asc(domains.name));
  }

  /** Rule count per module. */
  async ruleCounts(moduleIds: number[]): Promise<Map<number, number>> {
    if (moduleIds.length === 0) return new Map();
    const rows = await this.db
      .select({ moduleId: siteModuleRules.moduleId, n: count() })
      .from(siteModuleRules)
      .where(inArray(siteModuleRules.moduleId, moduleIds))
      .groupBy(siteModuleRules.moduleId);
    return new Map(rows.map((r) => [r.moduleId, r.n]));
  }

  async countRules(where: { siteId: number; type: RuleType } | { moduleId: number }): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(siteModuleRules)
      .where(
        'moduleId' in where
          ? eq(siteModuleRules.moduleId, where.moduleId)
          : and(eq(siteModuleRules.siteId, where.siteId), eq(siteModuleRules.type, where.type)),
      );
    return row?.n ?? 0;
  }

  /** A module's rules, in id order, or by `sort` (priority: the rule's `priority`, ties by age). */
  async listRules(
    moduleId: number,
    page: number,
    pageSize: number,
    sort?: { by: 'priority' | 'createdAt'; order: 'asc' | 'desc' },
  ) {
    const where = eq(siteModuleRules.moduleId, moduleId);
    const direction = sort?.order === 'desc' ? desc : asc;
    const order: SQL[] =
      sort?.by === 'priority'
        ? [direction(sql`(${siteModuleRules.rule}->>'priority')::int`), asc(siteModuleRules.id)]
        : [direction(siteModuleRules.id)];
    return readPage(
      this.db
        .select()
        .from(siteModuleRules)
        .where(where)
        .orderBy(...order),
      this.db.select({ n: count() }).from(siteModuleRules).where(where),
      { page, pageSize },
    );
  }

  insertRules(siteId: number, type: RuleType, moduleId: number, rules: Record<string, unknown>[]) {
    return this.db
      .insert(siteModuleRules)
      .values(rules.map((rule) => ({ siteId, type, moduleId, rule })))
      .returning();
  }

  async updateRule(moduleId: number, id: number, rule: Record<string, unknown>) {
    const [row] = await this.db
      .update(siteModuleRules)
      .set({ rule, updatedAt: new Date() })
      .where(and(eq(siteModuleRules.moduleId, moduleId), eq(siteModuleRules.id, id)))
      .returning();
    return row;
  }

  /** Sets the `enabled` of rules of a module; answers the ids it changed. */
  async setRulesEnabled(moduleId: number, ids: number[], enabled: boolean): Promise<number[]> {
    const rows = await this.db
      .update(siteModuleRules)
      .set({
        rule: sql`jsonb_set(${siteModuleRules.rule}, '{enabled}', ${enabled ? sql`'true'::jsonb` : sql`'false'::jsonb`})`,
        updatedAt: new Date(),
      })
      .where(and(eq(siteModuleRules.moduleId, moduleId), inArray(siteModuleRules.id, ids)))
      .returning({ id: siteModuleRules.id });
    return rows.map((r) => r.id);
  }

  async deleteRules(moduleId: number, ids: number[]): Promise<number> {
    const rows = await this.db
      .delete(siteModuleRules)
      .where(and(eq(siteModuleRules.moduleId, moduleId), inArray(siteModuleRules.id, ids)))
      .returning({ id: siteModuleRules.id });
    return rows.length;
  }

  async domainIdsInSite(siteId: number, ids: number[]): Promise<number[]> {
    const rows = await this.db
      .select({ id: domains.id })
      .from(domains)
      .where(and(eq(domains.siteId, siteId), inArray(domains.id, ids)));
    return rows.map((r) => r.id);
  }

  async unbind(type: SiteModuleType, domainIds: number[]): Promise<void> {
    await this.db
      .delete(domainModules)
      .where(and(eq(domainModules.type, type), inArray(domainModules.domainId, domainIds)));
  }

  async bind(type: SiteModuleType, domainIds: number[], moduleId: number): Promise<void> {
    await this.db
      .insert(domainModules)
      .values(domainIds.map((domainId) => ({ domainId, type, moduleId })))
      .onConflictDoUpdate({ target: [domainModules.domainId, domainModules.type], set: { moduleId } });
  }

  // The edge's view of many domains at once (site-modules.edge.ts).

  /** The module bindings of the given domains. */
  bindingsOfDomains(domainIds: number[]) {
    if (domainIds.length === 0) return Promise.resolve([]);
    return this.db
      .select({ domainId: domainModules.domainId, type: domainModules.type, moduleId: domainModules.moduleId })
      .from(domainModules)
      .where(inArray(domainModules.domainId, domainIds));
  }

  /** Modules by id (of any site: the ids come from bindings), in id order. */
  modulesByIds(ids: number[]): Promise<ModuleRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.select().from(siteModules).where(inArray(siteModules.id, ids)).orderBy(asc(siteModules.id));
  }

  /** The rules of the modules, in id order. */
  rulesOfModules(moduleIds: number[]) {
    if (moduleIds.length === 0) return Promise.resolve([]);
    return this.db
      .select({ id: siteModuleRules.id, moduleId: siteModuleRules.moduleId, rule: siteModuleRules.rule })
      .from(siteModuleRules)
      .where(inArray(siteModuleRules.moduleId, moduleIds))
      .orderBy(asc(siteModuleRules.id));
  }
}

/** Bound module id and name per domain and type, for the domain list. */
export async function moduleBindingsOf(db: Db, domainIds: number[]) {
  if (domainIds.length === 0) return [];
  return db
    .select({
      domainId: domainModules.domainId,
      type: domainModules.type,
      moduleId: domainModules.moduleId,
      name: siteModules.name,
    })
    .from(domainModules)
    .innerJoin(siteModules, eq(siteModules.id, domainModules.moduleId))
    .where(inArray(domainModules.domainId, domainIds));
}
