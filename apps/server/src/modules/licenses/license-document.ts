import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { INVALID_LICENSE_KEY, type LicenseSetting, licenseSettingSchema } from '@rampart/contract';
import { z } from 'zod';
import { AppError } from '../../platform/errors/app-error.js';

/**
 * Offline licence documents (docs/decisions.md "Licences"): `RL1.<payload>.<signature>`, both parts
 * base64url, the payload JSON, the signature Ed25519 over `RL1.<payload>` by one of the vendor's keys.
 * Verification needs no network: the public keys are built into the control plane
 * (vendor-keys.ts), each with an id (`kid`) the document names, so the vendor can rotate keys.
 */

const PREFIX = 'RL1';

export const licensePayloadSchema = z.object({
  v: z.literal(1),
  kid: z.string().min(1),
  /** The vendor's offline licence id (its admin/license/offlines row). */
  id: z.number().int(),
  installId: z.string().min(1),
  /**
   * The sign-in account of the one operator of the installation the licence is for. Absent from
   * documents issued before licences named their operator: such a document is taken by the first
   * operator of the installation that activates it, and refused to any other (licenses.service.ts).
   */
  operator: z.string().min(1).optional(),
  customer: z.string(),
  settings: licenseSettingSchema,
  issuedAt: z.string(),
});
export type LicensePayload = z.infer<typeof licensePayloadSchema>;

/** A public key the control plane trusts: the raw 32-byte Ed25519 key, base64. */
export interface VendorPublicKey {
  readonly kid: string;
  readonly publicKey: string;
}

/** The vendor's signing key: PKCS#8 PEM of an Ed25519 private key, with the id of its public half. */
export interface VendorSigningKey {
  readonly kid: string;
  readonly privateKeyPem: string;
}

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

function publicKeyObject(raw: string): KeyObject {
  return createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(raw, 'base64')]),
    format: 'der',
    type: 'spki',
  });
}

/** The raw public key (base64) of a PEM private key: what vendor-keys.ts lists for it. */
export function rawPublicKeyOf(privateKeyPem: string): string {
  const der = createPublicKey(createPrivateKey(privateKeyPem)).export({ format: 'der', type: 'spki' });
  return der.subarray(ED25519_SPKI_PREFIX.length).toString('base64');
}

export function signLicense(key: VendorSigningKey, payload: Omit<LicensePayload, 'v' | 'kid'>): string {
  const body = `${PREFIX}.${Buffer.from(JSON.stringify({ v: 1, kid: key.kid, ...payload })).toString('base64url')}`;
  const signature = sign(null, Buffer.from(body), createPrivateKey(key.privateKeyPem));
  return `${body}.${signature.toString('base64url')}`;
}

/** Where a licence is activated: this installation and the operator (its sign-in account) activating it. */
export interface LicenseHolder {
  readonly installId: string;
  readonly operator: string;
}

/**
 * The checked payload of `document`: 101003 ('invalid license key') when it is not a licence at all,
 * 900001 when no trusted key signed it as it is or it names another installation or another
 * operator, 101019 past its expiry.
 */
export function verifyLicense(
  document: string,
  trusted: readonly VendorPublicKey[],
  holder: LicenseHolder,
  now: Date,
): LicensePayload {
  const parts = document.trim().split('.');
  const invalid = () => new AppError(101003, { extra: INVALID_LICENSE_KEY });
  if (parts.length !== 3 || parts[0] !== PREFIX || !parts[1] || !parts[2]) throw invalid();
  let payload: LicensePayload;
  try {
    payload = licensePayloadSchema.parse(JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')));
  } catch {
    throw invalid();
  }
  const key = trusted.find((k) => k.kid === payload.kid);
  if (!key) throw new AppError(900001);
  const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
  const signature = Buffer.from(parts[2], 'base64url');
  // Base64url decoding ignores some changed characters; the re-encoded form must be what was sent.
  if (
    signature.toString('base64url') !== parts[2] ||
    !verify(null, signed, publicKeyObject(key.publicKey), signature)
  ) {
    throw new AppError(900001);
  }
  if (payload.installId !== holder.installId) throw new AppError(900001);
  if (payload.operator !== undefined && payload.operator !== holder.operator) throw new AppError(900001);
  if (new Date(payload.settings.expiredAt) <= now) throw new AppError(101019);
  return payload;
}

export type { LicenseSetting };
