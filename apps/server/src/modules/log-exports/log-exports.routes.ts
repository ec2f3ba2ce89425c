import { logExportRoutes as r } from '@rampart/contract';
import type { Binder } from '../../platform/http/bind-route.js';
import type { LogExportsService } from './log-exports.service.js';

/** Log export files of the customer's access and WAF logs (user/log/export*). */
export function bindLogExportRoutes(binder: Binder, exports: LogExportsService): void {
  binder.bind(r.createLogExport, async ({ body }, { caller }) => ({
    data: await exports.create(
      { accountId: caller.accountId, maxLogExportTimes: caller.account.maxLogExportTimes },
      body,
    ),
  }));
  binder.bind(r.listLogExports, async ({ query }, { caller }) => exports.list(caller.accountId, query));
  binder.bind(r.getLogExport, async ({ params }, { caller }) => ({
    data: await exports.get(caller.accountId, params.id),
  }));
  binder.bind(r.downloadLogExport, async ({ params }, { caller, reply }) => {
    const file = await exports.download(caller.accountId, params.id);
    reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('access-control-expose-headers', 'Content-Disposition')
      .header('content-length', String(file.bytes))
      .type(file.contentType)
      .send(file.stream);
    return '';
  });
  binder.bind(r.deleteLogExports, async ({ body }, { caller }) => {
    await exports.delete(caller.accountId, body.ids);
    return { data: true as const };
  });
  binder.bind(r.retryLogExports, async ({ body }, { caller }) => ({
    data: await exports.retry(caller.accountId, body.ids),
  }));
}
