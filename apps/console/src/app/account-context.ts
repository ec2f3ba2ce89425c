import type { SelfInfo } from '@rampart/contract';
import { createContext, use } from 'react';

/** The signed-in account, provided by the console shell to the pages behind the session. */
export const AccountContext = createContext<SelfInfo | null>(null);

export function useAccount(): SelfInfo {
  const self = use(AccountContext);
  if (!self) throw new Error('useAccount outside the console shell');
  return self;
}
