import { and, asc, count, desc, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { siteL4Rules, sitePorts } from '../../platform/db/schema.js';

export type L4RuleKind = (typeof siteL4Rules.$inferSelect)['kind'];
/** A rule with its port's number and protocol (what every reply shows). */
export type L4RuleRow = typeof siteL4Rules.$inferSelect & { port: number; protocol: string };
/** What a kind stores: the port, its fields (`rule`) and the memo. */
export interface L4RuleValues {
  portId: number;
  rule: Record<string, unknown>;
  memo: string;
}

const columns = {
  id: siteL4Rules.id,
  siteId: siteL4Rules.siteId,
  portId: siteL4Rules.portId,
  kind: siteL4Rules.kind,
  rule: siteL4Rules.rule,
  memo: siteL4Rules.memo,
  createdAt: siteL4Rules.createdAt,
  updatedAt: siteL4Rules.updatedAt,
  port: sitePorts.port,
  protocol: sitePorts.protocol,
};

/** The SQL of the site firewall's layer-4 rules; every method is scoped by the site its caller was allowed. */
export class FirewallL4Repository {
  constructor(private readonly db: Db) {}

  private select() {
    return this.db.select(columns).from(siteL4Rules).innerJoin(sitePorts, eq(sitePorts.id, siteL4Rules.portId));
  }

  /** One page of a kind's rules, newest first, and how many there are. */
  async page(
    siteId: number,
    kind: L4RuleKind,
    page: number,
    pageSize: number,
  ): Promise<{ rows: L4RuleRow[]; total: number }> {
    const where = and(eq(siteL4Rules.siteId, siteId), eq(siteL4Rules.kind, kind));
    const [rows, [counted]] = await Promise.all([
      this.select()
        .where(where)
        .orderBy(desc(siteL4Rules.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      this.db.select({ n: count() }).from(siteL4Rules).where(where),
    ]);
    return { rows, total: counted?.n ?? 0 };
  }

  async count(siteId: number, kind: L4RuleKind): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(siteL4Rules)
      .where(and(eq(siteL4Rules.siteId, siteId), eq(siteL4Rules.kind, kind)));
    return row?.n ?? 0;
  }

  /** The rules of the given kinds on the given ports, but the rule `exceptId` (the one being replaced). */
  onPorts(portIds: number[], kinds: L4RuleKind[], exceptId = 0): Promise<L4RuleRow[]> {
    if (portIds.length === 0) return Promise.resolve([]);
    return this.select()
      .where(and(inArray(siteL4Rules.portId, portIds), inArray(siteL4Rules.kind, kinds), ne(siteL4Rules.id, exceptId)))
      .orderBy(asc(siteL4Rules.id));
  }

  async insert(siteId: number, kind: L4RuleKind, rules: L4RuleValues[]): Promise<L4RuleRow[]> {
    const ids = await this.db
      .insert(siteL4Rules)
      .values(rules.map((values) => ({ siteId, kind, ...values })))
      .returning({ id: siteL4Rules.id });
    return this.byIds(ids.map((r) => r.id));
  }

  async update(siteId: number, kind: L4RuleKind, id: number, values: L4RuleValues): Promise<L4RuleRow | undefined> {
    const rows = await this.db
      .update(siteL4Rules)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(siteL4Rules.id, id), eq(siteL4Rules.siteId, siteId), eq(siteL4Rules.kind, kind)))
      .returning({ id: siteL4Rules.id });
    if (rows.length === 0) return undefined;
    return (await this.byIds([id]))[0];
  }

  /** The ids among `ids` of the site's rules of `kind` that were deleted. */
  async delete(siteId: number, kind: L4RuleKind, ids: number[]): Promise<number[]> {
    const rows = await this.db
      .delete(siteL4Rules)
      .where(and(eq(siteL4Rules.siteId, siteId), eq(siteL4Rules.kind, kind), inArray(siteL4Rules.id, ids)))
      .returning({ id: siteL4Rules.id });
    return rows.map((r) => r.id);
  }

  /** Every rule on the given ports, oldest first (the node's document, firewall-l4.edge.ts). */
  rulesOfPorts(portIds: number[]): Promise<L4RuleRow[]> {
    if (portIds.length === 0) return Promise.resolve([]);
    return this.select().where(inArray(siteL4Rules.portId, portIds)).orderBy(asc(siteL4Rules.id));
  }

  private byIds(ids: number[]): Promise<L4RuleRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.select().where(inArray(siteL4Rules.id, ids)).orderBy(asc(siteL4Rules.id));
  }
}
