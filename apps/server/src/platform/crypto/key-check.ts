import type { SettingsRepository } from '../settings/settings.repository.js';
import { deriveKey, hmac } from './keys.js';

/** The system_settings key of the installation's key check values. */
export const KEY_CHECK_SETTING = 'system.keyCheck';

/** Why a control plane refuses to start: its keys are not the installation's. */
export class KeyMismatchError extends Error {}

interface KeyCheck {
  /** Of the installation secret (RAMPART_SECRET or DATA_DIR/secret.key). */
  secret: string;
  /** Of the secret access tokens are signed with (RAMPART_TOKEN_SECRET, else the installation secret). */
  token: string;
}

/** A value that tells secrets apart and reveals nothing of them (a key of its own purpose, over a fixed text). */
function checkValue(secret: string): string {
  return hmac(deriveKey(secret, 'key-check/v1'), 'rampart key check');
}

/**
 * Several control planes on one config store must share their keys: a token signed by one is
 * checked by another, node secrets and other sealed values (secret-box.ts) are opened by whichever
 * control plane a request reaches, and nodes get the same challenge keys from each. A control
 * plane given its own secret — a second DATA_DIR whose secret.key was generated, a missing
 * RAMPART_SECRET — would otherwise run and fail request by request. The config store keeps a check
 * value of the installation secret and of the token signing secret, written by the first control
 * plane to start; a control plane whose installation secret differs is refused at start-up. Its
 * token secret must be the stored one or one of its previous ones (a rotation rolling through the
 * control planes: RAMPART_TOKEN_PREVIOUS_SECRETS), and then becomes the stored one.
 */
export async function checkInstallationKeys(
  settings: SettingsRepository,
  secrets: { secret: string; tokenCurrent: string; tokenPrevious: readonly string[] },
): Promise<void> {
  const mine: KeyCheck = { secret: checkValue(secrets.secret), token: checkValue(secrets.tokenCurrent) };
  const stored = (await settings.putIfAbsent(KEY_CHECK_SETTING, mine)) as KeyCheck;
  if (stored.secret !== mine.secret) {
    throw new KeyMismatchError(
      'this control plane’s secret (RAMPART_SECRET, or DATA_DIR/secret.key when it is unset) is not the one ' +
        'the installation’s config store was set up with: tokens, node secrets and sealed settings of the other ' +
        'control planes would not open here. Give every control plane the same RAMPART_SECRET.',
    );
  }
  if (stored.token === mine.token) return;
  if (!secrets.tokenPrevious.some((previous) => checkValue(previous) === stored.token)) {
    throw new KeyMismatchError(
      'this control plane signs access tokens with a secret (RAMPART_TOKEN_SECRET, else RAMPART_SECRET) that ' +
        'the other control planes of this installation do not accept, and does not accept theirs. Give every ' +
        'control plane the same RAMPART_TOKEN_SECRET; to rotate it, keep the one in use in RAMPART_TOKEN_PREVIOUS_SECRETS.',
    );
  }
  await settings.put(KEY_CHECK_SETTING, mine);
}
