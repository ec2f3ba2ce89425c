import {
  assignablePermissions,
  PERMISSION_GROUPS,
  type PermissionGroup,
  type Role,
  type RoleIn,
} from '@rampart/contract';
import { onUniqueViolation } from '../../platform/db/errors.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { Caller } from '../../platform/http/bind-route.js';
import { invalidFields } from '../../platform/http/validation.js';
import { presentRole } from './roles.presenter.js';
import type { RolesRepository } from './roles.repository.js';

/**
 * Keys a caller may put in a role or an API token: keys of its tier (101003 `permissions`
 * otherwise) that it holds itself (101018 otherwise) — nobody hands out a key it lacks.
 */
export function checkGrantable(caller: Caller, keys: readonly string[]): void {
  const tierKeys = assignablePermissions(caller.tier);
  if (keys.some((key) => !tierKeys.has(key))) {
    throw invalidFields([{ field: 'permissions', key: 'invalidValue' }]);
  }
  if (keys.some((key) => !caller.permissions.has(key))) throw new AppError(101018);
}

/** Roles of the caller (spec part 1 §6): named sets of keys given to its sub-accounts. */
export class RolesService {
  constructor(private readonly roles: RolesRepository) {}

  async list(caller: Caller, query: { name?: string | undefined; page: number; pageSize: number }) {
    const { rows, total } = await this.roles.list(caller.accountId, query.name, query.page, query.pageSize);
    return { data: rows.map(presentRole), total };
  }

  /** The keys of the caller's tier it holds, grouped as its console's menus (named by the presenter). */
  meta(caller: Caller): PermissionGroup[] {
    return PERMISSION_GROUPS[caller.tier]
      .map((group) => ({ ...group, keys: group.keys.filter((k) => caller.permissions.has(k.key)) }))
      .filter((group) => group.keys.length > 0);
  }

  async create(caller: Caller, body: RoleIn) {
    checkGrantable(caller, body.permissions);
    return onUniqueViolation(101025, async () => {
      const id = await this.roles.insert({
        ownerId: caller.accountId,
        name: body.name.trim(),
        remark: body.remark,
        permissions: body.permissions,
      });
      return this.get(caller, id);
    });
  }

  async update(caller: Caller, id: number, body: RoleIn) {
    if (!(await this.roles.find(caller.accountId, id))) throw new AppError(101018);
    checkGrantable(caller, body.permissions);
    await onUniqueViolation(101025, async () => {
      await this.roles.update(caller.accountId, id, { ...body, name: body.name.trim() });
    });
    return this.get(caller, id);
  }

  async delete(caller: Caller, id: number): Promise<void> {
    if (!(await this.roles.delete(caller.accountId, id))) throw new AppError(101018);
  }

  /** Gives a role of the caller's to a sub-account of the caller's; another's account or role is 101018. */
  async assign(caller: Caller, accountId: number, roleId: number | null): Promise<void> {
    if (!(await this.roles.findSubAccount(caller.accountId, caller.tier, accountId))) throw new AppError(101018);
    if (roleId !== null) {
      const role = await this.roles.find(caller.accountId, roleId);
      if (!role) throw new AppError(101018);
      // The caller's own keys may have shrunk since the role was written.
      if (role.role.permissions.some((key) => !caller.permissions.has(key))) throw new AppError(101018);
    }
    await this.roles.assign(accountId, roleId);
  }

  private async get(caller: Caller, id: number): Promise<Role> {
    const row = await this.roles.find(caller.accountId, id);
    if (!row) throw new AppError(101018);
    return presentRole(row);
  }
}
