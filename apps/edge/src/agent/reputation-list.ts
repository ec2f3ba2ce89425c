import { createHash } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { abuseIPFileCounts } from '@rampart/contract';
import { errorText, type Logger } from './log.js';
import { writeFileAtomic } from './state.js';

/**
 * The operator's reputation list on the node (docs/decisions.md "IP trust protection"), the
 * sibling of the geo database (agent/geo-database.ts): the snapshot's data plane names the list's
 * file by SHA-256 (`abuseIPs`) when one of the node's sites uses it; before the data plane is pushed
 * the agent makes sure `<reputation dir>/<sha256>.bin` exists, fetching it from the control plane
 * (node API `GET /reputation/abuseIPs`) and checking its hash and format, and removes older files.
 * rampart.firewall_reputation reads the file once per worker and hash: a new list needs no reload.
 * A fetch that fails is logged and tried again with the next apply or check; meanwhile no address
 * has a score (IP trust protection lets every request through).
 */
export class AbuseIPFiles {
  constructor(
    private readonly dir: string,
    private readonly fetch: (sha256: string) => Promise<Buffer>,
    private readonly log: Logger,
  ) {}

  fileOf(sha256: string): string {
    return path.join(this.dir, `${sha256}.bin`);
  }

  /** Whether the list named `sha256` is on disk. */
  async has(sha256: string): Promise<boolean> {
    return (await stat(this.fileOf(sha256)).catch(() => null)) !== null;
  }

  /**
   * Makes the list `sha256` (or none) the one on disk; answers whether it is there now. Never
   * throws: a node without its list still serves everything else.
   */
  async ensure(sha256: string | null | undefined): Promise<boolean> {
    try {
      if (sha256) {
        if (!(await this.has(sha256))) {
          const bytes = await this.fetch(sha256);
          const got = createHash('sha256').update(bytes).digest('hex');
          if (got !== sha256) throw new Error(`the file's SHA-256 is ${got}, not ${sha256}`);
          const counts = abuseIPFileCounts(bytes);
          if (!counts) throw new Error('not an abuse IP file');
          await writeFileAtomic(this.fileOf(sha256), bytes, 0o644);
          this.log('info', 'reputation.installed', {
            sha256,
            bytes: bytes.length,
            v4: counts.v4,
            v6: counts.v6,
          });
        }
      }
      for (const name of await readdir(this.dir)) {
        if (name.endsWith('.bin') && name !== `${sha256}.bin`) await rm(path.join(this.dir, name), { force: true });
      }
      return sha256 ? await this.has(sha256) : true;
    } catch (err) {
      // Until it is installed no address has a score on this node (rampart.firewall_reputation).
      this.log('warn', 'reputation.failed', { sha256, error: errorText(err) });
      return false;
    }
  }
}
