import { Resolver } from 'node:dns/promises';
import { DnsLookupError } from './cname-resolver.js';

/** Answers that say the name has no TXT record: it exists without one (NODATA) or does not exist (NXDOMAIN). */
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND']);

/**
 * Reads TXT records with real DNS queries: `servers` (e.g. ['127.0.0.1:5353']) or, when empty, the
 * system's resolvers, the same ones the CNAME check asks. One lookup may take at most `timeoutMs`;
 * then it fails with DnsLookupError('ETIMEOUT').
 */
export class TxtResolver {
  constructor(
    private readonly servers: readonly string[],
    private readonly timeoutMs: number,
  ) {}

  /** The strings of every TXT record of `name` (a record's chunks joined); [] when it has none. */
  async texts(name: string): Promise<string[]> {
    const resolver = new Resolver({ timeout: Math.max(100, Math.floor(this.timeoutMs / 3)), tries: 2 });
    if (this.servers.length > 0) resolver.setServers([...this.servers]);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      resolver.cancel();
    }, this.timeoutMs);
    try {
      const records = await resolver.resolveTxt(name);
      return records.map((chunks) => chunks.join(''));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
      if (timedOut) throw new DnsLookupError(name, 'ETIMEOUT');
      if (NO_RECORD.has(code)) return [];
      throw new DnsLookupError(name, code);
    } finally {
      clearTimeout(timer);
    }
  }
}
