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
  // One path, pushed and popped: joined only for a string found (a node's aggregate batch is
  // millions of values; a path array per value cost more than parsing the body).
  const path: string[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (typeof node === 'string') {
      if (hasUnsafeCharacter(node)) found.push(path.join('.'));
      return;
    }
    if (depth > maxDepth || typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        const item: unknown = node[index];
        // Only strings and containers hold text: a number needs no path.
        if (typeof item !== 'string' && (typeof item !== 'object' || item === null)) continue;
        path.push(String(index));
        walk(item, depth + 1);
        path.pop();
      }
      return;
    }
    if (!isPlainObject(node)) return;
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      const safeKey = hasUnsafeCharacter(key) ? key.replace(new RegExp(UNSAFE_TEXT_RE.source, 'gu'), '\uFFFD') : key;
      path.push(safeKey);
      if (safeKey !== key) found.push(path.join('.'));
      walk(node[key], depth + 1);
      path.pop();
    }
  };
  walk(value, 0);
  return found;
}
