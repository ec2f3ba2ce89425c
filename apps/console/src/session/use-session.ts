import type { SelfInfo, Tier } from '@rampart/contract';
import { useSyncExternalStore } from 'react';
import { sessionStore } from './session-store';

/** The signed-in account of the console, re-rendering when it changes; null when signed out. */
export function useSelf(tier: Tier): SelfInfo | null {
  return useSyncExternalStore(sessionStore.subscribe, () => sessionStore.get(tier).self);
}

/** Number that changes whenever the console's session starts or ends (to drop data of the last one). */
export function useSessionGeneration(tier: Tier): number {
  return useSyncExternalStore(sessionStore.subscribe, () => sessionStore.get(tier).generation);
}
