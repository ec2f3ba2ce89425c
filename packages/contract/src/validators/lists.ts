import { MAX_IPS } from '../constants.js';
import type { ValidationResult } from '../validation-messages.js';
import { validateDomainName } from './domain.js';
import { canonicalIPEntry, isIPv4, isIPv6 } from './ip.js';

// Spec part 1 §5 / §9: at most 5000 entries per IP list (value in constants.ts).
export { MAX_IPS };

const OK: ValidationResult = { ok: true };

/** Lines of a text area: split on `\n` or `\r\n`, each trimmed, blank lines dropped. */
export function splitLines(text: string): string[] {
  return numberedLines(text).map((l) => l.value);
}

/**
 * Like {@link splitLines} but keeps each entry's 1-based line number in the original text
 * (blank lines counted), so an error points at the line the user sees in the text area.
 */
export function numberedLines(text: string): { readonly line: number; readonly value: string }[] {
  const out: { line: number; value: string }[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const value = raw.trim();
    if (value !== '') out.push({ line: i + 1, value });
  });
  return out;
}

const PORT_RE = /^[1-9]\d{0,4}$/;
// Path and query: no whitespace or control characters, no characters that RFC 3986 never allows
// unescaped, and every `%` starts a two-digit escape. A fragment is refused: it never reaches the server.
const PATH_QUERY_RE = /^(?:[/?](?:[^\s\p{Cc}"<>\\^`{|}#%]|%[0-9a-fA-F]{2})*)?$/u;

/**
 * An absolute http(s) URL: scheme `http` or `https`, a host that is a domain name (IDN allowed),
 * an IPv4 address or a bracketed IPv6 address, an optional port 1–65535, then an optional path
 * and query. User info (`user@host`) is refused: a whitelist entry names a resource, not a login.
 */
export function isHttpUrl(s: string): boolean {
  const m = /^https?:\/\/([^/?#]*)(.*)$/is.exec(s);
  if (m === null) return false;
  const authority = m[1] ?? '';
  const rest = m[2] ?? '';
  if (!PATH_QUERY_RE.test(rest)) return false;

  let host: string;
  let port: string | undefined;
  if (authority.startsWith('[')) {
    const close = authority.indexOf(']');
    if (close < 0) return false;
    if (!isIPv6(authority.slice(1, close))) return false;
    const after = authority.slice(close + 1);
    if (after !== '' && !after.startsWith(':')) return false;
    port = after === '' ? undefined : after.slice(1);
    return port === undefined || isPortText(port);
  }
  const colon = authority.lastIndexOf(':');
  if (colon >= 0) {
    host = authority.slice(0, colon);
    port = authority.slice(colon + 1);
    if (!isPortText(port)) return false;
  } else {
    host = authority;
  }
  if (host === '' || /[\s@]/.test(host)) return false;
  // A dotted-decimal host that is not a valid IPv4 address is refused by the domain check (numeric TLD).
  return isIPv4(host) || validateDomainName(host, { underscore: true }).ok;
}

function isPortText(port: string): boolean {
  return PORT_RE.test(port) && Number(port) <= 65535;
}

/** Whitelist URLs text: one http(s) URL per line (wrongFormat); an empty text is allowed. */
export function validateWhitelistUrls(text: string): ValidationResult {
  for (const { line, value } of numberedLines(text)) {
    if (!isHttpUrl(value)) return { ok: false, key: 'wrongFormat', line, value };
  }
  return OK;
}

/**
 * Blacklist IPs text: one IP, range (`a-b`) or CIDR per line, else wrongFormat. An empty text is
 * allowed (as for the whitelist); when there are entries the IP-list limits apply (no duplicates,
 * at most {@link MAX_IPS}). Lines are numbered as in the text area.
 */
export function validateBlacklistIPs(text: string): ValidationResult {
  const lines = numberedLines(text);
  return lines.length === 0 ? OK : checkEntries(lines);
}

/** An IP list given as text (one entry per line): required, then as {@link validateIPList}. */
export function validateIPListText(text: string): ValidationResult {
  const lines = numberedLines(text);
  return lines.length === 0 ? { ok: false, key: 'required' } : checkEntries(lines);
}

/**
 * An IP list: required (non-empty), at most {@link MAX_IPS} entries (max5000IPs), each a valid
 * IP, range or CIDR (wrongFormat) and no entry twice (duplicateIP, compared in canonical form so
 * `::1` and `0:0::1` collide). `line` is the 1-based position in the array. Entries are taken as
 * given: one with surrounding spaces is wrongFormat.
 */
export function validateIPList(entries: readonly string[]): ValidationResult {
  if (entries.length === 0) return { ok: false, key: 'required' };
  return checkEntries(entries.map((value, i) => ({ line: i + 1, value })));
}

function checkEntries(entries: readonly { readonly line: number; readonly value: string }[]): ValidationResult {
  // The count is checked first: it is cheap and no per-entry fix makes an oversized list valid.
  if (entries.length > MAX_IPS) return { ok: false, key: 'max5000IPs', params: { max: MAX_IPS } };
  return ipEntryProblems(entries)[0] ?? OK;
}

/**
 * Every bad entry of an IP list, in order: each one that is not an IP, range or CIDR
 * (wrongFormat) and each repeat of an earlier one (duplicateIP, canonical forms compared). One pass
 * with a set, so a list of the most entries is checked in linear time; [] when all are good.
 */
export function ipEntryProblems(
  entries: readonly { readonly line: number; readonly value: string }[],
): Exclude<ValidationResult, { ok: true }>[] {
  const seen = new Set<string>();
  const problems: Exclude<ValidationResult, { ok: true }>[] = [];
  for (const { line, value } of entries) {
    const canonical = canonicalIPEntry(value);
    if (canonical === null) problems.push({ ok: false, key: 'wrongFormat', line, value });
    else if (seen.has(canonical)) problems.push({ ok: false, key: 'duplicateIP', line, value });
    else seen.add(canonical);
  }
  return problems;
}
