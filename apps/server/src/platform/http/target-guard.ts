import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { isOriginAddressAllowed } from '@rampart/contract';

/**
 * The address rule of every outgoing connection the control plane makes for an operator or a
 * customer (DNS provider APIs and RFC 2136 servers, ACME directories and every URL a CA hands back,
 * log push destinations, the SMTP server, the Telegram Bot API). A destination's host is resolved
 * once, every address it answers is judged with the origins' rule (`isOriginAddressAllowed`:
 * loopback, private, CGNAT, link-local, reserved, and the IPv4-mapped/compatible, NAT64, 6to4 and
 * Teredo forms of them, only when the installation allows private targets; unspecified and
 * multicast never), and the connection goes to one of those checked addresses and no other (the
 * connect helpers hand them to the socket as its `lookup`, so no second resolution can answer
 * something else: no DNS rebinding between the check and the connection).
 *
 * A refusal says nothing of the destination (its addresses, whether its name resolved): the API's
 * answer must not become an oracle of the control plane's network.
 */

/** One address of a destination, judged allowed. */
export interface CheckedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a name to all its addresses (the system's resolver; tests hand their own). */
export type Resolver = (host: string) => Promise<readonly { address: string; family: number }[]>;

const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/** The one message of a destination the control plane will not connect to, whatever the reason. */
export const TARGET_REFUSED_MESSAGE = 'the destination is not a reachable public address';

export class TargetRefusedError extends Error {
  override readonly name = 'TargetRefusedError';
  constructor() {
    super(TARGET_REFUSED_MESSAGE);
  }
}

/**
 * A host as the socket will read it: brackets and a final dot dropped, and the forms WHATWG URL
 * parsing turns into an IPv4 address (`2130706433`, `0177.0.0.1`, `0x7f.1`) made that address.
 */
export function canonicalHost(host: string): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (isIP(bare)) return bare.toLowerCase();
  try {
    return new URL(`http://${bare}/`).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return bare.toLowerCase();
  }
}

/** The host of a destination URL (`scheme://host[:port]/...`), canonical; null when it is not a URL. */
export function hostOfUrl(url: string): string | null {
  try {
    return canonicalHost(new URL(url).hostname);
  } catch {
    return null;
  }
}

/** A `lookup` for a socket that answers only `addresses` (already checked): the pin. */
export function pinnedLookup(addresses: readonly CheckedAddress[]): LookupFunction {
  return (_host, options, callback) => {
    const all = (options as { all?: boolean } | undefined)?.all === true;
    const first = addresses[0];
    if (!first) {
      callback(new TargetRefusedError(), '', 0);
      return;
    }
    if (all) (callback as unknown as (e: null, a: readonly CheckedAddress[]) => void)(null, addresses);
    else callback(null, first.address, first.family);
  };
}

export class TargetGuard {
  constructor(
    /** The installation's `RAMPART_ALLOW_PRIVATE_TARGETS`: private targets allowed (test rigs, private data centres). */
    readonly allowPrivate: boolean,
    private readonly resolve: Resolver = systemResolver,
  ) {}

  private allowed(address: string): boolean {
    return isOriginAddressAllowed(address, this.allowPrivate);
  }

  /**
   * Every address of `host`, each one allowed; throws TargetRefusedError when one is not (a name
   * with a single bad address is refused whole), when the name does not resolve, or answers nothing.
   */
  async addresses(host: string): Promise<CheckedAddress[]> {
    const name = canonicalHost(host);
    const literal = isIP(name);
    let found: { address: string; family: number }[];
    if (literal) found = [{ address: name, family: literal }];
    else if (name === '') throw new TargetRefusedError();
    else {
      try {
        found = [...(await this.resolve(name))];
      } catch {
        throw new TargetRefusedError();
      }
    }
    if (found.length === 0 || !found.every((a) => this.allowed(a.address))) throw new TargetRefusedError();
    return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  }

  /**
   * The check made when a destination is saved: false when `host` is, or resolves to, an address
   * the installation refuses. A name that does not resolve now is kept (the check at each use
   * refuses it then); a literal is judged as it is.
   */
  async savable(host: string): Promise<boolean> {
    const name = canonicalHost(host);
    if (name === '') return false;
    if (isIP(name)) return this.allowed(name);
    let found: readonly { address: string }[];
    try {
      found = await this.resolve(name);
    } catch {
      return true;
    }
    return found.every((a) => this.allowed(a.address));
  }
}
