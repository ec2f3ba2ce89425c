/**
 * Characters no text field of the API accepts: NUL, which PostgreSQL cannot store in text or
 * JSON and C code (nginx, Lua strings handed to C) reads as the end of a string, and UTF-16
 * surrogates that are not part of a pair, which have no UTF-8 encoding (a JSON `"\ud800"`
 * escape, or `%ED%A0%80` in a query string, produces one). Paired surrogates (an emoji) are
 * fine: with the `u` flag the class below only matches a surrogate standing alone.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this pattern looks for
const UNSAFE_TEXT_RE = /[\u0000\uD800-\uDFFF]/u;

/** True when the text holds a NUL or an unpaired surrogate. */
export function hasUnsafeCharacter(text: string): boolean {
  return UNSAFE_TEXT_RE.test(text);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  // Query strings and path parameters are parsed into objects without Object.prototype (a null
  // prototype, or a class whose prototype has none); a Buffer or a Date is not a plain object.
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * The dotted paths of every string inside a request part (a body, a query, path parameters) that
 * holds an unsafe character, object keys included (a key is reported by its own path). The walk
 * covers every field whether or not a schema declares it, so no field can be forgotten. Paths
 * show an unsafe character of a key as U+FFFD, so the reply never echoes it.
 */
export function unsafeTextPaths(value: unknown, maxDepth = 64): string[] {
  const found: string[] = [];
  const walk = (node: unknown, path: readonly string[], depth: number): void => {
    if (typeof node === 'string') {
      if (hasUnsafeCharacter(node)) found.push(path.join('.'));
      return;
    }
    if (depth > maxDepth) return;
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) walk(item, [...path, String(index)], depth + 1);
      return;
    }
    if (!isPlainObject(node)) return;
    for (const [key, item] of Object.entries(node)) {
      const safeKey = key.replace(new RegExp(UNSAFE_TEXT_RE.source, 'gu'), '\uFFFD');
      if (safeKey !== key) found.push([...path, safeKey].join('.'));
      walk(item, [...path, safeKey], depth + 1);
    }
  };
  walk(value, [], 0);
  return found;
}
