import { normalizeOutgoingEntry } from '@rampart/contract';
import type { TargetGuard } from './target-guard.js';

/**
 * The one gate every outgoing call made for an operator passes (its log push destinations, DNS
 * provider API, ACME directory, Telegram Bot API and SMTP server): the operator's outgoing URL
 * list (contract system-settings.ts, docs/decisions.md "System settings: outgoing URL, account
 * verify, restrict group CIDRs"). An empty list allows every destination.
 *
 * A destination is named as a URL, `scheme://host[:port][/...]` (syslog as `tcp://`, `tls://` or
 * `udp://`, an RFC 2136 server as `dns://`, SMTP as `smtp://`). An entry `[scheme://][*.]host[:port]`
 * matches it when its scheme (if any) is the destination's, its host is the destination's (`*.`:
 * any name below it), and its port (if any) is the destination's, a missing port of the
 * destination being the scheme's default one.
 */

/** A destination outside the operator's list; the message names it and says why. */
export class OutgoingRefusedError extends Error {
  override readonly name = 'OutgoingRefusedError';
  constructor(readonly destination: string) {
    super(`${destination} is not on the operator's outgoing URL list`);
  }
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = {
  http: '80',
  https: '443',
  smtp: '25',
  dns: '53',
  tcp: '514',
  udp: '514',
  tls: '6514',
};

interface Target {
  readonly scheme: string;
  readonly host: string;
  readonly port: string;
}

function targetOf(destination: string): Target | null {
  let url: URL;
  try {
    url = new URL(destination);
  } catch {
    return null;
  }
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  return { scheme, host, port: url.port || DEFAULT_PORTS[scheme] || '' };
}

function entryMatches(entry: string, target: Target): boolean {
  const m = /^(?:([a-z]+):\/\/)?(\*\.)?([^:]+)(?::(\d+))?$/.exec(entry);
  if (!m) return false;
  const [, scheme, star, host = '', port] = m;
  if (scheme !== undefined && scheme !== target.scheme) return false;
  if (port !== undefined && port !== target.port) return false;
  return star ? target.host.endsWith(`.${host}`) : target.host === host;
}

/** Whether `destination` (a URL) may be called under `list` (canonical entries; empty = anything). */
export function outgoingAllowed(list: readonly string[], destination: string): boolean {
  if (list.length === 0) return true;
  const target = targetOf(destination);
  if (!target) return false;
  return list.some((entry) => entryMatches(normalizeOutgoingEntry(entry) ?? entry, target));
}

/** Reads an operator's list; the guard asks it on every call so a change applies at once. */
export type OutgoingListSource = (operatorId: number) => Promise<readonly string[]>;

export class OutgoingGuard {
  constructor(
    private readonly listOf: OutgoingListSource,
    /** The address rule every connection then passes (target-guard.ts), whatever the list says. */
    readonly targets: TargetGuard,
  ) {}

  /** Throws OutgoingRefusedError unless the operator may call `destination`. */
  async check(operatorId: number, destination: string): Promise<void> {
    if (!outgoingAllowed(await this.listOf(operatorId), destination)) throw new OutgoingRefusedError(destination);
  }

  /** The check of one operator, for code that takes a plain function (the senders, the providers). */
  of(operatorId: number): OutgoingCheck {
    return (destination) => this.check(operatorId, destination);
  }
}

/** One operator's check: resolves when `destination` may be called, else throws OutgoingRefusedError. */
export type OutgoingCheck = (destination: string) => Promise<void>;

/** No list (installation-level calls made for no operator, and tests of the parts alone). */
export const ANY_DESTINATION: OutgoingCheck = async () => {};
