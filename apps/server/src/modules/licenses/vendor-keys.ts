import type { VendorPublicKey } from './license-document.js';

/**
 * The vendor's public keys every control plane trusts for offline licences, newest first. Rotation
 * (docs/decisions.md "Licences"): add the new key here and release; sign with it once installs run
 * that release; remove an old key only when no licence it signed is still in use. A key listed here
 * can never be set from the environment: an operator could otherwise sign its own licences.
 */
export const VENDOR_PUBLIC_KEYS: readonly VendorPublicKey[] = [
  { kid: 'rampart-2026-1', publicKey: 'FwMZPFb/5k2hW2+Uo284BXVnjr1O3JbtC8UjFfvMpcU=' },
];
