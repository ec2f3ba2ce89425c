import { Resolver } from 'node:dns/promises';

/** Most CNAME links followed from the customer's name before giving up (a loop or a long chain). */
export const CNAME_CHAIN_MAX = 8;

/** The resolver could not answer (timeout, refused, server failure): nothing can be said about the name. */
export class DnsLookupError extends Error {
  constructor(
    /** The name being resolved when it failed (a link of the chain, maybe not the customer's). */
    readonly hostname: string,
    /** c-ares' code, e.g. ETIMEOUT, ECONNREFUSED, ESERVFAIL, EREFUSED. */
    readonly reason: string,
  ) {
    super(`DNS lookup of ${hostname} failed: ${reason}`);
    this.name = 'DnsLookupError';
  }
}

/** Answers that say the name has no CNAME: it exists without one (NODATA) or does not exist (NXDOMAIN). */
const NO_CNAME = new Set(['ENODATA', 'ENOTFOUND']);

function canonical(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

/**
 * Follows CNAME records with real DNS queries: `servers` (e.g. ['127.0.0.1:5353']) or, when empty,
 * the system's resolvers. One check may take at most `timeoutMs` in all; then it fails with
 * DnsLookupError('ETIMEOUT').
 */
export class CnameResolver {
  constructor(
    private readonly servers: readonly string[],
    private readonly timeoutMs: number,
  ) {}

  /**
   * Whether `name` reaches `target` through at most CNAME_CHAIN_MAX CNAME records. False when a link
   * has no CNAME, the chain loops or is longer; DnsLookupError when the resolver fails.
   */
  async pointsAt(name: string, target: string): Promise<boolean> {
    // A resolver of its own per check, so that cancelling at the deadline stops only this check.
    const resolver = new Resolver({ timeout: Math.max(100, Math.floor(this.timeoutMs / 3)), tries: 2 });
    if (this.servers.length > 0) resolver.setServers([...this.servers]);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      resolver.cancel();
    }, this.timeoutMs);
    try {
      return await this.follow(resolver, canonical(name), canonical(target), () => timedOut);
    } finally {
      clearTimeout(timer);
    }
  }

  private async follow(resolver: Resolver, name: string, target: string, timedOut: () => boolean) {
    const seen = new Set<string>([name]);
    let current = name;
    for (let link = 0; link < CNAME_CHAIN_MAX; link++) {
      let answer: string[];
      try {
        answer = await resolver.resolveCname(current);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
        if (timedOut()) throw new DnsLookupError(current, 'ETIMEOUT');
        if (NO_CNAME.has(code)) return false;
        throw new DnsLookupError(current, code);
      }
      const next = answer[0];
      if (next === undefined) return false;
      current = canonical(next);
      if (current === target) return true;
      if (seen.has(current)) return false;
      seen.add(current);
    }
    return false;
  }
}
