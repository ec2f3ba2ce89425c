import { z } from 'zod';
import { dataOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zIdParam } from '../validators/ids.js';
import { queryList, siteParams } from './sites.js';

/**
 * Where a site's domains stand at a glance (the domain list's state column): how many of the nodes
 * serving the site apply the domain as it is now, and whether its origin is failing.
 *
 * - `nodesOfZone`: the nodes of the zones serving the site (initialised, enabled, in a zone whose
 *   groups carry the site's product). `nodesServing`: those of them online whose last reported
 *   data plane holds the domain's current entry (0 for a domain the edge does not serve: disabled,
 *   waiting for proof, claimed by another). `nodesWithoutPlane`: the nodes serving the site that
 *   have never reported a data plane (an agent that takes the snapshot's data plane, or one that has
 *   not polled yet): nobody can say what they serve, so they are counted there and neither in
 *   `nodesOfZone` nor in `nodesServing`.
 * - `served`: the edge is meant to serve the domain (enabled, its proof passed or waived).
 * - `originRequests`/`originErrors`: the requests of the last ORIGIN_HEALTH_MINUTES closed minutes
 *   that went to the origin, and those the origin failed (5xx from it, or not reached: 502/504),
 *   read from the nodes' minute aggregates. `originDown`: at least ORIGIN_DOWN_MIN_ERRORS failures
 *   and at least half of the origin's requests failed.
 */
export const ORIGIN_HEALTH_MINUTES = 5;
export const ORIGIN_DOWN_MIN_ERRORS = 3;
/** Domains one call reports (a page of the domain list). */
export const DOMAIN_STATES_MAX = 100;

export const domainStateSchema = z.object({
  id: z.number().int(),
  served: z.boolean(),
  nodesServing: z.number().int().nonnegative(),
  nodesOfZone: z.number().int().nonnegative(),
  nodesWithoutPlane: z.number().int().nonnegative(),
  originRequests: z.number().int().nonnegative(),
  originErrors: z.number().int().nonnegative(),
  originDown: z.boolean(),
});
export type DomainState = z.infer<typeof domainStateSchema>;

/** Whether a domain's recent origin traffic reads as its origin being down (see above). */
export function originIsDown(requests: number, errors: number): boolean {
  return errors >= ORIGIN_DOWN_MIN_ERRORS && errors * 2 >= requests;
}

const route = routeFamily({ tags: ['domains'], read: tiers(['user'], 'user.domains.read') });

export const domainStates = route.get('user.domains.states', '/user/site/{siteId}/domains/states', {
  summary:
    "How many of the nodes serving the site apply each domain as it is now, and whether each domain's origin failed most of its requests over the last minutes; ids of other sites are left out",
  params: siteParams,
  query: z.object({ ids: queryList(zIdParam, DOMAIN_STATES_MAX) }),
  response: dataOf(z.array(domainStateSchema)),
});

/** The same answer for the operator's list of its customers' domains (any of its sites). */
export const clientDomainStates = route.get('client.domains.states', '/client/domains/states', {
  access: tiers(['client'], 'client.domains.read'),
  summary:
    "The states of the operator's domains of the list's page, as the customer's call answers them; ids of domains outside the operator's sites are left out",
  query: z.object({ ids: queryList(zIdParam, DOMAIN_STATES_MAX) }),
  response: dataOf(z.array(domainStateSchema)),
});

export const domainStateRoutes = { domainStates, clientDomainStates } as const;
