import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, defineRoute, okReply, pageOf, tiers } from '../route.js';
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

export const getDbBackupSetting = defineRoute({
  id: 'client.setting.dbBackup.get',
  method: 'GET',
  path: '/client/setting/DBBackup',
  access: access.read,
  codes: [],
  summary: 'The backup schedule, the backup running now and a restore staged for the next start',
  tags: ['system'],
  request: {},
  response: dataOf(dbBackupStateSchema),
});

export const putDbBackupSetting = defineRoute({
  id: 'client.setting.dbBackup.update',
  method: 'PUT',
  path: '/client/setting/DBBackup',
  access: access.write,
  codes: [],
  summary: 'Sets the backup schedule: on or off, hours between backups, backups kept',
  tags: ['system'],
  request: { body: dbBackupSettingSchema },
  response: dataOf(dbBackupSettingSchema),
});

export const listDbBackups = defineRoute({
  id: 'client.dbBackups.list',
  method: 'GET',
  path: '/client/setting/DBBackup/backups',
  access: access.read,
  codes: [],
  summary: 'The backups, newest first, paged',
  tags: ['system'],
  request: { query: pageQuery },
  response: pageOf(dbBackupSchema),
});

export const createDbBackup = defineRoute({
  id: 'client.dbBackups.create',
  method: 'POST',
  path: '/client/setting/DBBackup/backup',
  access: access.write,
  codes: [],
  summary: 'Starts a backup now and answers it running; 101003 (backupRunning) while another backup or a restore runs',
  tags: ['system'],
  request: {},
  response: dataOf(dbBackupSchema),
});

export const downloadDbBackup = defineRoute({
  id: 'client.dbBackups.download',
  method: 'GET',
  path: '/client/setting/DBBackup/backup/{id}/file',
  access: access.read,
  codes: [],
  summary: "A done backup's file (application/gzip), its name in Content-Disposition; 101003 (backupNotReady) before",
  tags: ['system'],
  request: { params: idParams },
  response: z.string(),
  reply: 'raw',
});

export const deleteDbBackup = defineRoute({
  id: 'client.dbBackups.delete',
  method: 'DELETE',
  path: '/client/setting/DBBackup/backup/{id}',
  access: access.write,
  codes: [],
  summary: 'Deletes a backup (not the one running: 101003 backupRunning)',
  tags: ['system'],
  request: { params: idParams },
  response: okReply,
});

export const restoreDbBackup = defineRoute({
  id: 'client.dbBackups.restore',
  method: 'POST',
  path: '/client/setting/DBBackup/backup/{id}/restore',
  access: access.write,
  codes: [],
  summary:
    'Restores a done backup: PostgreSQL at once, in one transaction; PGlite checked and staged, applied at the next start (`staged: true`). 101003 on id: backupNotReady, backupCorrupt (its file does not match or does not load: nothing changed), backupOtherStore, backupNewer',
  tags: ['system'],
  request: { params: idParams },
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
