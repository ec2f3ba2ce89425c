import { z } from 'zod';
import { dataOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { idNameSchema, zId, zIdParam } from '../validators/ids.js';

/**
 * Zones assigned to an operator's sub-account (spec part 2 §6: "Sub-users can be listed per
 * parent, switched to, and assigned zones"; §7 `PUT/GET client/{clientId}/zones`).
 *
 * `clientId` is a sub-account of the operator (tier `client`). With no zone assigned the
 * sub-account works on every zone of its operator (as before any assignment); with one or more, it
 * sees and changes only those zones and the nodes placed in them: the binder refuses any other zone
 * or node named by a call (101018, as for another operator's zone; see `zone-scope.ts`), and the
 * zone and node lists leave them out. A zone the restricted sub-account creates is assigned to it.
 * Sites, products and settings of the operator are not zone-bound and stay governed by the role.
 * Deleting every assigned zone leaves the sub-account restricted to none, never to all.
 */
export const accountZonesSchema = z.object({
  /** False: the sub-account works on every zone of its operator (nothing assigned). */
  restricted: z.boolean(),
  /** Assigned zone ids, ascending (empty while restricted: every assigned zone was deleted). */
  zoneIDs: z.array(z.number().int()),
  zones: z.array(idNameSchema),
});
export type AccountZones = z.infer<typeof accountZonesSchema>;

const params = z.object({ clientId: zIdParam });

const route = routeFamily({
  tags: ['accounts'],
  read: tiers(['client'], 'accounts.read'),
  write: tiers(['client'], 'accounts.write'),
  params: params,
});

export const getAccountZones = route.get('client.accounts.zones', '/client/{clientId}/zones', {
  summary: "The zones assigned to one of the operator's sub-accounts (empty: every zone)",
  response: dataOf(accountZonesSchema),
});

export const setAccountZones = route.put('client.accounts.zones.set', '/client/{clientId}/zones', {
  summary:
    "Replaces the zones assigned to one of the operator's sub-accounts (an empty list lifts the restriction); every id must be a zone of the operator",
  body: z.object({
    zoneIDs: z
      .array(zId)
      .max(500)
      .refine((ids) => new Set(ids).size === ids.length, { message: 'duplicate zone id' }),
  }),
  response: dataOf(accountZonesSchema),
});

export const accountZoneRoutes = { getAccountZones, setAccountZones } as const;
