import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type EdgeDomain, type EdgeUpstream, isOriginAddressAllowed } from '@rampart/contract';

type EdgeOrigin = NonNullable<EdgeDomain['origin']>;

/**
 * How the node resolves its origins' host names (docs/decisions "Hostname origins"). Every
 * address a name answers is held to the origins' address rule (`isOriginAddressAllowed`): a name
 * that answers loopback, private, link-local (cloud metadata) or reserved addresses is refused
 * unless the installation allows private origins, and the refusal is reported, never served.
 */
export interface OriginResolverOptions {
  /** DNS servers to ask (`ip` or `ip:port`); absent: the system's (/etc/resolv.conf). */
  servers?: readonly string[];
  /**
   * The node allows origins on loopback and private addresses whatever the operator chose
   * (RAMPART_ALLOW_PRIVATE_ORIGINS, a node-level override); otherwise the plane's choice holds
   * (`allowByOperator`).
   */
  allowPrivate?: boolean;
  /** Bounds of how long an answer is kept, whatever its TTL (seconds; default 5..300). */
  minTtlSeconds?: number;
  maxTtlSeconds?: number;
}

/** What a name resolved to: the addresses allowed, and why none is when none is. */
export interface ResolvedOrigin {
  readonly addresses: readonly string[];
  /** '' when at least one address is allowed. */
  readonly problem: string;
}

interface CacheEntry extends ResolvedOrigin {
  /** When the answer is to be asked again (ms since the epoch). */
  readonly expires: number;
}

/** How long a failed lookup is kept before it is asked again. */
const FAILURE_TTL_SECONDS = 10;

export class OriginResolver {
  private readonly dns = new Resolver({ timeout: 3000, tries: 2 });
  private readonly cache = new Map<string, CacheEntry>();
  /** The node's own override (options.allowPrivate). */
  private readonly forcePrivate: boolean;
  private allowPrivate: boolean;
  private readonly minTtl: number;
  private readonly maxTtl: number;

  constructor(
    options: OriginResolverOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    if (options.servers && options.servers.length > 0) this.dns.setServers([...options.servers]);
    this.forcePrivate = options.allowPrivate === true;
    this.allowPrivate = this.forcePrivate;
    this.minTtl = options.minTtlSeconds ?? 5;
    this.maxTtl = Math.max(this.minTtl, options.maxTtlSeconds ?? 300);
  }

  /**
   * The operator's choice as the plane's meta carries it (routes/private-origins.ts); the node's
   * override wins. A change forgets every answer, so every name is asked and held to the rule again.
   */
  allowByOperator(allowed: boolean): void {
    const next = this.forcePrivate || allowed;
    if (next === this.allowPrivate) return;
    this.allowPrivate = next;
    this.cache.clear();
  }

  /** The last answer for `host` (undefined before the first). */
  lookup(host: string): ResolvedOrigin | undefined {
    return this.cache.get(host);
  }

  /** The names whose answer is due (never asked, or past its TTL). */
  due(hosts: Iterable<string>): string[] {
    const now = this.now();
    return [...new Set(hosts)].filter((h) => (this.cache.get(h)?.expires ?? 0) <= now);
  }

  /**
   * Asks again for every name of `hosts` that is due; answers the names whose allowed addresses or
   * problem changed. Names not in `hosts` are forgotten (no origin names them any more).
   */
  async refresh(hosts: Iterable<string>): Promise<string[]> {
    const wanted = new Set(hosts);
    for (const host of this.cache.keys()) if (!wanted.has(host)) this.cache.delete(host);
    const changed: string[] = [];
    await Promise.all(
      this.due(wanted).map(async (host) => {
        const before = this.cache.get(host);
        const after = await this.resolve(host);
        this.cache.set(host, after);
        if (!before || before.problem !== after.problem || before.addresses.join() !== after.addresses.join())
          changed.push(host);
      }),
    );
    return changed;
  }

  private async resolve(host: string): Promise<CacheEntry> {
    const answers = await Promise.all([
      this.dns.resolve4(host, { ttl: true }).catch(noRecords),
      this.dns.resolve6(host, { ttl: true }).catch(noRecords),
    ]);
    const records = answers.flatMap((a) => (Array.isArray(a) ? a : []));
    const failed = answers.find((a): a is LookupFailure => !Array.isArray(a));
    if (records.length === 0) {
      const problem = `${host} does not resolve${failed ? ` (${failed.code})` : ''}`;
      return { addresses: [], problem, expires: this.now() + FAILURE_TTL_SECONDS * 1000 };
    }
    const allowed = records.filter(
      (r) => isIP(r.address) !== 0 && isOriginAddressAllowed(r.address, this.allowPrivate),
    );
    const ttl = Math.min(this.maxTtl, Math.max(this.minTtl, Math.min(...records.map((r) => r.ttl))));
    const addresses = [...new Set(allowed.map((r) => r.address.toLowerCase()))].sort();
    const refused = records.length - allowed.length;
    const problem =
      addresses.length > 0
        ? ''
        : `${host} resolves only to addresses an origin may not have (loopback, private, link-local or reserved: ${refused})`;
    return { addresses, problem, expires: this.now() + ttl * 1000 };
  }
}

interface LookupFailure {
  readonly code: string;
}

/** A family without records is an empty answer; any other failure is kept to be reported. */
function noRecords(err: unknown): { address: string; ttl: number }[] | LookupFailure {
  const code = (err as { code?: string }).code ?? 'ERROR';
  return code === 'ENODATA' ? [] : { code };
}

/** Where the plane's records find what a name resolved to (an OriginResolver, or a test's own). */
export interface OriginLookup {
  lookup(host: string): ResolvedOrigin | undefined;
}

/** The host names among an origin's upstreams (an origin of IP literals names none). */
export function originHostNames(origin: EdgeOrigin | null): string[] {
  return origin ? origin.upstreams.filter((u) => isIP(u.ip) === 0).map((u) => u.ip) : [];
}

/** The most upstreams nginx's store takes for one domain (rampart.validate). */
const UPSTREAMS_MAX = 64;

/**
 * An origin as nginx's store takes it: every host name replaced by the addresses it resolved to
 * (each with the upstream's port, weight and role), literals kept. When no upstream that is not a
 * backup is left, the origin is `unresolved` (the balancer uses the backups, or refuses the request).
 * Answers null for an origin that names no host.
 */
export function resolvedOrigin(
  origin: EdgeOrigin | null,
  origins: OriginLookup | null,
): { origin: EdgeOrigin & { unresolved?: true }; signature: string } | null {
  if (origin === null || originHostNames(origin).length === 0) return null;
  const upstreams: EdgeUpstream[] = [];
  for (const u of origin.upstreams) {
    const addresses = isIP(u.ip) !== 0 ? [u.ip] : (origins?.lookup(u.ip)?.addresses ?? []);
    for (const ip of addresses) if (upstreams.length < UPSTREAMS_MAX) upstreams.push({ ...u, ip });
  }
  const unresolved = !upstreams.some((u) => !u.backup);
  const out = unresolved ? { ...origin, upstreams, unresolved: true as const } : { ...origin, upstreams };
  return { origin: out, signature: JSON.stringify(out.upstreams) };
}
