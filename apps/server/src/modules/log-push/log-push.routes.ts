import { logPushRoutes as r } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { LogPushService } from './log-push.service.js';

/** Log push events and their delivery log, the customer's (user/logPush/*) and the operator's (client/logPush/*). */
export function bindLogPushRoutes(binder: Binder, push: LogPushService): void {
  for (const side of [
    { list: r.userListLogPushEvents, create: r.userCreateLogPushEvent, update: r.userUpdateLogPushEvent },
    { list: r.clientListLogPushEvents, create: r.clientCreateLogPushEvent, update: r.clientUpdateLogPushEvent },
  ] as const) {
    binder.bind(side.list, async ({ query }, { caller }) => push.list(caller, query));
    binder.bind(side.create, async ({ body }, { caller }) => ({ data: await push.create(caller, body) }));
    binder.bind(side.update, async ({ body }, { caller }) => ({ data: await push.update(caller, body) }));
  }
  for (const route of [r.userDeleteLogPushEvents, r.clientDeleteLogPushEvents] as const) {
    binder.bind(route, async ({ body }, { caller }) => {
      await push.delete(caller, body.ids);
      return { data: true as const };
    });
  }
  for (const route of [r.userManualLogPush, r.clientManualLogPush] as const) {
    binder.bind(route, async ({ body }, { caller }) => {
      await push.manual(caller, body);
      return { data: true as const };
    });
  }
  for (const route of [r.userTestLogPush, r.clientTestLogPush] as const) {
    binder.bind(route, async ({ body }, { caller }) => ({ data: await push.test(caller, body.id) }));
  }
  binder.bind(r.userLogPushLogs, async ({ query }, { caller }) => push.logs(caller, query));
  binder.bind(r.clientLogPushLogs, async ({ query }, { caller }) => push.logs(caller, query));
}
