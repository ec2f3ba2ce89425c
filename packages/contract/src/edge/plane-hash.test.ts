import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, entryHash, PLANE_HASH_MODULUS, planeHash, updatePlaneHash } from './plane-hash.js';

describe('plane hashes', () => {
  it('writes canonical JSON: keys sorted at every depth, arrays in order, undefined members left out', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null }, u: undefined })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson({ x: 'é"' })).toBe(JSON.stringify({ x: 'é"' }));
  });

  it('hashes kind, key and value with NUL separators into 12 hex digits', () => {
    const expected = createHash('sha256').update('domain\0a.example\0{"id":1,"name":"a.example"}').digest('hex');
    expect(entryHash('domain', 'a.example', { name: 'a.example', id: 1 })).toBe(expected.slice(0, 12));
    // The key is part of the hash: the same value under another key differs.
    expect(entryHash('cache', '1', { id: 1 })).not.toBe(entryHash('cache', '2', { id: 1 }));
    expect(entryHash('cache', '1', { id: 1 })).not.toBe(entryHash('settings', '1', { id: 1 }));
  });

  it('sums entry hashes modulo 2^48, in any order, and updates by subtracting the old and adding the new', () => {
    const hashes = ['ffffffffffff', '000000000002', '123456789abc'];
    const sum = (0xffffffffffff + 2 + 0x123456789abc) % PLANE_HASH_MODULUS;
    expect(planeHash(hashes)).toBe(sum.toString(16).padStart(12, '0'));
    expect(planeHash([...hashes].reverse())).toBe(planeHash(hashes));
    expect(planeHash([])).toBe('000000000000');
    // Replace, add, delete: each equals the sum computed from scratch.
    const all = planeHash(hashes);
    expect(updatePlaneHash(all, '000000000002', 'aaaaaaaaaaaa')).toBe(
      planeHash(['ffffffffffff', 'aaaaaaaaaaaa', '123456789abc']),
    );
    expect(updatePlaneHash(all, undefined, '000000000007')).toBe(planeHash([...hashes, '000000000007']));
    expect(updatePlaneHash(all, 'ffffffffffff', undefined)).toBe(planeHash(['000000000002', '123456789abc']));
  });
});
