import type { Role } from '@rampart/contract';
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
