// The npm `punycode` package ships no type declarations (and @types/punycode is not installed), so
// its import is untyped; the few functions used here are typed by the cast below. The `/punycode.js`
// subpath matters: the bare name `punycode` resolves to Node's deprecated built-in on the server.
// @ts-expect-error TS7016: untyped CommonJS module
import punycodeModule from 'punycode/punycode.js';
import { DOMAIN_LABEL_MAX } from '../constants.js';

const punycode = punycodeModule as {
  decode(input: string): string;
  encode(input: string): string;
};

export const DOMAIN_REASONS = [
  'invalid_type',
  'punycode_error',
  'invalid_format',
  'invalid_sld_length',
  'invalid_sld_underscore',
  'invalid_tld',
] as const;
export type DomainReason = (typeof DOMAIN_REASONS)[number];

export type DomainNameResult =
  | { readonly ok: true; readonly ascii: string }
  | { readonly ok: false; readonly reason: DomainReason };

export interface DomainNameOptions {
  /** Accept a leading `*.` label (default false). */
  readonly wildcard?: boolean;
  /** Accept `_` in labels other than the second-level one, e.g. `_dmarc.example.com` (default true). */
  readonly underscore?: boolean;
}

export { DOMAIN_LABEL_MAX };
/** Longest domain name in its ASCII form (RFC 1035 text form without the trailing dot). */
export const DOMAIN_NAME_MAX = 253;

const ACE_PREFIX = 'xn--';
const TLD_RE = /^[a-z]{2,}$/;
const LABEL_RE = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const LABEL_UNDERSCORE_RE = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/;

// Characters that end or change a URL host (and spaces, controls): refused before the host parser
// could read them as something else (`%61` as `a`, `a@b` as a user name).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const HOST_FORBIDDEN_RE = /[\s\u0000-\u001f\u007f/\\?#@:%[\]<>^|"'`]/u;

/**
 * The ASCII form of a host name by UTS #46 processing, as browsers and Node read a URL's host
 * (WHATWG URL: non-transitional, CheckJoiners): fullwidth letters and dots are mapped to ASCII,
 * letters are case-folded, ignorable characters (zero-width space, soft hyphen) are removed, a
 * joiner out of context or an invalid A-label fails (null). `.x` is appended so that a name ending
 * in digits is never read as an IPv4 address.
 */
function uts46ToASCII(name: string): string | null {
  try {
    const host = new URL(`http://${name}.x/`).hostname;
    return host.endsWith('.x') ? host.slice(0, -2) : null;
  } catch {
    return null;
  }
}

/**
 * Validates a domain name and returns its ASCII (Punycode) form, spec part 1 §5. The input is
 * trimmed and mapped by UTS #46 first (see {@link uts46ToASCII}), so `München.DE`, `münchen.de`
 * and `ｍüｎｃｈｅｎ．ｄｅ` all give `xn--mnchen-3ya.de`, and a zero-width space disappears
 * rather than becoming part of a Punycode label. Checks run from the most specific reason to the
 * generic one: a 64-character second-level label reports invalid_sld_length rather than invalid_format.
 */
export function validateDomainName(input: unknown, opts: DomainNameOptions = {}): DomainNameResult {
  const wildcard = opts.wildcard ?? false;
  const underscore = opts.underscore ?? true;
  if (typeof input !== 'string') return fail('invalid_type');

  let name = input.trim();
  if (HOST_FORBIDDEN_RE.test(name)) return fail('invalid_format');
  let prefix = '';
  if (wildcard && name.startsWith('*.')) {
    prefix = '*.';
    name = name.slice(2);
  }

  const ascii = uts46ToASCII(name);
  if (ascii === null) return fail('punycode_error');
  try {
    // Decoding each A-label (and re-encoding it to the same text) is what tells a real A-label
    // from garbage such as `xn--zz`.
    for (const label of ascii.split('.')) {
      if (label.startsWith(ACE_PREFIX) && punycode.encode(punycode.decode(label.slice(4))) !== label.slice(4)) {
        return fail('punycode_error');
      }
    }
  } catch {
    return fail('punycode_error');
  }

  const labels = ascii.split('.');
  // A trailing dot (fully qualified form) is refused as a format error rather than read as an empty TLD.
  if (labels.length < 2 || ascii.endsWith('.')) return fail('invalid_format');
  const tld = labels[labels.length - 1] ?? '';
  const sld = labels[labels.length - 2] ?? '';
  if (sld.length < 1 || sld.length > DOMAIN_LABEL_MAX) return fail('invalid_sld_length');
  if (sld.includes('_')) return fail('invalid_sld_underscore');
  if (!TLD_RE.test(tld) && !(tld.startsWith(ACE_PREFIX) && LABEL_RE.test(tld))) return fail('invalid_tld');

  const full = prefix + ascii;
  const labelRe = underscore ? LABEL_UNDERSCORE_RE : LABEL_RE;
  if (full.length > DOMAIN_NAME_MAX) return fail('invalid_format');
  for (const label of labels) {
    if (label.length > DOMAIN_LABEL_MAX || !labelRe.test(label)) return fail('invalid_format');
  }
  return { ok: true, ascii: full };
}

function fail(reason: DomainReason): DomainNameResult {
  return { ok: false, reason };
}
