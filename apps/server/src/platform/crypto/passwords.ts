import { dictionary } from '@zxcvbn-ts/language-common';
import argon2 from 'argon2';

/**
 * Password hashing: argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane). Hashes made with
 * weaker parameters are upgraded at the next successful login. The whole password is hashed: no
 * truncation, no case folding.
 */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
}

// A real hash to verify against when an account does not exist, so that the answer takes as long
// as for an existing account (no timing oracle for account names).
let dummyHash: Promise<string> | null = null;

/** Checks a password; `hash` null (unknown account, or no password yet) always fails, in the same time. */
export async function verifyPassword(
  hash: string | null,
  password: string,
): Promise<{ ok: boolean; needsRehash: boolean }> {
  if (hash === null) {
    dummyHash ??= hashPassword('rampart-timing-equaliser');
    await argon2.verify(await dummyHash, password);
    return { ok: false, needsRehash: false };
  }
  let ok = false;
  try {
    ok = await argon2.verify(hash, password);
  } catch {
    ok = false; // a malformed stored hash is a failed login, not a 500
  }
  return { ok, needsRehash: ok && argon2.needsRehash(hash, ARGON2_OPTIONS) };
}

/** The 3,000 most common passwords (zxcvbn's ranked list), compared case-insensitively. */
const COMMON = new Set(dictionary['passwords-common'].slice(0, 3000).map((p) => p.toLowerCase()));

export function isCommonPassword(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}
