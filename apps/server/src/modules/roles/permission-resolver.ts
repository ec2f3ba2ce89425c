import { SELF_PERMISSION, tierPermissions } from '@rampart/contract';
import type { AccountRow } from '../../platform/db/schema.js';
import type { RolesRepository } from './roles.repository.js';

/** Longest chain of sub-accounts followed (a sub-account of a sub-account of ...). */
const MAX_DEPTH = 8;

/**
 * The permission keys an account holds. The top of a tier (a root, or an account whose parent
 * is of another tier or absent) holds every key of its tier; a sub-account holds the keys of its
 * role that its parent holds too — so it can never hold a key its parent lacks, even after the
 * parent's own role shrinks. Every account holds {@link SELF_PERMISSION}.
 */
export class PermissionResolver {
  constructor(private readonly roles: RolesRepository) {}

  async keysOf(account: Pick<AccountRow, 'id' | 'tier' | 'parentId' | 'isRoot'>): Promise<Set<string>> {
    return this.resolve(account, 0);
  }

  private async resolve(
    account: Pick<AccountRow, 'id' | 'tier' | 'parentId' | 'isRoot'>,
    depth: number,
  ): Promise<Set<string>> {
    if (account.isRoot || account.parentId === null) return new Set(tierPermissions(account.tier));
    const parent = await this.roles.permissionNode(account.parentId);
    if (!parent || parent.tier !== account.tier) return new Set(tierPermissions(account.tier));
    const own = new Set([SELF_PERMISSION]);
    if (depth >= MAX_DEPTH) return own;
    const keys = await this.roles.roleKeysOf(account.id);
    if (!keys) return own;
    const parentKeys = await this.resolve(parent, depth + 1);
    for (const key of keys) if (parentKeys.has(key)) own.add(key);
    return own;
  }
}
