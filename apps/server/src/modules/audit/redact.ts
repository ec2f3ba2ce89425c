/**
 * Field names whose values never reach the audit log (compared without case, `_` and `-`); a log
 * push webhook's `headerValue` is usually a receiver's token.
 */
const SECRET_NAME =
  /pass(word|phrase)|secret|tokens?$|(^|private|api|access|signing)key(pem)?$|seed$|^code$|credential|^headervalue$/;

export const REDACTED = '[redacted]';
/** Strings longer than this are cut: a body is evidence of what changed, not a copy of uploads. */
const MAX_STRING = 2048;
const MAX_DEPTH = 8;

/**
 * A copy of a request body safe to keep: every value under a secret-looking name (passwords,
 * keys, tokens, private keys, second-factor codes) becomes `[redacted]`, long strings are cut.
 */
export function redactBody(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) return value.map((item) => redactBody(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    out[name] = isSecretName(name) ? REDACTED : redactBody(item, depth + 1);
  }
  return out;
}

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name.toLowerCase().replace(/[_-]/g, ''));
}
