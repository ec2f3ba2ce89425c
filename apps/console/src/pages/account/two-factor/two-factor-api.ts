import { authRoutes, LOGIN_2FA_TYPES, type Tier } from '@rampart/contract';
import { callAuthed } from '../../../session';

/** A second factor an account may choose for itself (0 none, 1 e-mail, 3 authenticator). */
export type SettableLogin2FAType = 0 | 1 | 3;

export const SETTABLE_TYPES: readonly SettableLogin2FAType[] = [
  LOGIN_2FA_TYPES.none,
  LOGIN_2FA_TYPES.email,
  LOGIN_2FA_TYPES.totp,
];

/** The authenticator secret of phase 1: a QR code (data: URL of a PNG) and its otpauth:// URI. */
export interface TotpEnrollment {
  onePassKey: string;
  qrCode: string;
  qrCodeData: string;
}

/** Before phase 0 while e-mail codes are on: mails the code that phase 0 then asks for. */
export async function sendTwoFactorChangeCode(tier: Tier): Promise<void> {
  await callAuthed(tier, authRoutes.totpPhase0Code, { params: { auth: tier } });
}

/**
 * Phase 0 (the password, and a code of the second factor that is on: the authenticator's or the mailed one) and, for an authenticator, phase 1 (a new secret). Resolves with the
 * enrollment to confirm, or null when `type` needs no confirmation and phase 2 is done already.
 */
export async function startTwoFactorChange(
  tier: Tier,
  type: SettableLogin2FAType,
  password: string,
  /** A code of the second factor that is on now (the server asks for it while one is). */
  currentCode?: string,
): Promise<TotpEnrollment | null> {
  const params = { auth: tier };
  const body = currentCode ? { password, code: currentCode } : { password };
  const { onePassKey } = (await callAuthed(tier, authRoutes.totpPhase0, { params, body })).data;
  if (type === LOGIN_2FA_TYPES.totp) {
    const { qrCode, qrCodeData } = (await callAuthed(tier, authRoutes.totpPhase1, { params, body: { onePassKey } }))
      .data;
    return { onePassKey, qrCode, qrCodeData };
  }
  await finishTwoFactorChange(tier, onePassKey, type);
  return null;
}

/** Phase 2: the choice, with a code from the authenticator when that is the choice. */
export async function finishTwoFactorChange(
  tier: Tier,
  onePassKey: string,
  type: SettableLogin2FAType,
  code?: string,
): Promise<void> {
  await callAuthed(tier, authRoutes.totpPhase2, {
    params: { auth: tier },
    body: code === undefined ? { onePassKey, login2FAType: type } : { onePassKey, login2FAType: type, code },
  });
}
