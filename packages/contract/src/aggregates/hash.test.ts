import { describe, expect, it } from 'vitest';
import { hash64, murmur3x86_128 } from './hash.js';

describe('MurmurHash3 x86_128', () => {
  it("matches SMHasher's verification value (0xB3ECE62A)", () => {
    const key = new Uint8Array(256);
    const hashes = new Uint8Array(16 * 256);
    const view = new DataView(hashes.buffer);
    const out = new Uint32Array(4);
    for (let i = 0; i < 256; i++) {
      key[i] = i;
      murmur3x86_128(key, i, 256 - i, out);
      for (let j = 0; j < 4; j++) view.setUint32(i * 16 + j * 4, out[j]!, true);
    }
    murmur3x86_128(hashes, hashes.length, 0, out);
    expect(out[0]).toBe(0xb3ece62a);
  });

  it('hashes a string by its UTF-8 bytes, ASCII or not', () => {
    const out = new Uint32Array(4);
    for (const text of ['', '192.0.2.1', '2001:db8::1', 'Ünïcödé ✓ 😀', 'x'.repeat(300)]) {
      const bytes = new TextEncoder().encode(text);
      murmur3x86_128(bytes, bytes.length, 0, out);
      const { hi, lo } = hash64(text);
      expect([lo, hi]).toEqual([out[0], out[1]]);
    }
    const first = { ...hash64('192.0.2.1') };
    expect({ ...hash64('192.0.2.2') }).not.toEqual(first);
  });
});
