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

/** Answers that say the name has no record of the type asked: it exists without one (NODATA) or does not exist (NXDOMAIN). */
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND']);

/**
 * Runs `lookup` with a resolver of its own (`servers`, or the system's when empty), so that
 * cancelling it at the deadline stops only this lookup. After `timeoutMs` the resolver is
 * cancelled and `timedOut()` is true.
 */
export async function lookupWithin<T>(
  servers: readonly string[],
  timeoutMs: number,
  lookup: (resolver: Resolver, timedOut: () => boolean) => Promise<T>,
): Promise<T> {
  const resolver = new Resolver({ timeout: Math.max(100, Math.floor(timeoutMs / 3)), tries: 2 });
  if (servers.length > 0) resolver.setServers([...servers]);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    resolver.cancel();
  }, timeoutMs);
  try {
    return await lookup(resolver, () => timedOut);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads a failed query of `name`: it returns when the name has no record of the type asked, and
 * throws DnsLookupError when the resolver could not answer (ETIMEOUT once the deadline passed).
 */
export function throwUnlessNoRecord(err: unknown, name: string, timedOut: boolean): void {
  const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
  if (timedOut) throw new DnsLookupError(name, 'ETIMEOUT');
  if (!NO_RECORD.has(code)) throw new DnsLookupError(name, code);
}

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
    return lookupWithin(this.servers, this.timeoutMs, (resolver, timedOut) =>
      this.follow(resolver, canonical(name), canonical(target), timedOut),
    );
  }

  private async follow(resolver: Resolver, name: string, target: string, timedOut: () => boolean) {
    const seen = new Set<string>([name]);
    let current = name;
    for (let link = 0; link < CNAME_CHAIN_MAX; link++) {
      let answer: string[];
      try {
        answer = await resolver.resolveCname(current);
      } catch (err) {
        throwUnlessNoRecord(err, current, timedOut());
        return false;
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
