import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FileBlobStore } from '../../platform/files/file-blobs.js';
import { WorkDir } from '../../platform/files/work-dir.js';

/** Days a finished export file is kept unless the install sets `RAMPART_LOG_EXPORT_RETENTION_DAYS`. */
export const LOG_EXPORT_RETENTION_DAYS_DEFAULT = 7;
/** Bytes all export files may take unless the install sets `RAMPART_LOG_EXPORT_MAX_BYTES` (10 GiB). */
export const LOG_EXPORT_MAX_BYTES_DEFAULT = 10 * 1024 ** 3;

const KIND = 'log-export';

/**
 * Where export files live. A finished file is a blob of the config store (platform/files/file-blobs.ts),
 * used by its export's id, so that the control plane a download reaches need not be the one that
 * wrote it. While the job writes it, it is `DATA_DIR/log-exports/<id>.part` on the writing control
 * plane (the name carries nothing of the customer's input); without a data dir (tests) a temporary
 * directory, removed by `dispose()` when the app closes.
 */
export class LogExportFiles {
  private readonly root: WorkDir;

  constructor(
    dataDir: string | undefined,
    private readonly blobs: FileBlobStore,
  ) {
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

  /** The file the job writes an export into. */
  async partPath(id: number): Promise<string> {
    return path.join(await this.dir(), `${id}.part`);
  }

  /** Stores a written file as the export's (owned by its account). */
  async store(id: number, accountId: number, file: string): Promise<void> {
    await this.blobs.put({ file }, { kind: KIND, ref: String(id), ownerId: accountId });
  }

  /** A finished export's file as a stream, or null when it has none (expired a moment ago). */
  async open(id: number): Promise<Readable | null> {
    const sha256 = await this.blobs.refOf(KIND, String(id));
    return sha256 === null ? null : this.blobs.stream(sha256);
  }

  /** Removes an export's file, finished or partial; none is no error. */
  async remove(id: number): Promise<void> {
    await this.blobs.release(KIND, [String(id)]);
    await rm(await this.partPath(id), { force: true, recursive: true });
  }

  /**
   * Removes every file whose export is not in `keep` (rows deleted with their account) and every
   * partial file of this control plane (called at start, before it writes any).
   */
  async removeOthers(keep: ReadonlySet<number>): Promise<void> {
    await this.blobs.releaseExcept(KIND, [...keep].map(String));
    const dir = await this.dir();
    for (const name of await readdir(dir)) await rm(path.join(dir, name), { force: true, recursive: true });
  }

  /**
   * Moves the finished files an earlier version kept in this control plane's data directory
   * (`DATA_DIR/log-exports/<id>`) into the config store, once: a file is removed once stored (or
   * when its export is no longer done), so the next start finds none. Answers how many moved.
   */
  async importLegacy(
    exportOf: (id: number) => Promise<{ accountId: number; status: string } | null>,
    report: (error: unknown, file: string) => void,
  ): Promise<number> {
    const dir = await this.dir();
    let moved = 0;
    for (const name of await readdir(dir)) {
      if (!/^\d+$/.test(name)) continue;
      const file = path.join(dir, name);
      try {
        const row = await exportOf(Number(name));
        if (row?.status === 'done' && (await this.blobs.refOf(KIND, name)) === null) {
          await this.store(Number(name), row.accountId, file);
          moved += 1;
        }
        await rm(file, { force: true, recursive: true });
      } catch (error) {
        report(error, file);
      }
    }
    return moved;
  }
}
