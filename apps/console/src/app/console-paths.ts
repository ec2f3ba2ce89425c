import type { Tier } from '@rampart/contract';

/** Pages every console has, by their path under `/{tier}/` (spec part 1 §2). */
export const CONSOLE_PATHS = {
  login: 'login',
  verifyAccount: 'verifyAccount',
  createPassword: 'createPassword',
  verifyMail: 'verifyMail',
  switchUser: 'switchUser',
  dashboard: 'dashboard',
  changePassword: 'changePassword',
  userInformation: 'userManagement/userInformation',
  twoFactor: 'userManagement/twoFactor',
} as const;

export type ConsolePathName = keyof typeof CONSOLE_PATHS;

/** `/{tier}/{page}`, e.g. `/client/login`. */
export function consolePath(tier: Tier, page: ConsolePathName): string {
  return `/${tier}/${CONSOLE_PATHS[page]}`;
}
