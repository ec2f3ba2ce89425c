import { roleRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import { requestLocale } from '../../platform/http/request-locale.js';
import { presentMetaRoles } from './roles.presenter.js';
import type { RolesService } from './roles.service.js';

export function bindRoleRoutes(binder: Binder, roles: RolesService): void {
  const r = roleRoutes;
  binder.bind(r.listRoles, async ({ query }, { caller }) => roles.list(caller, query));
  // The key groups are named in the request's language (data, not an error message).
  binder.bind(r.metaRoles, async (_input, { caller, request }) =>
    presentMetaRoles(roles.meta(caller), requestLocale(request)),
  );
  binder.bind(r.createRole, async ({ body }, { caller }) => ({ data: await roles.create(caller, body) }));
  binder.bind(r.updateRole, async ({ params, body }, { caller }) => ({
    data: await roles.update(caller, params.roleId, body),
  }));
  binder.bind(r.deleteRole, async ({ params }, { caller }) => {
    await roles.delete(caller, params.roleId);
  });
  binder.bind(r.assignRole, async ({ body }, { caller }) => {
    await roles.assign(caller, body.accountId, body.roleId);
  });
}
