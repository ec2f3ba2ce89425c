import { lookupWithin, throwUnlessNoRecord } from './cname-resolver.js';

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
    return lookupWithin(this.servers, this.timeoutMs, async (resolver, timedOut) => {
      try {
        const records = await resolver.resolveTxt(name);
        return records.map((chunks) => chunks.join(''));
      } catch (err) {
        throwUnlessNoRecord(err, name, timedOut());
        return [];
      }
    });
  }
}
