import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  DB_BACKUP_SETTING_DEFAULT,
  type DbBackup,
  type DbBackupSetting,
  dbBackupSchema,
  dbBackupSettingSchema,
} from '@rampart/contract';
import { BACKUPS_DIR } from '../../platform/db/pglite-restore.js';
import { WorkDir } from '../../platform/files/work-dir.js';

/** A backup as stored: its manifest without the download name, which is derived. */
export type BackupManifest = Omit<DbBackup, 'fileName'>;

const manifestSchema = dbBackupSchema.omit({ fileName: true });

/**
 * The backups' catalogue: files in `DATA_DIR/backups`, not rows of the config store — a restore
 * replaces the store, and must not make the list forget backups made after the one restored. Per
 * backup `<id>.json` (its manifest) and `<id>.sql.gz` (PostgreSQL) or `<id>.tar.gz` (PGlite),
 * `<id>.part` while it is written; `setting.json` holds the schedule. Names carry only ids.
 */
export class DbBackupFiles {
  private readonly root: WorkDir;

  constructor(dataDir: string | undefined) {
    this.root = WorkDir.under(dataDir, BACKUPS_DIR);
  }

  async dir(): Promise<string> {
    const dir = await this.root.path();
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  dispose(): Promise<void> {
    return this.root.dispose();
  }

  static extension(kind: DbBackup['kind']): string {
    return kind === 'postgres' ? 'sql.gz' : 'tar.gz';
  }

  static fileName(entry: BackupManifest): string {
    const stamp = new Date(entry.id)
      .toISOString()
      .replaceAll(':', '-')
      .replace(/\.\d+Z$/, 'Z');
    return `rampart-${entry.kind}-${stamp}.${DbBackupFiles.extension(entry.kind)}`;
  }

  static present(entry: BackupManifest): DbBackup {
    return { ...entry, fileName: DbBackupFiles.fileName(entry) };
  }

  async paths(entry: Pick<BackupManifest, 'id' | 'kind'>) {
    const dir = await this.dir();
    return {
      manifest: path.join(dir, `${entry.id}.json`),
      file: path.join(dir, `${entry.id}.${DbBackupFiles.extension(entry.kind)}`),
      part: path.join(dir, `${entry.id}.part`),
    };
  }

  /** Writes a manifest (to a temporary name, then renamed: a reader never sees half of one). */
  async save(entry: BackupManifest): Promise<void> {
    const { manifest } = await this.paths(entry);
    await writeFile(`${manifest}.tmp`, JSON.stringify(entry), { mode: 0o600 });
    await rename(`${manifest}.tmp`, manifest);
  }

  /** Every backup, newest first; manifests that do not read are left out. */
  async all(): Promise<BackupManifest[]> {
    const dir = await this.dir();
    const entries: BackupManifest[] = [];
    for (const name of await readdir(dir)) {
      if (!/^\d+\.json$/.test(name)) continue;
      try {
        const parsed = manifestSchema.safeParse(JSON.parse(await readFile(path.join(dir, name), 'utf8')));
        if (parsed.success) entries.push(parsed.data);
      } catch {
        // A manifest removed between the listing and the read.
      }
    }
    return entries.sort((a, b) => b.id - a.id);
  }

  async find(id: number): Promise<BackupManifest | undefined> {
    return (await this.all()).find((entry) => entry.id === id);
  }

  async remove(entry: BackupManifest): Promise<void> {
    const { manifest, file, part } = await this.paths(entry);
    await Promise.all([rm(file, { force: true }), rm(part, { force: true })]);
    await rm(manifest, { force: true });
  }

  /** SHA-256 of a done backup's file (hex), or null when the file is gone. */
  async hash(entry: BackupManifest): Promise<string | null> {
    const { file } = await this.paths(entry);
    if (!existsSync(file)) return null;
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  }

  async setting(): Promise<DbBackupSetting> {
    try {
      const parsed = dbBackupSettingSchema.safeParse(
        JSON.parse(await readFile(path.join(await this.dir(), 'setting.json'), 'utf8')),
      );
      return parsed.success ? parsed.data : DB_BACKUP_SETTING_DEFAULT;
    } catch {
      return DB_BACKUP_SETTING_DEFAULT;
    }
  }

  async putSetting(setting: DbBackupSetting): Promise<void> {
    const file = path.join(await this.dir(), 'setting.json');
    await writeFile(`${file}.tmp`, JSON.stringify(setting), { mode: 0o600 });
    await rename(`${file}.tmp`, file);
  }
}
