import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DbBackupFiles } from '../modules/db-backups/db-backup-files.js';
import { bindDbBackupRoutes } from '../modules/db-backups/db-backups.routes.js';
import { DbBackupsService } from '../modules/db-backups/db-backups.service.js';
import { type Database, migrationsFolder } from '../platform/db/database.js';
import type { Binder } from '../platform/http/bind-route.js';
import type { AppContext } from './context.js';

/** How often the backup schedule is looked at unless the config says otherwise. */
export const DB_BACKUP_TICK_MS = 60_000;

/** The migrations this control plane knows: a backup holding more is from a newer version. */
function knownMigrations(): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/** Config store backups (docs/decisions.md "Config store backups"): the calls and the schedule. */
export function composeDbBackups(ctx: AppContext, binder: Binder, database: Database): DbBackupsService {
  const { app } = ctx;
  const files = new DbBackupFiles(ctx.config.dataDir);
  const backups = new DbBackupsService({
    database,
    files,
    clock: ctx.clock,
    version: ctx.config.version,
    knownMigrations: knownMigrations(),
    installationOperator: async () => (await ctx.repos.accounts.findRoot('client'))?.id,
    afterRestore: async () => {
      await ctx.system.ensureInstance();
      ctx.changes.bump();
    },
    log: (error, message) => app.log.error({ err: error }, message),
  });
  bindDbBackupRoutes(binder, backups);
  const tickMs = ctx.config.dbBackupTickMs ?? DB_BACKUP_TICK_MS;
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    await backups.recover();
    if (tickMs > 0) {
      timer = setInterval(() => {
        backups.tick().catch((error: unknown) => app.log.error({ err: error }, 'backup schedule failed'));
      }, tickMs);
      timer.unref();
    }
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await backups.whenIdle();
    await files.dispose();
  });
  return backups;
}
