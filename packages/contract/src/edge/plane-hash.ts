import { createHash } from 'node:crypto';

/**
 * The hashes of the data plane's entries (docs/data-plane-deltas.md "Entries"), shared by the
 * control plane and the agent. Node-only (node:crypto): a subpath of the contract, not in its index.
 */

/** 2^48: entry hashes are 48-bit numbers, so sums stay exact in doubles (Lua, JSON) below 2^53. */
export const PLANE_HASH_MODULUS = 2 ** 48;

/** JSON with every object's keys sorted (arrays keep their order): equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value))
    return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object)
    .filter((key) => object[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key])}`).join(',')}}`;
}

/** sha256(kind + "\0" + key + "\0" + canonicalJson(value)), its first 12 hex digits. */
export function entryHash(kind: string, key: string, value: unknown): string {
  return createHash('sha256')
    .update(`${kind}\0${key}\0${canonicalJson(value)}`)
    .digest('hex')
    .slice(0, 12);
}

/** A 12-hex-digit hash as a number (below 2^48). */
export function hashNumber(hash: string): number {
  return Number.parseInt(hash, 16);
}

/** A number below 2^48 as 12 hex digits. */
export function hashText(n: number): string {
  return n.toString(16).padStart(12, '0');
}

/** The plane hash: the sum of the entry hashes modulo 2^48, order-independent. */
export function planeHash(entryHashes: Iterable<string>): string {
  let sum = 0;
  for (const hash of entryHashes) sum = (sum + hashNumber(hash)) % PLANE_HASH_MODULUS;
  return hashText(sum);
}

/** The plane hash with one entry's hash replaced: `old` (absent: added) out, `next` (absent: deleted) in. */
export function updatePlaneHash(plane: string, old: string | undefined, next: string | undefined): string {
  let sum = hashNumber(plane);
  if (old !== undefined) sum = (sum - hashNumber(old) + PLANE_HASH_MODULUS) % PLANE_HASH_MODULUS;
  if (next !== undefined) sum = (sum + hashNumber(next)) % PLANE_HASH_MODULUS;
  return hashText(sum);
}
