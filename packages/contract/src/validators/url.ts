import { validateDomainName } from './domain.js';
import { validatePort } from './fields.js';
import { isIPv4 } from './ip.js';

/**
 * Hosts and ports inside URL-like fields (CORS origins, redirect targets). The host is read like
 * every other domain name of the API (UTS #46 mapping, then the label rules, see domain.ts), the
 * port must be 1–65535, and the output is the canonical ASCII form the edge compares with what
 * browsers send (an `Origin` header always carries the Punycode form).
 */

/** A single-label host such as `localhost` (an origin of a development machine). */
const SINGLE_LABEL_RE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export type HostPortResult =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly key: 'wrongFormat' | 'invalidPort' };

/** `host[:port]` in ASCII, with `*.` before the host when `wildcard` allows it, or why not. */
export function normalizeHostPort(authority: string, opts: { readonly wildcard?: boolean } = {}): HostPortResult {
  const m = /^(\*\.)?([^:]*)(?::([^:]*))?$/u.exec(authority);
  if (!m) return { ok: false, key: 'wrongFormat' };
  const [, star = '', rawHost = '', port] = m;
  if (star !== '' && !opts.wildcard) return { ok: false, key: 'wrongFormat' };
  let host: string;
  if (isIPv4(rawHost) && star === '') {
    host = rawHost;
  } else {
    const domain = validateDomainName(rawHost, { underscore: false });
    if (domain.ok) host = domain.ascii;
    else if (star === '' && SINGLE_LABEL_RE.test(rawHost.toLowerCase())) host = rawHost.toLowerCase();
    else return { ok: false, key: 'wrongFormat' };
  }
  if (port !== undefined) {
    const checked = validatePort(port);
    if (!checked.ok) return { ok: false, key: checked.key === 'invalidPort' ? 'invalidPort' : 'wrongFormat' };
  }
  return { ok: true, value: `${star}${host}${port === undefined ? '' : `:${port}`}` };
}

/** A CORS origin: `*`, or `http(s)://[*.]host[:port]` in its canonical ASCII form. */
export function normalizeCorsOrigin(input: string): HostPortResult {
  if (input === '*') return { ok: true, value: '*' };
  const m = /^(https?):\/\/([^/?#\s]+)$/iu.exec(input);
  if (!m) return { ok: false, key: 'wrongFormat' };
  const hostPort = normalizeHostPort(m[2] ?? '', { wildcard: true });
  return hostPort.ok ? { ok: true, value: `${(m[1] ?? '').toLowerCase()}://${hostPort.value}` } : hostPort;
}

/**
 * A redirect target: a path (returned as given) or `http(s)://host[:port]/path` with the host and
 * port made canonical; the path itself is judged by the route's own pattern.
 */
export function normalizeRedirectTarget(input: string): HostPortResult {
  if (input.startsWith('/')) return { ok: true, value: input };
  const m = /^(https?):\/\/([^/?#\s]+)(\/.*)$/isu.exec(input);
  if (!m) return { ok: false, key: 'wrongFormat' };
  const hostPort = normalizeHostPort(m[2] ?? '');
  return hostPort.ok ? { ok: true, value: `${(m[1] ?? '').toLowerCase()}://${hostPort.value}${m[3]}` } : hostPort;
}
