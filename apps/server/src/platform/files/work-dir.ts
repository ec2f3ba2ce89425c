import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A directory a service keeps files in: `<DATA_DIR>/<name>` on an install, or — without a data
 * directory (the tests' apps) — a temporary directory made on first use and removed by `dispose()`,
 * which the app calls when it closes. Concurrent first uses share one directory (a promise, not a
 * value assigned after an await, which would make one directory per caller and lose the others'
 * files). `dispose()` never removes the data directory's own folder.
 */
export class WorkDir {
  private temp: Promise<string> | null = null;

  constructor(
    private readonly fixed: string | null,
    private readonly tempPrefix: string,
  ) {}

  /** A work directory under the data directory, or a temporary one when there is none. */
  static under(dataDir: string | undefined, name: string): WorkDir {
    return new WorkDir(dataDir === undefined ? null : path.join(dataDir, name), `rampart-${name}-`);
  }

  /** The directory's path (not made for a data directory: callers `mkdir` what they need under it). */
  path(): Promise<string> {
    if (this.fixed !== null) return Promise.resolve(this.fixed);
    this.temp ??= mkdtemp(path.join(tmpdir(), this.tempPrefix));
    return this.temp;
  }

  /** Removes a temporary directory made by `path()`; nothing for a data directory. */
  async dispose(): Promise<void> {
    const temp = this.temp;
    this.temp = null;
    if (temp === null) return;
    await rm(await temp, { recursive: true, force: true });
  }
}
