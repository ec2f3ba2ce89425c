import type { Tier } from '@rampart/contract';
import { and, asc, count, desc, eq, ilike, isNull, lt, or, sql } from 'drizzle-orm';
import { accountChain } from '../../platform/db/account-chain.js';
import type { Db } from '../../platform/db/database.js';
import { containsPattern } from '../../platform/db/like.js';
import { readPage } from '../../platform/db/paging.js';
import { rowsOf } from '../../platform/db/rows.js';
import { type AccountRow, accountRoles, accounts, roles, sites } from '../../platform/db/schema.js';

export type { AccountRow };
export type NewAccount = typeof accounts.$inferInsert;

/** Accounts: one typed query per method, no rules. */
export class AccountsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The account a login names. Names are unique per tier within one operator, so the login may
   * name the operator (`?operator=` of the login page): first the account of that name in that
   * operator's scope. Otherwise (no operator, an unknown one, or none of that name in it) the
   * account of that name without an operator (an operator itself, an admin account), else the one
   * account of that name in the tier if there is exactly one; a name several operators' accounts
   * share is no account (the login answers as for a wrong password).
   */
  async findForLogin(tier: Tier, account: string, operator?: string): Promise<AccountRow | undefined> {
    if (operator && tier !== 'admin') {
      const op = await this.operatorNamed(operator);
      if (op) {
        const [row] = await this.db
          .select()
          .from(accounts)
          .where(and(eq(accounts.tier, tier), eq(accounts.operatorId, op.id), eq(accounts.account, account)));
        if (row) return row;
      }
    }
    const rows = await this.db
      .select()
      .from(accounts)
      .where(and(eq(accounts.tier, tier), eq(accounts.account, account)))
      .orderBy(sql`${accounts.operatorId} IS NULL DESC`, asc(accounts.id))
      .limit(2);
    const [first] = rows;
    return first && (first.operatorId === null || rows.length === 1) ? first : undefined;
  }

  /** The operator of that login name: a client-tier account without an operator above it. */
  async operatorNamed(name: string): Promise<AccountRow | undefined> {
    const [row] = await this.db
      .select()
      .from(accounts)
      .where(and(eq(accounts.tier, 'client'), isNull(accounts.operatorId), eq(accounts.account, name)));
    return row;
  }

  /** Whether a client-tier account (an operator or any operator's sub-account) has that name. */
  async clientNameUsed(name: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.tier, 'client'), eq(accounts.account, name)))
      .limit(1);
    return rows.length > 0;
  }

  /**
   * The operator a new account below `parentId` belongs to (`operatorId`): the top client-tier
   * account at or above the parent; null for an operator and the admin tier.
   */
  async operatorIdFor(parentId: number | null | undefined): Promise<number | null> {
    if (parentId === null || parentId === undefined) return null;
    return (await this.operatorAbove(parentId))?.id ?? null;
  }

  async findById(id: number): Promise<AccountRow | undefined> {
    const rows = await this.db.select().from(accounts).where(eq(accounts.id, id));
    return rows[0];
  }

  async findRoot(tier: Tier): Promise<AccountRow | undefined> {
    const rows = await this.db
      .select()
      .from(accounts)
      .where(and(eq(accounts.tier, tier), eq(accounts.isRoot, true)))
      .orderBy(asc(accounts.id))
      .limit(1);
    return rows[0];
  }

  /** Inserts the account; `operatorId` follows from `parentId` unless given. */
  async insert(row: NewAccount): Promise<AccountRow> {
    const operatorId = row.operatorId !== undefined ? row.operatorId : await this.operatorIdFor(row.parentId);
    const [created] = await this.db
      .insert(accounts)
      .values({ ...row, operatorId })
      .returning();
    if (!created) throw new Error('insert returned no row');
    return created;
  }

  async update(id: number, values: Partial<Omit<NewAccount, 'id'>>): Promise<AccountRow | undefined> {
    const [row] = await this.db
      .update(accounts)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(accounts.id, id))
      .returning();
    return row;
  }

  /**
   * Records `step` as the last TOTP step used, only if it is later than the stored one. Returns
   * false for a replay (the same or an earlier step), atomically across concurrent logins.
   */
  async acceptTotpStep(id: number, step: number): Promise<boolean> {
    const rows = await this.db
      .update(accounts)
      .set({ totpLastStep: step })
      .where(and(eq(accounts.id, id), lt(accounts.totpLastStep, step)))
      .returning({ id: accounts.id });
    return rows.length === 1;
  }

  /** Whether `descendantId` sits below `ancestorId` on the owner chain (not equal to it). */
  async isDescendant(ancestorId: number, descendantId: number): Promise<boolean> {
    const result = rowsOf<unknown>(
      await this.db.execute(sql`
      ${accountChain(descendantId)}
      SELECT 1 AS hit FROM chain WHERE id = ${ancestorId} AND id <> ${descendantId} LIMIT 1
    `),
    );
    return result.length > 0;
  }

  /** The topmost account above `id` (or `id` itself) of the same tier: the operator a client sub-account acts for. */
  async topOfTier(id: number): Promise<number> {
    const result = rowsOf<{ id: number | string }>(
      await this.db.execute(sql`
      ${accountChain(id, { sameTier: true })}
      SELECT id FROM chain ORDER BY depth DESC LIMIT 1
    `),
    );
    const top = result[0];
    if (!top) throw new Error(`account ${id} not found`);
    return Number(top.id);
  }

  /**
   * The operator an account belongs to: the topmost account of tier client at or above it (itself
   * for an operator); none for admin accounts and customers outside every operator's tree.
   */
  async operatorAbove(id: number): Promise<{ id: number; account: string } | undefined> {
    const result = rowsOf<{ id: number | string; account: string }>(
      await this.db.execute(sql`
      ${accountChain(id, { extra: ['account'] })}
      SELECT id, account FROM chain WHERE tier = 'client' ORDER BY depth DESC LIMIT 1
    `),
    );
    const top = result[0];
    return top ? { id: Number(top.id), account: top.account } : undefined;
  }

  /** Whether another account of the tier and operator (`null`: none) has that e-mail. */
  async emailTaken(tier: Tier, operatorId: number | null, email: string, exceptId: number): Promise<boolean> {
    const rows = await this.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(
        and(
          eq(accounts.tier, tier),
          operatorId === null ? isNull(accounts.operatorId) : eq(accounts.operatorId, operatorId),
          sql`lower(${accounts.email}) = lower(${email})`,
          sql`${accounts.id} <> ${exceptId}`,
        ),
      );
    return rows.length > 0;
  }

  /**
   * Accounts of `tier` directly below `parentId`, with how many accounts sit directly below each;
   * paged, sorted and searched (account, name or e-mail) in SQL.
   */
  /** The role the account holds, or null. */
  async roleOf(accountId: number): Promise<{ id: number; name: string } | null> {
    const [row] = await this.db
      .select({ id: roles.id, name: roles.name })
      .from(accountRoles)
      .innerJoin(roles, eq(roles.id, accountRoles.roleId))
      .where(eq(accountRoles.accountId, accountId));
    return row ?? null;
  }

  async listChildren(q: {
    parentId: number;
    tier: Tier;
    search?: string | undefined;
    sortBy: 'createdAt' | 'account' | 'name' | 'email' | 'status';
    orderBy: 'asc' | 'desc';
    page: number;
    pageSize: number;
  }) {
    const search = q.search?.trim();
    const where = and(
      eq(accounts.parentId, q.parentId),
      eq(accounts.tier, q.tier),
      search
        ? or(
            ilike(accounts.account, containsPattern(search)),
            ilike(accounts.name, containsPattern(search)),
            ilike(accounts.email, containsPattern(search)),
          )
        : undefined,
    );
    const column = {
      createdAt: accounts.createdAt,
      account: accounts.account,
      name: accounts.name,
      email: accounts.email,
      status: accounts.status,
    }[q.sortBy];
    const direction = q.orderBy === 'asc' ? asc : desc;
    // Qualified by hand: drizzle writes a bare column name, which the sub-select would read as its own.
    const subCount = sql<number>`(SELECT count(*) FROM accounts s WHERE s.parent_id = "accounts"."id")`.mapWith(Number);
    return readPage(
      this.db
        .select({ row: accounts, subCount, role: roleOfAccount })
        .from(accounts)
        .where(where)
        .orderBy(direction(column), direction(accounts.id)),
      this.db.select({ n: count() }).from(accounts).where(where),
      q,
    );
  }

  async countChildren(id: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(accounts).where(eq(accounts.parentId, id));
    return row?.n ?? 0;
  }

  /** Sites the account holds as customer or owns as operator. */
  async countSites(id: number): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(sites)
      .where(or(eq(sites.userId, id), eq(sites.ownerId, id)));
    return row?.n ?? 0;
  }

  async delete(id: number): Promise<boolean> {
    const rows = await this.db.delete(accounts).where(eq(accounts.id, id)).returning({ id: accounts.id });
    return rows.length === 1;
  }

  /**
   * Whether an account above `id` of the same tier is paused, locked or expired: a sub-account
   * stops with the account it belongs to.
   */
  async disabledAbove(id: number): Promise<boolean> {
    const result = rowsOf<unknown>(
      await this.db.execute(sql`
      ${accountChain(id, { sameTier: true, extra: ['status'] })}
      SELECT 1 AS hit FROM chain WHERE id <> ${id} AND status <> 'normal' LIMIT 1
    `),
    );
    return result.length > 0;
  }
}

/** The role an account holds, as `{id, name}` or null (one sub-select per listed account). */
const roleOfAccount = sql<{ id: number; name: string } | null>`(SELECT json_build_object('id', r.id, 'name', r.name)
  FROM account_roles ar JOIN roles r ON r.id = ar.role_id WHERE ar.account_id = "accounts"."id")`.mapWith(
  (value: unknown) => {
    const parsed = typeof value === 'string' ? JSON.parse(value) : value;
    return parsed ? { id: Number(parsed.id), name: String(parsed.name) } : null;
  },
);
