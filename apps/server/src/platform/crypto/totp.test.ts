import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUri, timeStep, totpAt } from './totp.js';

// RFC 6238 appendix B (SHA-1 seed "12345678901234567890"), truncated to the 6 digits apps show.
const RFC_SEED = base32Encode(Buffer.from('12345678901234567890'));

describe('TOTP', () => {
  it.each([
    [59, '287082'],
    [1111111109, '081804'],
    [1111111111, '050471'],
    [1234567890, '005924'],
    [2000000000, '279037'],
  ])('matches the RFC 6238 vector at %i s', (seconds, code) => {
    expect(totpAt(RFC_SEED, timeStep(seconds * 1000))).toBe(code);
  });

  it('matches the RFC 4226 HOTP vectors', () => {
    const key = Buffer.from('12345678901234567890');
    expect([0, 1, 2, 9].map((c) => hotp(key, c))).toEqual(['755224', '287082', '359152', '520489']);
  });

  it('accepts the steps t-1, t and t+1 and refuses t-2 and t+2', () => {
    const now = 1_700_000_000_000;
    const t = timeStep(now);
    for (const d of [-1, 0, 1]) expect(matchTotp(RFC_SEED, totpAt(RFC_SEED, t + d), now)).toBe(t + d);
    for (const d of [-2, 2]) expect(matchTotp(RFC_SEED, totpAt(RFC_SEED, t + d), now)).toBeNull();
    expect(matchTotp(RFC_SEED, '12345', now)).toBeNull();
  });

  it('round-trips base32 and builds an otpauth URI', () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255, 7, 8]);
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    expect(otpauthUri('ABC', 'Rampart', 'admin')).toBe(
      'otpauth://totp/Rampart%3Aadmin?secret=ABC&issuer=Rampart&algorithm=SHA1&digits=6&period=30',
    );
  });
});
