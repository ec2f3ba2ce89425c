/**
 * Decoding of request URLs: undecodable bytes are never dropped, replaced by U+FFFD or passed on
 * as literal `%XX` text; they become characters every text check refuses, so the binder answers
 * 101003 naming the field (contract `unsafeTextPaths`).
 */

/**
 * The query-string parser of the API. It reads `a=1&b=2&b=3` as Fastify's default does (`+` is a
 * space, a repeated name gives an array), but decodes percent-escapes as UTF-8 with Python's
 * "surrogateescape" rule (PEP 383): each byte that is not part of valid UTF-8 (`%FF`, `%ED%A0%80`,
 * a cut sequence) becomes the unpaired surrogate U+DC80–U+DCFF. Such a value then fails the
 * binder's text check and is refused with 101003 naming the field, instead of reaching a handler
 * as the literal `%ED%A0%80` (the default parser's behaviour) or as text the caller never sent.
 */
export function parseQueryString(text: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = Object.create(null);
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decodeComponent(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decodeComponent(pair.slice(eq + 1));
    const existing = result[key];
    if (existing === undefined) result[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else result[key] = [existing, value];
  }
  return result;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeComponent(component: string): string {
  const plus = component.replaceAll('+', ' ');
  if (!plus.includes('%')) return plus;
  try {
    return decodeURIComponent(plus);
  } catch {
    return decodeLeniently(plus);
  }
}

/** Percent-decoding where undecodable bytes become escaped surrogates and a stray `%` stays itself. */
function decodeLeniently(component: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < component.length; ) {
    const ch = component.charCodeAt(i);
    if (ch === 0x25 && /^[0-9A-Fa-f]{2}$/.test(component.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(component.slice(i + 1, i + 3), 16));
      i += 3;
      continue;
    }
    // A character written as itself: its own UTF-8 bytes (a pair of surrogates is one code point).
    const cp = component.codePointAt(i) ?? ch;
    bytes.push(...Buffer.from(String.fromCodePoint(cp), 'utf8'));
    i += cp > 0xffff ? 2 : 1;
  }
  return surrogateEscape(Uint8Array.from(bytes));
}

/** Expected length of a UTF-8 sequence from its lead byte; 0 for a byte that cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function surrogateEscape(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const length = sequenceLength(bytes[i] ?? 0);
    if (length > 0 && i + length <= bytes.length) {
      try {
        out += utf8.decode(bytes.subarray(i, i + length));
        i += length;
        continue;
      } catch {
        // not a valid sequence (an encoded surrogate, an overlong form, a bad continuation byte)
      }
    }
    out += String.fromCharCode(0xdc00 + (bytes[i] ?? 0));
    i += 1;
  }
  return out;
}

/**
 * The URL with each byte of its path that is not part of valid UTF-8 (`/site/%ED%A0%80`) written
 * as `%00`, so that the router can match the route and the binder refuses the parameter holding
 * it (101003, invalidCharacter) instead of the router refusing the whole URL without naming a
 * field. The query string is left alone (see {@link parseQueryString}); a valid URL is returned
 * unchanged.
 */
export function escapeUndecodablePath(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (!path.includes('%')) return url;
  try {
    decodeURI(path);
    decodeURIComponent(path);
    return url;
  } catch {
    // rewritten below
  }
  const fixed = path.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    const bytes = Uint8Array.from(run.slice(1).split('%'), (hex) => Number.parseInt(hex, 16));
    let out = '';
    for (let i = 0; i < bytes.length; ) {
      const length = sequenceLength(bytes[i] ?? 0);
      if (length > 0 && i + length <= bytes.length) {
        try {
          utf8.decode(bytes.subarray(i, i + length));
          out += run.slice(i * 3, (i + length) * 3);
          i += length;
          continue;
        } catch {
          // an invalid sequence: its lead byte is replaced below
        }
      }
      out += '%00';
      i += 1;
    }
    return out;
  });
  return q < 0 ? fixed : fixed + url.slice(q);
}
