import argon2 from 'argon2';
import { describe, expect, it } from 'vitest';
import { hashPassword, isCommonPassword, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('hashes with argon2id at m=19456 KiB, t=2, p=1', async () => {
    const hash = await hashPassword('correct horse battery staple');
    const [, algorithm, version, params] = hash.split('$');
    expect([algorithm, version]).toEqual(['argon2id', 'v=19']);
    expect(Object.fromEntries((params ?? '').split(',').map((kv) => kv.split('=')))).toEqual({
      m: '19456',
      t: '2',
      p: '1',
    });
  });

  it('uses all of a 100-character password: changing the 80th character fails', async () => {
    const password = `${'a'.repeat(79)}B${'c'.repeat(20)}`;
    const hash = await hashPassword(password);
    expect((await verifyPassword(hash, password)).ok).toBe(true);
    expect((await verifyPassword(hash, `${'a'.repeat(79)}b${'c'.repeat(20)}`)).ok).toBe(false);
  });

  it('asks for a rehash of a hash made with weaker parameters', async () => {
    const weak = await argon2.hash('pw-weak-params', { type: argon2.argon2id, memoryCost: 4096, timeCost: 1 });
    expect(await verifyPassword(weak, 'pw-weak-params')).toEqual({ ok: true, needsRehash: true });
  });

  it('fails without a hash, and on a malformed hash', async () => {
    expect((await verifyPassword(null, 'x')).ok).toBe(false);
    expect((await verifyPassword('not-a-hash', 'x')).ok).toBe(false);
  });

  it.each([
    ['password', true],
    ['Password', true],
    ['123456', true],
    ['qwerty', true],
    ['dragon', true],
    ['horse battery st', false],
    ['blue ocean wind', false],
  ])('treats %s as common: %s', (pw, common) => {
    expect(isCommonPassword(pw)).toBe(common);
  });
});
