import { dbBackupRoutes as r } from '@rampart/contract';
import { sendAttachment } from '../../platform/http/attachment.js';
import type { Binder } from '../../platform/http/bind-route.js';
import type { DbBackupsService } from './db-backups.service.js';

/** The config store's backups (client/setting/DBBackup*): the installation's operator only. */
export function bindDbBackupRoutes(binder: Binder, backups: DbBackupsService): void {
  binder.bind(r.getDbBackupSetting, async (_input, { caller }) => ({ data: await backups.state(caller.operatorId) }));
  binder.bind(r.putDbBackupSetting, async ({ body }, { caller }) => ({
    data: await backups.putSetting(caller.operatorId, body),
  }));
  binder.bind(r.listDbBackups, async ({ query }, { caller }) => backups.list(caller.operatorId, query));
  binder.bind(r.createDbBackup, async (_input, { caller }) => ({ data: await backups.create(caller.operatorId) }));
  binder.bind(r.downloadDbBackup, async ({ params }, { caller, reply }) => {
    const file = await backups.download(caller.operatorId, params.id);
    sendAttachment(reply, { fileName: file.fileName, type: 'application/gzip', body: file.stream, bytes: file.bytes });
    return '';
  });
  binder.bind(r.deleteDbBackup, async ({ params }, { caller }) => {
    await backups.delete(caller.operatorId, params.id);
    return { data: true as const };
  });
  binder.bind(r.restoreDbBackup, async ({ params }, { caller }) => ({
    data: await backups.restore(caller.operatorId, params.id),
  }));
}
