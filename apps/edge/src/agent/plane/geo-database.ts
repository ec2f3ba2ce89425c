import type { Logger } from '../log.js';
import { HashedFiles } from './hashed-files.js';

/**
 * The operator's geo database on the node (docs/decisions.md "Geo rules"): the snapshot's data
 * plane names it by SHA-256 (`geoDatabase`); the agent keeps it as `<geo dir>/<sha256>.mmdb`,
 * fetched from the control plane (node API `GET /geo/database`) as every hashed file
 * (agent/hashed-files.ts). rampart.firewall_geo opens the file once per worker and hash. Until it is
 * installed the node's geo rules match no region.
 */
export class GeoDatabaseFiles extends HashedFiles {
  constructor(dir: string, fetch: (sha256: string) => Promise<Buffer>, log: Logger) {
    super({ dir, extension: '.mmdb', event: 'geo', fetch, log });
  }
}
