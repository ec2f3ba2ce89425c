import { type Locale, namedPermissionGroups, type PermissionGroup, type Role } from '@rampart/contract';
import type { RoleRow } from './roles.repository.js';

/** A role as the API shows it, with the number of sub-accounts holding it. */
export function presentRole(row: { role: RoleRow; accounts: number }): Role {
  return {
    id: row.role.id,
    name: row.role.name,
    remark: row.role.remark,
    permissions: [...row.role.permissions].sort(),
    accounts: row.accounts,
    createdAt: row.role.createdAt.toISOString(),
    updatedAt: row.role.updatedAt.toISOString(),
  };
}

/** Key groups named in one language: the names are data shown to the caller, so they follow its request. */
export function presentMetaRoles(groups: readonly PermissionGroup[], locale: Locale) {
  const data = namedPermissionGroups(groups, locale);
  return { data, total: data.length };
}
