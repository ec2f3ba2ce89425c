import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { DbBackup, DbBackupSetting, DbBackupState, PageQuery } from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { pgDump, psqlRestore } from '../../platform/db/pg-tools.js';
import { checkPgliteDump, STAGED_RESTORE } from '../../platform/db/pglite-restore.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import { type BackupManifest, DbBackupFiles } from './db-backup-files.js';
import { DbBackupsRepository } from './db-backups.repository.js';

const HOUR_MS = 3_600_000;
const idField = (key: 'backupNotReady' | 'backupRunning' | 'backupCorrupt' | 'backupOtherStore' | 'backupNewer') =>
  invalidFields([{ in: 'params', field: 'id', key }]);

export interface DbBackupsDeps {
  readonly database: Database;
  readonly files: DbBackupFiles;
  readonly clock: Clock;
  /** The control plane's version, recorded in each backup. */
  readonly version: string;
  /** How many migrations this control plane has: a backup with more is from a newer version. */
  readonly knownMigrations: number;
  /** The installation's operator: the first root operator account. */
  readonly installationOperator: () => Promise<number | undefined>;
  /** After a restore replaced the store: re-read what the process keeps of it. */
  readonly afterRestore: () => Promise<void>;
  readonly log: (error: unknown, message: string) => void;
}

/**
 * Backups of the config store and their restore (contract routes/db-backups.ts; docs/decisions.md
 * "Config store backups"). One backup or restore runs at a time in a control plane; a backup runs
 * in the background and shows its bytes as it goes.
 */
export class DbBackupsService {
  private busy: 'backup' | 'restore' | null = null;
  private running: BackupManifest | null = null;
  private runningDone: Promise<void> = Promise.resolve();
  private pendingRestore: number | null = null;

  private readonly repository: DbBackupsRepository;

  constructor(private readonly deps: DbBackupsDeps) {
    this.repository = new DbBackupsRepository(deps.database);
  }

  private get kind(): DbBackup['kind'] {
    return this.deps.database.source.kind;
  }

  /**
   * Backups hold every tenant's rows and secrets: the installation's operator only (the first
   * operator, and its sub-accounts it gave the settings permission, as for the log setting).
   */
  private async checkOperator(operatorId: number): Promise<void> {
    if (operatorId !== (await this.deps.installationOperator())) {
      throw new AppError(101018, { extra: { reason: "backups are the installation's operator's" } });
    }
  }

  /** At start: backups a stopped process left running are failed, their partial files removed. */
  async recover(): Promise<void> {
    for (const entry of await this.deps.files.all()) {
      if (entry.status !== 'running') continue;
      await rm((await this.deps.files.paths(entry)).part, { force: true });
      await this.deps.files.save({ ...entry, status: 'failed', error: 'interrupted: the control plane stopped' });
    }
  }

  async state(operatorId: number): Promise<DbBackupState> {
    await this.checkOperator(operatorId);
    const setting = await this.deps.files.setting();
    return {
      setting,
      kind: this.kind,
      running: this.running ? DbBackupFiles.present(this.running) : null,
      pendingRestore: this.pendingRestore,
      nextAt: setting.enabled ? new Date(await this.nextDue(setting)).toISOString() : null,
    };
  }

  async putSetting(operatorId: number, setting: DbBackupSetting): Promise<DbBackupSetting> {
    await this.checkOperator(operatorId);
    const value = { enabled: setting.enabled, intervalHours: setting.intervalHours, keep: setting.keep };
    await this.deps.files.putSetting(value);
    await this.prune(value.keep);
    return value;
  }

  async list(operatorId: number, query: PageQuery): Promise<{ data: DbBackup[]; total: number }> {
    await this.checkOperator(operatorId);
    const all = await this.deps.files.all();
    const start = (query.page - 1) * query.pageSize;
    const data = all.slice(start, start + query.pageSize).map((entry) => {
      // The running one shows the bytes written so far.
      const live = this.running?.id === entry.id ? this.running : entry;
      return DbBackupFiles.present(live);
    });
    return { data, total: all.length };
  }

  /** Starts a backup now; it runs in the background (`whenIdle` waits for it). */
  async create(operatorId: number): Promise<DbBackup> {
    await this.checkOperator(operatorId);
    return DbBackupFiles.present(await this.start('manual'));
  }

  /** Resolves when the backup running now, if any, has ended. */
  whenIdle(): Promise<void> {
    return this.runningDone;
  }

  private async start(trigger: DbBackup['trigger']): Promise<BackupManifest> {
    if (this.busy) throw idField('backupRunning');
    this.busy = 'backup';
    try {
      const latest = (await this.deps.files.all())[0];
      const entry: BackupManifest = {
        // The millisecond it starts, after every earlier one (two in one millisecond stay apart).
        id: Math.max(this.deps.clock(), (latest?.id ?? 0) + 1),
        status: 'running',
        kind: this.kind,
        trigger,
        bytes: 0,
        version: this.deps.version,
        // Counted when the backup runs, outside the request's transaction (PGlite has one connection).
        migrations: 0,
        sha256: null,
        error: null,
        createdAt: '',
        finishedAt: null,
      };
      entry.createdAt = new Date(entry.id).toISOString();
      await this.deps.files.save(entry);
      this.running = entry;
      this.runningDone = this.write(entry).finally(() => {
        this.running = null;
        this.busy = null;
      });
      return { ...entry };
    } catch (error) {
      this.busy = null;
      throw error;
    }
  }

  private async write(entry: BackupManifest): Promise<void> {
    const { file, part } = await this.deps.files.paths(entry);
    try {
      entry.migrations = await this.repository.appliedMigrations();
      const hash = createHash('sha256');
      const source = this.deps.database.source;
      if (source.kind === 'pglite') {
        // A checkpoint, then the data directory as PGlite copies it with no query running: what a
        // power cut at that instant would leave, which PostgreSQL's recovery makes consistent.
        await source.client.exec('CHECKPOINT');
        const dump = Buffer.from(await (await source.client.dumpDataDir('gzip')).arrayBuffer());
        hash.update(dump);
        await writeFile(part, dump, { mode: 0o600 });
        entry.bytes = dump.length;
      } else {
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            hash.update(chunk);
            entry.bytes += chunk.length;
            done(null, chunk);
          },
        });
        const gzip = createGzip();
        const written = pipeline(gzip, counter, createWriteStream(part, { mode: 0o600 }));
        try {
          await pgDump(source.url, gzip);
        } catch (error) {
          gzip.destroy();
          await written.catch(() => {});
          throw error;
        }
        gzip.end();
        await written;
      }
      await rename(part, file);
      entry.sha256 = hash.digest('hex');
      entry.status = 'done';
      entry.finishedAt = new Date(this.deps.clock()).toISOString();
      await this.deps.files.save(entry);
      await this.prune((await this.deps.files.setting()).keep);
    } catch (error) {
      this.deps.log(error, 'config store backup failed');
      await rm(part, { force: true });
      entry.status = 'failed';
      entry.error = error instanceof Error ? error.message.slice(0, 1000) : String(error);
      entry.finishedAt = new Date(this.deps.clock()).toISOString();
      await this.deps.files.save(entry);
    }
  }

  /** Keeps the newest `keep` done backups; older ones, and failed ones older than those, go. */
  private async prune(keep: number): Promise<void> {
    const all = await this.deps.files.all();
    const done = all.filter((entry) => entry.status === 'done');
    const oldestKept = done[Math.min(keep, done.length) - 1]?.id ?? 0;
    for (const entry of all) {
      if (entry.status === 'running' || entry.id === this.pendingRestore) continue;
      const beyond = entry.status === 'done' ? done.indexOf(entry) >= keep : entry.id < oldestKept;
      if (beyond) await this.deps.files.remove(entry);
    }
  }

  private async own(operatorId: number, id: number): Promise<BackupManifest> {
    await this.checkOperator(operatorId);
    const entry = await this.deps.files.find(id);
    if (!entry) throw new AppError(101018);
    return entry;
  }

  async download(operatorId: number, id: number) {
    const entry = await this.own(operatorId, id);
    if (entry.status !== 'done') throw idField('backupNotReady');
    const { file } = await this.deps.files.paths(entry);
    const bytes = await stat(file).then(
      (s) => s.size,
      () => {
        throw idField('backupNotReady');
      },
    );
    return { stream: createReadStream(file), bytes, fileName: DbBackupFiles.fileName(entry) };
  }

  async delete(operatorId: number, id: number): Promise<void> {
    const entry = await this.own(operatorId, id);
    if (entry.status === 'running') throw idField('backupRunning');
    if (this.pendingRestore === id) {
      await rm(path.join(await this.deps.files.dir(), STAGED_RESTORE), { force: true });
      this.pendingRestore = null;
    }
    await this.deps.files.remove(entry);
  }

  /**
   * Restores a done backup. Its file is checked against the SHA-256 recorded when it was made,
   * then PostgreSQL runs it in one transaction (an error rolls everything back), and PGlite loads
   * it in memory to check it and stages it for the next start. A refused backup changes nothing.
   */
  async restore(operatorId: number, id: number): Promise<{ staged: boolean }> {
    const entry = await this.own(operatorId, id);
    if (entry.status !== 'done') throw idField('backupNotReady');
    if (entry.kind !== this.kind) throw idField('backupOtherStore');
    if (entry.migrations > this.deps.knownMigrations) throw idField('backupNewer');
    if (this.busy) throw idField('backupRunning');
    this.busy = 'restore';
    try {
      if ((await this.deps.files.hash(entry)) !== entry.sha256) throw idField('backupCorrupt');
      const { file } = await this.deps.files.paths(entry);
      const source = this.deps.database.source;
      if (source.kind === 'pglite') {
        let migrations: number;
        try {
          migrations = await checkPgliteDump(new Blob([await readFile(file)]));
        } catch (error) {
          this.deps.log(error, 'a backup to restore does not load');
          throw idField('backupCorrupt');
        }
        if (migrations > this.deps.knownMigrations) throw idField('backupNewer');
        const staged = path.join(await this.deps.files.dir(), STAGED_RESTORE);
        await copyFile(file, `${staged}.part`);
        await rename(`${staged}.part`, staged);
        this.pendingRestore = id;
        return { staged: true };
      }
      try {
        await psqlRestore(source.url, createReadStream(file).pipe(createGunzip()));
      } catch (error) {
        this.deps.log(error, 'restoring a backup failed; the database is as it was');
        throw idField('backupCorrupt');
      }
      // A backup of an older version lacks the later migrations.
      await this.deps.database.migrate();
      await this.deps.afterRestore();
      return { staged: false };
    } finally {
      this.busy = null;
    }
  }

  /** When the next scheduled backup is due: the interval after the newest backup, or now. */
  private async nextDue(setting: DbBackupSetting): Promise<number> {
    const latest = (await this.deps.files.all())[0];
    return latest ? latest.id + setting.intervalHours * HOUR_MS : this.deps.clock();
  }

  /** The schedule's look: starts a backup when one is due and none runs. */
  async tick(): Promise<void> {
    const setting = await this.deps.files.setting();
    if (!setting.enabled || this.busy) return;
    if (this.deps.clock() < (await this.nextDue(setting))) return;
    await this.start('scheduled');
  }
}
