import type { Tier } from '@rampart/contract';

/**
 * Query keys of data that belongs to the signed-in account start with this prefix; ConsoleFrame
 * drops them whenever the console's session starts or ends, so the next account never sees the
 * last one's data.
 */
export function sessionQueryKey(tier: Tier, ...rest: readonly unknown[]): readonly unknown[] {
  return ['session', tier, ...rest];
}
