import { and, count, desc, eq, ilike, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { readPage } from '../../platform/db/paging.js';
import { accountRoles, accounts, roles } from '../../platform/db/schema.js';

export type RoleRow = typeof roles.$inferSelect;

/** Roles of one owner and their assignment to the owner's sub-accounts. Every query names the owner. */
export class RolesRepository {
  constructor(private readonly db: Db) {}

  private holders() {
    return sql<number>`(SELECT count(*) FROM ${accountRoles} WHERE ${accountRoles.roleId} = ${roles.id})`.mapWith(
      Number,
    );
  }

  async list(ownerId: number, name: string | undefined, page: number, pageSize: number) {
    const where = and(eq(roles.ownerId, ownerId), name ? ilike(roles.name, containsPattern(name)) : undefined);
    return readPage(
      this.db
        .select({ role: roles, accounts: this.holders() })
        .from(roles)
        .where(where)
        .orderBy(desc(roles.createdAt), desc(roles.id)),
      this.db.select({ n: count() }).from(roles).where(where),
      { page, pageSize },
    );
  }

  async find(ownerId: number, id: number) {
    const [row] = await this.db
      .select({ role: roles, accounts: this.holders() })
      .from(roles)
      .where(and(eq(roles.ownerId, ownerId), eq(roles.id, id)));
    return row;
  }

  async insert(row: { ownerId: number; name: string; remark: string; permissions: string[] }): Promise<number> {
    const [created] = await this.db.insert(roles).values(row).returning({ id: roles.id });
    if (!created) throw new Error('role insert returned nothing');
    return created.id;
  }

  async update(ownerId: number, id: number, set: { name: string; remark: string; permissions: string[] }) {
    const rows = await this.db
      .update(roles)
      .set({ ...set, updatedAt: sql`now()` })
      .where(and(eq(roles.ownerId, ownerId), eq(roles.id, id)))
      .returning({ id: roles.id });
    return rows.length === 1;
  }

  async delete(ownerId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(roles)
      .where(and(eq(roles.ownerId, ownerId), eq(roles.id, id)))
      .returning({ id: roles.id });
    return rows.length === 1;
  }

  /** A sub-account of `parent`: a child of the same tier. */
  async findSubAccount(parentId: number, tier: string, accountId: number) {
    const [row] = await this.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.id, accountId), eq(accounts.parentId, parentId), eq(accounts.tier, tier as 'user')));
    return row;
  }

  async assign(accountId: number, roleId: number | null): Promise<void> {
    if (roleId === null) {
      await this.db.delete(accountRoles).where(eq(accountRoles.accountId, accountId));
      return;
    }
    await this.db
      .insert(accountRoles)
      .values({ accountId, roleId })
      .onConflictDoUpdate({ target: accountRoles.accountId, set: { roleId } });
  }

  /** What permission resolution needs of an account: its tier, parent and root flag. */
  async permissionNode(accountId: number) {
    const [row] = await this.db
      .select({ id: accounts.id, tier: accounts.tier, parentId: accounts.parentId, isRoot: accounts.isRoot })
      .from(accounts)
      .where(eq(accounts.id, accountId));
    return row;
  }

  /** The keys of the role given to the account, or undefined when it has none. */
  async roleKeysOf(accountId: number): Promise<string[] | undefined> {
    const [role] = await this.db
      .select({ permissions: roles.permissions })
      .from(accountRoles)
      .innerJoin(roles, eq(roles.id, accountRoles.roleId))
      .where(eq(accountRoles.accountId, accountId));
    return role?.permissions;
  }
}
