import { abuseIPFileCounts } from '@rampart/contract';
import type { Logger } from '../log.js';
import { HashedFiles } from './hashed-files.js';

/**
 * The operator's reputation list on the node (docs/decisions.md "IP trust protection"): the
 * snapshot's data plane names the list's file by SHA-256 (`abuseIPs`) when one of the node's sites
 * uses it; the agent keeps it as `<reputation dir>/<sha256>.bin`, fetched from the control plane
 * (node API `GET /reputation/abuseIPs`) as every hashed file (agent/hashed-files.ts), its format
 * checked too. rampart.firewall_reputation reads the file once per worker and hash. Until it is
 * installed no address has a score (IP trust protection lets every request through).
 */
export class AbuseIPFiles extends HashedFiles {
  constructor(dir: string, fetch: (sha256: string) => Promise<Buffer>, log: Logger) {
    super({
      dir,
      extension: '.bin',
      event: 'reputation',
      fetch,
      log,
      check: (bytes) => {
        const counts = abuseIPFileCounts(bytes);
        if (!counts) throw new Error('not an abuse IP file');
        return { v4: counts.v4, v6: counts.v6 };
      },
    });
  }
}
