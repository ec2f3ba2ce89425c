import { createHash } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { errorText, type Logger } from './log.js';
import { writeFileAtomic } from './state.js';

/**
 * The operator's geo database on the node (docs/decisions.md "Geo rules"): the snapshot's data
 * plane names it by SHA-256 (`geoDatabase`); before the data plane is pushed the agent makes sure
 * `<geo dir>/<sha256>.mmdb` exists, fetching it from the control plane (node API `GET
 * /geo/database`) and checking its hash, and removes the files of older databases. rampart.firewall_geo
 * opens the file once per worker and hash: a new database needs no reload. A fetch that fails is
 * logged and tried again with the next apply or check; meanwhile the geo rules match no region.
 */
export class GeoDatabaseFiles {
  constructor(
    private readonly dir: string,
    private readonly fetch: (sha256: string) => Promise<Buffer>,
    private readonly log: Logger,
  ) {}

  fileOf(sha256: string): string {
    return path.join(this.dir, `${sha256}.mmdb`);
  }

  /** Whether the database named `sha256` is on disk. */
  async has(sha256: string): Promise<boolean> {
    return (await stat(this.fileOf(sha256)).catch(() => null)) !== null;
  }

  /**
   * Makes the database `sha256` (or none) the one on disk; answers whether it is there now. Never
   * throws: a node without its database still serves everything else.
   */
  async ensure(sha256: string | null | undefined): Promise<boolean> {
    try {
      if (sha256) {
        if (!(await this.has(sha256))) {
          const bytes = await this.fetch(sha256);
          const got = createHash('sha256').update(bytes).digest('hex');
          if (got !== sha256) throw new Error(`the file's SHA-256 is ${got}, not ${sha256}`);
          await writeFileAtomic(this.fileOf(sha256), bytes, 0o644);
          this.log('info', 'geo.installed', { sha256, bytes: bytes.length });
        }
      }
      for (const name of await readdir(this.dir)) {
        if (name.endsWith('.mmdb') && name !== `${sha256}.mmdb`) await rm(path.join(this.dir, name), { force: true });
      }
      return sha256 ? await this.has(sha256) : true;
    } catch (err) {
      // Until it is installed the node's geo rules match no region (rampart.firewall_geo).
      this.log('warn', 'geo.failed', { sha256, error: errorText(err) });
      return false;
    }
  }
}
