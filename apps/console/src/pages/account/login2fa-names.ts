import { LOGIN_2FA_TYPES, type Login2FAType } from '@rampart/contract';

export type Login2FAName = keyof typeof LOGIN_2FA_TYPES;

/** The name of a second-factor type, for its label (`account:twoFactorTypes.<name>`). */
export function login2FAName(type: Login2FAType): Login2FAName {
  const entry = Object.entries(LOGIN_2FA_TYPES).find(([, value]) => value === type);
  return (entry?.[0] as Login2FAName | undefined) ?? 'none';
}
