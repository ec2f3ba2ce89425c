import type { FastifyBaseLogger } from 'fastify';
import { decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors/app-error.js';
import type { SessionsRepository } from './sessions.repository.js';
import { TokenService } from './token.service.js';

// Access-token key rotation (security list item 40): tokens name their key; a previous key verifies
// during the overlap and stops when it is removed from the configuration.
const OLD = 'old-secret-0123456789-0123456789-0123456789';
const NEW = 'new-secret-0123456789-0123456789-0123456789';
const now = () => Date.parse('2026-11-22T12:00:00Z');
const claims = { tier: 'user' as const, accountId: 7, sessionId: '5b0f0a86-2c3f-4a8e-9d57-3f5b7e2b9c10' };

function service(secret: string, previous: string[] = []) {
  return new TokenService(
    secret,
    {} as SessionsRepository,
    now,
    { warn: () => undefined } as unknown as FastifyBaseLogger,
    900,
    previous,
  );
}

async function code(promise: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

describe('access-token key rotation', () => {
  it('names the signing key, verifies the previous key during the overlap, and refuses it once retired', async () => {
    const before = await service(OLD).mintApiAccess(claims, 600);
    const oldKid = decodeProtectedHeader(before).kid;
    expect(oldKid).toMatch(/^[0-9a-f]{16}$/);
    expect(before).not.toContain(OLD);

    const overlap = service(NEW, [OLD]);
    expect(await overlap.verifyAccess(before)).toEqual(claims);
    const after = await overlap.mintApiAccess(claims, 600);
    expect(decodeProtectedHeader(after).kid).not.toBe(oldKid);
    expect(await overlap.verifyAccess(after)).toEqual(claims);

    const retired = service(NEW);
    expect(await code(retired.verifyAccess(before))).toBe(101013);
    expect(await code(retired.verifyAccess(after))).toBe('ok');
  });

  it('refuses a token naming an unknown key, or a known key id with a signature of another key', async () => {
    const token = await service(OLD).mintApiAccess(claims, 600);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const json = JSON.parse(Buffer.from(header, 'base64url').toString());
    const unknown = Buffer.from(JSON.stringify({ ...json, kid: '0000000000000000' })).toString('base64url');
    expect(await code(service(OLD).verifyAccess(`${unknown}.${payload}.${signature}`))).toBe(101013);
    // The new key's id on a token signed with the old key: the signature does not match.
    const newKid = decodeProtectedHeader(await service(NEW).mintApiAccess(claims, 600)).kid;
    const swapped = Buffer.from(JSON.stringify({ ...json, kid: newKid })).toString('base64url');
    expect(await code(service(NEW, [OLD]).verifyAccess(`${swapped}.${payload}.${signature}`))).toBe(101013);
  });
});
