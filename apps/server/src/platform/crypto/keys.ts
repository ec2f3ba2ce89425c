import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Keys derived from the installation secret (RAMPART_SECRET or DATA_DIR/secret.key), one per
 * purpose, so that no two uses share a key and none is stored.
 */
export function deriveKey(secret: string, purpose: string, length = 32): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'rampart', purpose, length));
}

/** SHA-256 hex: how bearer secrets (refresh tokens, tickets, e-mail tokens) are stored. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Keyed hash for short secrets (6-digit codes) that a plain hash would let anyone brute-force offline. */
export function hmac(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A random bearer secret with a readable prefix (`rt_`, `pk_`, ...), 256 bits. */
export function randomToken(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** A uniformly random n-digit code. */
export function randomDigits(n: number): string {
  let out = '';
  while (out.length < n) {
    const byte = randomBytes(1)[0] as number;
    if (byte < 250) out += String(byte % 10); // 250 = 25 × 10: no modulo bias
  }
  return out;
}
