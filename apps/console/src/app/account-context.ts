import type { SelfInfo } from '@rampart/contract';
import { createContext, use } from 'react';

/** The signed-in account, provided by the console shell to the pages behind the session. */
export const AccountContext = createContext<SelfInfo | null>(null);

export function useAccount(): SelfInfo {
  const self = use(AccountContext);
  if (!self) throw new Error('useAccount outside the console shell');
  return self;
}

/** True when the caller holds every one of `keys` (none given: true). */
export function canAll(self: Pick<SelfInfo, 'permissions'>, keys: readonly (string | undefined)[]): boolean {
  return keys.every((key) => key === undefined || self.permissions.includes(key));
}

/**
 * Whether the signed-in account holds a permission key (`@rampart/contract` permissions): the
 * console shows only what the caller may use; the server refuses the rest with 101018 anyway.
 */
export function useCan(key: string | undefined): boolean {
  return canAll(useAccount(), [key]);
}
