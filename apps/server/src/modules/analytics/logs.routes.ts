import { logRoutes as l } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { LogsService } from './logs.service.js';

/** Access and WAF log search for customers (user/logs/*) and operators (client/logs/*). */
export function bindLogRoutes(binder: Binder, logs: LogsService): void {
  for (const route of [l.userAccessLogs, l.clientAccessLogs] as const) {
    binder.bind(route, async ({ body }, { caller }) => logs.search(caller, 'access', body));
  }
  for (const route of [l.userWafLogs, l.clientWafLogs] as const) {
    binder.bind(route, async ({ body }, { caller }) => logs.search(caller, 'waf', body));
  }
}
