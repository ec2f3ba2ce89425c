import type { ErrorCode } from './errors.js';
import type { AnyRoute, RouteAccess } from './route.js';

/**
 * The catalogue codes every route of an access kind may answer, whatever it does: a route
 * declares (`codes`) only the ones its own work adds.
 *
 * - every route: 101002 (our own fault), 101003 (path, query or body refused, or a request the
 *   framework refused before the route read it), 101004 (no route for the path);
 * - signed-in routes: the token checks of the authenticator (101013 missing, malformed or
 *   revoked, 101014 expired), 101008 (the account or one above it is not enabled) and 101018
 *   (another tier, the route's permission key, the caller's zone scope);
 * - node routes: 101013 (the node's signature, timestamp or nonce is refused).
 */
export const IMPLIED_CODES: Readonly<Record<RouteAccess['kind'], readonly ErrorCode[]>> = {
  public: [101002, 101003, 101004],
  tiers: [101002, 101003, 101004, 101008, 101013, 101014, 101018],
  node: [101002, 101003, 101004, 101013],
};

/** Every code a route may answer: the ones its access kind implies, 101012 when it is throttled per account, and its own. */
export function routeCodes(route: Pick<AnyRoute, 'access' | 'codes' | 'sendsOnDemand'>): ReadonlySet<ErrorCode> {
  return new Set([
    ...IMPLIED_CODES[route.access.kind],
    ...(route.sendsOnDemand ? [101012 as const] : []),
    ...route.codes,
  ]);
}
