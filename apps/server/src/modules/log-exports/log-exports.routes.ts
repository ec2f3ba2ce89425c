import { clientLogExportRoutes as c, logExportRoutes as u } from '@rampart/contract';
import { sendAttachment } from '../../platform/http/attachment.js';
import type { Binder } from '../../platform/http/bind-route.js';
import type { LogExportsService } from './log-exports.service.js';

/**
 * Log export files of the access and WAF logs: the customer's (user/log/export*) and the
 * operator's (client/log/export*). Each call acts on the caller's own exports; what an export
 * covers is resolved from its account when the job writes it (log-exports.job.ts).
 */
export function bindLogExportRoutes(binder: Binder, exports: LogExportsService): void {
  const sets = [
    [u.createLogExport, u.listLogExports, u.getLogExport, u.downloadLogExport, u.deleteLogExports, u.retryLogExports],
    [
      c.clientCreateLogExport,
      c.clientListLogExports,
      c.clientGetLogExport,
      c.clientDownloadLogExport,
      c.clientDeleteLogExports,
      c.clientRetryLogExports,
    ],
  ] as const;
  for (const [create, list, get, download, remove, retry] of sets) {
    binder.bind(create, async ({ body }, { caller }) => ({
      data: await exports.create(caller, body),
    }));
    binder.bind(list, async ({ query }, { caller }) => exports.list(caller.accountId, query));
    binder.bind(get, async ({ params }, { caller }) => ({ data: await exports.get(caller.accountId, params.id) }));
    binder.bind(download, async ({ params }, { caller, reply }) => {
      const file = await exports.download(caller.accountId, params.id);
      sendAttachment(reply, { fileName: file.fileName, type: file.contentType, body: file.stream, bytes: file.bytes });
      return '';
    });
    binder.bind(remove, async ({ body }, { caller }) => {
      await exports.delete(caller.accountId, body.ids);
      return { data: true as const };
    });
    binder.bind(retry, async ({ body }, { caller }) => ({ data: await exports.retry(caller.accountId, body.ids) }));
  }
}
