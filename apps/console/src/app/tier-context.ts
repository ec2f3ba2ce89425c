import type { Tier } from '@rampart/contract';
import { createContext, use } from 'react';

/** Marks the route of a console's frame (app/console-routes.tsx); ConsoleFrame reads the tier from it. */
export interface ConsoleHandle {
  readonly tier: Tier;
}

/** The console (first path segment) the current page belongs to; provided by ConsoleFrame. */
export const TierContext = createContext<Tier | null>(null);

export function useTier(): Tier {
  const tier = use(TierContext);
  if (!tier) throw new Error('useTier outside a console frame');
  return tier;
}
