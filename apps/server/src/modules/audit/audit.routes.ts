import { auditRoutes } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { RefreshCookie } from '../auth/refresh-cookie.js';
import type { AuditService } from './audit.service.js';
import type { SwitchUserService } from './switch-user.service.js';

export function bindAuditRoutes(
  binder: Binder,
  audit: AuditService,
  switchUser: SwitchUserService,
  cookie: RefreshCookie,
): void {
  binder.bind(auditRoutes.listAuditLogs, async ({ query }, { caller }) => audit.list(caller, query));
  binder.bind(auditRoutes.searchAuditLogs, async ({ body }, { caller }) => audit.list(caller, body));
  // The target console's refresh cookie is set here; the console opens it with the access token only.
  binder.bind(auditRoutes.switchUser, async ({ body }, { caller, request, reply }) => {
    const switched = await switchUser.switchTo(caller, body.id, {
      ip: request.ip,
      userAgent: String(request.headers['user-agent'] ?? ''),
    });
    cookie.set(reply, switched.auth, switched.refreshToken);
    return { data: switched };
  });
}
