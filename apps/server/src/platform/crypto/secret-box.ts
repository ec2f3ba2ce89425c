import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey } from './keys.js';

/**
 * Encryption at rest for secrets kept in the config store (TOTP seeds, SMTP passwords, private
 * keys): AES-256-GCM with a key derived from the installation secret. Format
 * `v1.<iv>.<tag>.<ciphertext>` (base64url); the version lets a later key rotation read old values.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = deriveKey(secret, 'secret-box/v1');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
      '.',
    );
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
