import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zIdParam } from '../validators/ids.js';

/**
 * Backups of the config store (spec part 1 §2 "DB backup" among the system settings; part 2 §7
 * `DBBackup`, methods not shown; docs/decisions.md "Config store backups"). A backup holds every
 * tenant's rows and the sealed secrets, so only the installation's operator (the first operator,
 * and its sub-accounts holding `client.settings.read` / `.write`, as for the log setting) reaches
 * these calls; another operator is answered 101018.
 *
 * PostgreSQL: a plain `pg_dump` of the database, gzip; restored by psql in one transaction.
 * PGlite: its data directory as a gzip tarball; a restore is checked, staged, and applied when
 * the control plane next starts.
 */

export const DB_BACKUP_STATUSES = ['running', 'done', 'failed'] as const;
export type DbBackupStatus = (typeof DB_BACKUP_STATUSES)[number];
export const DB_BACKUP_KINDS = ['postgres', 'pglite'] as const;
export const DB_BACKUP_TRIGGERS = ['manual', 'scheduled'] as const;

/** Backups kept by the schedule: at least one, at most this many. */
export const DB_BACKUP_KEEP_MAX = 100;
/** Hours between scheduled backups. */
export const DB_BACKUP_INTERVAL_HOURS_MAX = 24 * 30;

export const dbBackupSettingSchema = z.object({
  /** Whether backups are made on the schedule. */
  enabled: z.boolean(),
  /** Hours between two scheduled backups (1–720). */
  intervalHours: z.number().int().min(1).max(DB_BACKUP_INTERVAL_HOURS_MAX),
  /** Done backups kept: older ones are deleted after each backup (1–100). */
  keep: z.number().int().min(1).max(DB_BACKUP_KEEP_MAX),
});
export type DbBackupSetting = z.infer<typeof dbBackupSettingSchema>;

export const DB_BACKUP_SETTING_DEFAULT: DbBackupSetting = { enabled: false, intervalHours: 24, keep: 7 };

export const dbBackupSchema = z.object({
  /** The backup's id: the millisecond it started (unique, one backup runs at a time). */
  id: z.number().int(),
  status: z.enum(DB_BACKUP_STATUSES),
  /** Which store it is of: a backup restores only into the same kind. */
  kind: z.enum(DB_BACKUP_KINDS),
  trigger: z.enum(DB_BACKUP_TRIGGERS),
  /** Bytes written so far (the file's size once done). */
  bytes: z.number().int(),
  /** The name the download carries. */
  fileName: z.string(),
  /** The control plane's version and the migrations the store had when it was made. */
  version: z.string(),
  migrations: z.number().int(),
  /** SHA-256 of the file, hex, once done; checked before a restore. */
  sha256: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type DbBackup = z.infer<typeof dbBackupSchema>;

/** What the page shows beside the list: a running backup and a restore waiting for the next start. */
export const dbBackupStateSchema = z.object({
  setting: dbBackupSettingSchema,
  kind: z.enum(DB_BACKUP_KINDS),
  /** The backup being made now, if any. */
  running: dbBackupSchema.nullable(),
  /** PGlite: the backup staged to be restored at the next start, if any. */
  pendingRestore: z.number().int().nullable(),
  /** When the next scheduled backup is due (null when the schedule is off). */
  nextAt: z.string().nullable(),
});
export type DbBackupState = z.infer<typeof dbBackupStateSchema>;

const access = {
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
};
const idParams = z.object({ id: zIdParam });

const route = routeFamily({ tags: ['system'], read: access.read, write: access.write });

export const getDbBackupSetting = route.get('client.setting.dbBackup.get', '/client/setting/DBBackup', {
  summary: 'The backup schedule, the backup running now and a restore staged for the next start',
  response: dataOf(dbBackupStateSchema),
});

export const putDbBackupSetting = route.put('client.setting.dbBackup.update', '/client/setting/DBBackup', {
  summary: 'Sets the backup schedule: on or off, hours between backups, backups kept',
  body: dbBackupSettingSchema,
  response: dataOf(dbBackupSettingSchema),
});

export const listDbBackups = route.get('client.dbBackups.list', '/client/setting/DBBackup/backups', {
  summary: 'The backups, newest first, paged',
  query: pageQuery,
  response: pageOf(dbBackupSchema),
});

export const createDbBackup = route.post('client.dbBackups.create', '/client/setting/DBBackup/backup', {
  summary: 'Starts a backup now and answers it running; 101003 (backupRunning) while another backup or a restore runs',
  response: dataOf(dbBackupSchema),
});

export const downloadDbBackup = route.get('client.dbBackups.download', '/client/setting/DBBackup/backup/{id}/file', {
  summary: "A done backup's file (application/gzip), its name in Content-Disposition; 101003 (backupNotReady) before",
  params: idParams,
  response: z.string(),
  reply: 'raw',
});

export const deleteDbBackup = route.delete('client.dbBackups.delete', '/client/setting/DBBackup/backup/{id}', {
  summary: 'Deletes a backup (not the one running: 101003 backupRunning)',
  params: idParams,
  response: okReply,
});

export const restoreDbBackup = route.post('client.dbBackups.restore', '/client/setting/DBBackup/backup/{id}/restore', {
  summary:
    'Restores a done backup: PostgreSQL at once, in one transaction; PGlite checked and staged, applied at the next start (`staged: true`). 101003 on id: backupNotReady, backupCorrupt (its file does not match or does not load: nothing changed), backupOtherStore, backupNewer',
  params: idParams,
  response: dataOf(z.object({ staged: z.boolean() })),
});

export const dbBackupRoutes = {
  getDbBackupSetting,
  putDbBackupSetting,
  listDbBackups,
  createDbBackup,
  downloadDbBackup,
  deleteDbBackup,
  restoreDbBackup,
} as const;
