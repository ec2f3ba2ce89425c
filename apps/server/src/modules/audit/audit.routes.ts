import { auditRoutes } from '@rampart/contract';
import { type Binder, requireCaller } from '../../platform/http/bind-route.js';
import type { AuditService } from './audit.service.js';
import type { SwitchUserService } from './switch-user.service.js';

export function bindAuditRoutes(binder: Binder, audit: AuditService, switchUser: SwitchUserService): void {
  binder.bind(auditRoutes.listAuditLogs, async ({ query }, { caller }) => audit.list(requireCaller(caller), query));
  binder.bind(auditRoutes.switchUser, async ({ body }, { caller, request }) => ({
    data: await switchUser.switchTo(requireCaller(caller), body.id, {
      ip: request.ip,
      userAgent: String(request.headers['user-agent'] ?? ''),
    }),
  }));
}
