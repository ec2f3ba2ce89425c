import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { WorkDir } from '../../platform/files/work-dir.js';

/** Days a finished export file is kept unless the install sets `RAMPART_LOG_EXPORT_RETENTION_DAYS`. */
export const LOG_EXPORT_RETENTION_DAYS_DEFAULT = 7;
/** Bytes all export files may take unless the install sets `RAMPART_LOG_EXPORT_MAX_BYTES` (10 GiB). */
export const LOG_EXPORT_MAX_BYTES_DEFAULT = 10 * 1024 ** 3;

/**
 * Where export files live: `DATA_DIR/log-exports/<id>` (the name carries nothing of the customer's
 * input), `<id>.part` while the job writes it. Without a data dir (tests) a temporary directory,
 * removed by `dispose()` when the app closes.
 */
export class LogExportFiles {
  private readonly root: WorkDir;

  constructor(dataDir: string | undefined) {
    this.root = WorkDir.under(dataDir, 'log-exports');
  }

  async dir(): Promise<string> {
    const dir = await this.root.path();
    await mkdir(dir, { recursive: true });
    return dir;
  }

  /** Removes the temporary directory of an app without a data dir (nothing on an install). */
  dispose(): Promise<void> {
    return this.root.dispose();
  }

  /** The finished file of an export and the one being written. */
  async paths(id: number): Promise<{ file: string; part: string }> {
    const dir = await this.dir();
    return { file: path.join(dir, String(id)), part: path.join(dir, `${id}.part`) };
  }

  /** Removes an export's files, finished or partial; none is no error. */
  async remove(id: number): Promise<void> {
    const { file, part } = await this.paths(id);
    await Promise.all([rm(file, { force: true, recursive: true }), rm(part, { force: true, recursive: true })]);
  }

  /** Removes every file whose export is not in `keep` (rows deleted with their account, partial files of a stop). */
  async removeOthers(keep: ReadonlySet<number>): Promise<void> {
    const dir = await this.dir();
    for (const name of await readdir(dir)) {
      const id = /^(\d+)$/.exec(name)?.[1];
      if (id === undefined || !keep.has(Number(id))) await rm(path.join(dir, name), { force: true, recursive: true });
    }
  }
}
