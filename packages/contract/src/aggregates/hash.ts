/**
 * MurmurHash3 x86_128 (Austin Appleby, public domain) over a string's UTF-8 bytes, in 32-bit
 * arithmetic only: fast in JavaScript (no BigInt), and the same in every process, on every
 * machine and in every version of Rampart, which the sketches that keep hashes rely on (a node's
 * address sketch merges with another node's on the control plane). The first 64 bits of the
 * 128 are what the sketches use (hash64). Checked against SMHasher's verification value.
 */

const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;

const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** The hash of `bytes[0, len)` with `seed`, into `out` as four 32-bit words (h1..h4, unsigned). */
export function murmur3x86_128(bytes: Uint8Array, len: number, seed: number, out: Uint32Array): void {
  let h1 = seed | 0;
  let h2 = h1;
  let h3 = h1;
  let h4 = h1;
  const blocks = len - (len % 16);
  for (let i = 0; i < blocks; i += 16) {
    let k1 = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    let k2 = bytes[i + 4]! | (bytes[i + 5]! << 8) | (bytes[i + 6]! << 16) | (bytes[i + 7]! << 24);
    let k3 = bytes[i + 8]! | (bytes[i + 9]! << 8) | (bytes[i + 10]! << 16) | (bytes[i + 11]! << 24);
    let k4 = bytes[i + 12]! | (bytes[i + 13]! << 8) | (bytes[i + 14]! << 16) | (bytes[i + 15]! << 24);
    k1 = Math.imul(rotl(Math.imul(k1, C1), 15), C2);
    h1 ^= k1;
    h1 = (Math.imul(rotl(h1, 19) + h2, 5) + 0x561ccd1b) | 0;
    k2 = Math.imul(rotl(Math.imul(k2, C2), 16), C3);
    h2 ^= k2;
    h2 = (Math.imul(rotl(h2, 17) + h3, 5) + 0x0bcaa747) | 0;
    k3 = Math.imul(rotl(Math.imul(k3, C3), 17), C4);
    h3 ^= k3;
    h3 = (Math.imul(rotl(h3, 15) + h4, 5) + 0x96cd1c35) | 0;
    k4 = Math.imul(rotl(Math.imul(k4, C4), 18), C1);
    h4 ^= k4;
    h4 = (Math.imul(rotl(h4, 13) + h1, 5) + 0x32ac3b17) | 0;
  }
  const tail = len - blocks;
  let k1 = 0;
  let k2 = 0;
  let k3 = 0;
  let k4 = 0;
  if (tail > 12) {
    for (let j = tail - 1; j >= 12; j--) k4 ^= bytes[blocks + j]! << ((j - 12) * 8);
    h4 ^= Math.imul(rotl(Math.imul(k4, C4), 18), C1);
  }
  if (tail > 8) {
    for (let j = Math.min(tail, 12) - 1; j >= 8; j--) k3 ^= bytes[blocks + j]! << ((j - 8) * 8);
    h3 ^= Math.imul(rotl(Math.imul(k3, C3), 17), C4);
  }
  if (tail > 4) {
    for (let j = Math.min(tail, 8) - 1; j >= 4; j--) k2 ^= bytes[blocks + j]! << ((j - 4) * 8);
    h2 ^= Math.imul(rotl(Math.imul(k2, C2), 16), C3);
  }
  if (tail > 0) {
    for (let j = Math.min(tail, 4) - 1; j >= 0; j--) k1 ^= bytes[blocks + j]! << (j * 8);
    h1 ^= Math.imul(rotl(Math.imul(k1, C1), 15), C2);
  }
  h1 ^= len;
  h2 ^= len;
  h3 ^= len;
  h4 ^= len;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h3 = fmix(h3);
  h4 = fmix(h4);
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  out[0] = h1;
  out[1] = h2;
  out[2] = h3;
  out[3] = h4;
}

const encoder = new TextEncoder();
let scratch = new Uint8Array(256);
const words = new Uint32Array(4);

/** A string's UTF-8 bytes in the scratch buffer (ASCII without the encoder); answers their count. */
function utf8(text: string): number {
  if (scratch.length < text.length * 3) scratch = new Uint8Array(text.length * 3);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return encoder.encodeInto(text, scratch).written;
    scratch[i] = c;
  }
  return text.length;
}

/**
 * The first 64 bits of MurmurHash3 x86_128 (seed 0) of `text`'s UTF-8 bytes, as two unsigned
 * 32-bit halves: `hi` is h2, `lo` is h1 (the 64-bit little-endian word of the hash's first 8 bytes).
 * The answer object is reused by the next call.
 */
export const hashOut = { hi: 0, lo: 0 };
export function hash64(text: string): typeof hashOut {
  const len = utf8(text);
  murmur3x86_128(scratch, len, 0, words);
  hashOut.lo = words[0]!;
  hashOut.hi = words[1]!;
  return hashOut;
}
