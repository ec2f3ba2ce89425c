import { roleRoutes } from '@rampart/contract';
import { type Binder, requireCaller } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import type { RolesService } from './roles.service.js';

export function bindRoleRoutes(binder: Binder, roles: RolesService): void {
  const r = roleRoutes;
  binder.bind(r.listRoles, async ({ query }, { caller }) => roles.list(requireCaller(caller), query));
  binder.bind(r.metaRoles, async (_input, { caller, request }) =>
    roles.meta(requireCaller(caller), requestLocale(request)),
  );
  binder.bind(r.createRole, async ({ body }, { caller, request }) => ({
    data: await roles.create(requireCaller(caller), body, requestLocale(request)),
  }));
  binder.bind(r.updateRole, async ({ params, body }, { caller, request }) => ({
    data: await roles.update(requireCaller(caller), params.roleId, body, requestLocale(request)),
  }));
  binder.bind(r.deleteRole, async ({ params }, { caller }) => {
    await roles.delete(requireCaller(caller), params.roleId);
    return { data: true as const };
  });
  binder.bind(r.assignRole, async ({ body }, { caller }) => {
    await roles.assign(requireCaller(caller), body.accountId, body.roleId);
    return { data: true as const };
  });
}
