import { createHash } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { errorText, type Logger } from '../log.js';
import { writeFileAtomic } from '../process/state.js';

export interface HashedFilesOptions {
  /** The directory the files live in (nginx.conf names it; Lua opens `<dir>/<sha256><extension>`). */
  dir: string;
  extension: string;
  /** Log event prefix: `<event>.installed`, `<event>.failed`. */
  event: string;
  fetch: (sha256: string) => Promise<Buffer>;
  log: Logger;
  /** Checks a fetched file's format: answers fields for the install log line, or throws. */
  check?: (bytes: Buffer) => Record<string, unknown>;
}

/**
 * A file of the operator's that the data plane names by SHA-256 (the geo database, the reputation
 * list): before the data plane is pushed the agent makes sure `<dir>/<sha256><extension>` exists,
 * fetching it from the control plane and checking its hash (and format), and removes the files of
 * older versions. Lua opens the file once per worker and hash: a new file needs no reload. A fetch
 * that fails is logged and tried again with the next apply or check.
 */
export class HashedFiles {
  constructor(private readonly options: HashedFilesOptions) {}

  fileOf(sha256: string): string {
    return path.join(this.options.dir, `${sha256}${this.options.extension}`);
  }

  /** Whether the file named `sha256` is on disk. */
  async has(sha256: string): Promise<boolean> {
    return (await stat(this.fileOf(sha256)).catch(() => null)) !== null;
  }

  /**
   * Makes the file `sha256` (or none) the one on disk; answers whether it is there now. Never
   * throws: a node without the file still serves everything else.
   */
  async ensure(sha256: string | null | undefined): Promise<boolean> {
    const { dir, extension, event, log } = this.options;
    try {
      if (sha256 && !(await this.has(sha256))) {
        const bytes = await this.options.fetch(sha256);
        const got = createHash('sha256').update(bytes).digest('hex');
        if (got !== sha256) throw new Error(`the file's SHA-256 is ${got}, not ${sha256}`);
        const details = this.options.check?.(bytes) ?? {};
        await writeFileAtomic(this.fileOf(sha256), bytes, 0o644);
        log('info', `${event}.installed`, { sha256, bytes: bytes.length, ...details });
      }
      for (const name of await readdir(dir)) {
        if (name.endsWith(extension) && name !== `${sha256}${extension}`)
          await rm(path.join(dir, name), { force: true });
      }
      return sha256 ? await this.has(sha256) : true;
    } catch (err) {
      log('warn', `${event}.failed`, { sha256, error: errorText(err) });
      return false;
    }
  }

  /** Fetches the file again when it is named and missing (a fetch that failed at the apply). */
  async ensureMissing(sha256: string | null | undefined): Promise<void> {
    if (sha256 && !(await this.has(sha256))) await this.ensure(sha256);
  }
}
