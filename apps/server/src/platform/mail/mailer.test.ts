import { describe, expect, it } from 'vitest';
import { SecretBox } from '../crypto/secret-box.js';
import { parseSmtpUrl } from './mailer.js';

const box = new SecretBox('x'.repeat(40));

describe('SMTP_URL', () => {
  it('reads host, port, credentials and sender; seals the password', () => {
    const s = parseSmtpUrl('smtp://mailer:p%40ss@mail.example.com:2525?from=Ops%20%3Cops%40example.com%3E', box);
    expect(s).toMatchObject({
      host: 'mail.example.com',
      port: 2525,
      secure: false,
      user: 'mailer',
      from: 'Ops <ops@example.com>',
    });
    expect(s.passwordSealed).not.toContain('p@ss');
    expect(box.open(s.passwordSealed)).toBe('p@ss');
  });

  it('defaults the port by scheme and the sender by host', () => {
    expect(parseSmtpUrl('smtps://mail.example.com', box)).toMatchObject({
      port: 465,
      secure: true,
      from: 'Rampart <noreply@mail.example.com>',
    });
    expect(parseSmtpUrl('smtp://127.0.0.1', box).port).toBe(587);
  });

  it.each(['http://mail.example.com', 'not a url'])('refuses %s', (raw) => {
    expect(() => parseSmtpUrl(raw, box)).toThrow(/SMTP_URL/);
  });
});

describe('SecretBox', () => {
  it('round-trips, uses a fresh IV each time, and detects tampering', () => {
    const a = box.seal('JBSWY3DPEHPK3PXP');
    const b = box.seal('JBSWY3DPEHPK3PXP');
    expect(a).not.toBe(b);
    expect(box.open(a)).toBe('JBSWY3DPEHPK3PXP');
    const [v, iv, tag, body] = a.split('.') as [string, string, string, string];
    const flipped = `${v}.${iv}.${tag}.${body.startsWith('A') ? `B${body.slice(1)}` : `A${body.slice(1)}`}`;
    expect(() => box.open(flipped)).toThrow();
    expect(() => new SecretBox('y'.repeat(40)).open(a)).toThrow();
  });
});
