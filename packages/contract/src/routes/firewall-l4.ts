import { z } from 'zod';
import {
  L4_BLOCK_SECONDS_MAX,
  L4_IP_LIST_MAX,
  L4_PORT_REGIONS_MAX,
  L4_RATE_MAX,
  l4AddressSchema,
} from '../edge/l4-rules.js';
import { geoRegion } from '../geo.js';
import { dataOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId } from '../validators/ids.js';
import { zMemo } from '../validators/zod.js';
import { positiveCount } from './firewall-frequency.js';
import { zoneParams } from './zones.js';

/**
 * The site firewall's layer-4 rules (spec part 1 §2 "positions (layer 4 regions)", "connection-count
 * limit (layer 4)", "Per-port connection limit: max, burst, delay in seconds", "Port-to-IP lists";
 * part 2 §3 "L4 blacklist, whitelist, positions and limit-connections"), and the zone's layer-4
 * protection set by the operator. They act on a site's layer-4 ports (routes/site-ports.ts) and are
 * enforced by the node's kernel (nftables), not by nginx: docs/decisions.md "Layer-4 protection in
 * the kernel". Each kind lives beside the layer-7 kinds under `user/site/{siteId}/firewall/setting/`
 * with the same four calls, declared in rule-kinds/site-firewall-l4.ts.
 *
 * Every rule names one of the site's ports by its id (`portID`; a port of another site, or of none,
 * is 101003 on the field). What a port's rules become on a node:
 * - `l4Whitelists`: addresses always let through on the port (before every other rule, the zone's
 *   rates included);
 * - `l4Blacklists`: addresses dropped on the port;
 * - `positions`: regions (countries, ISO 3166 alpha-2) denied (`isBlack`) or the only ones allowed
 *   (white) on the port; a port takes one enabled position rule (101025 for a second);
 * - `limitConns`: per client address at most `max` connections at once and, when `rate` is set, new
 *   ones at `rate` per second beyond `burst`; an address over either is dropped for `delay` seconds
 *   (0: only the connection over the limit); one enabled limit per port (101025 for a second).
 *
 * The whitelists and blacklists of one port hold at most L4_IP_LIST_MAX addresses together (101029).
 */

/** A port's regions rule: country codes only (cities are not a layer-4 notion). */
export const l4PositionCodesSchema = z
  .array(
    z.string().refine((code) => /^[A-Z]{2}$/.test(code) && geoRegion(code) !== undefined, 'wrongFormat'),
    {
      error: 'required',
    },
  )
  .min(1, { message: 'required' })
  // The bound keeps bodies small; the rule's own limit answers 201003 (L4_PORT_REGIONS_MAX).
  .max(10_000);

/** Addresses and CIDR blocks of one port-to-IP rule (one per entry; at least one). */
export const l4IpsSchema = z
  .array(l4AddressSchema, { error: 'required' })
  .min(1, { message: 'required' })
  .max(L4_IP_LIST_MAX);

const portID = zId;

export const l4IpRuleInputSchema = z.object({
  portID,
  ips: l4IpsSchema,
  memo: zMemo,
});
export type L4IpRuleInput = z.input<typeof l4IpRuleInputSchema>;
export type L4IpRuleIn = z.output<typeof l4IpRuleInputSchema>;

export const l4PositionRuleInputSchema = z.object({
  portID,
  isBlack: z.boolean({ error: 'required' }),
  positions: l4PositionCodesSchema,
  enabled: z.boolean().default(true),
  memo: zMemo,
});
export type L4PositionRuleInput = z.input<typeof l4PositionRuleInputSchema>;
export type L4PositionRuleIn = z.output<typeof l4PositionRuleInputSchema>;

/** The most connections one client address may hold at once on a port (a limit's `max`). */
export const L4_CONNECTIONS_MAX = 1_000_000;

// Numbers take positiveCount (firewall-frequency.ts): a schema-wide `{ error: 'required' }` would
// also name a number out of range "required".
export const l4LimitConnRuleInputSchema = z.object({
  portID,
  /** Connections one client address may hold at once on the port. */
  max: positiveCount(L4_CONNECTIONS_MAX),
  /** New connections per second per client address (null or left out: no rate). */
  rate: z.number().int().min(1).max(L4_RATE_MAX).nullable().default(null),
  /** New connections beyond the rate taken at once. */
  burst: z.number().int().min(0).max(L4_RATE_MAX).default(0),
  /** Seconds an address over the limit stays dropped (0: only the connection over it). */
  delay: z.number().int().min(0).max(L4_BLOCK_SECONDS_MAX).default(0),
  enabled: z.boolean().default(true),
  memo: zMemo,
});
export type L4LimitConnRuleInput = z.input<typeof l4LimitConnRuleInputSchema>;
export type L4LimitConnRuleIn = z.output<typeof l4LimitConnRuleInputSchema>;

/** What every layer-4 rule answers with: its port by id and by number. */
const l4RuleFields = {
  id: z.number().int(),
  siteID: z.number().int(),
  portID: z.number().int(),
  /** The port's number and protocol, for display. */
  port: z.number().int(),
  protocol: z.string(),
  memo: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
};
export const l4IpRuleSchema = z.object({ ...l4RuleFields, ips: z.array(z.string()) });
export type L4IpRule = z.infer<typeof l4IpRuleSchema>;
export const l4PositionRuleSchema = z.object({
  ...l4RuleFields,
  isBlack: z.boolean(),
  positions: z.array(z.string()),
  enabled: z.boolean(),
});
export type L4PositionRule = z.infer<typeof l4PositionRuleSchema>;
export const l4LimitConnRuleSchema = z.object({
  ...l4RuleFields,
  max: z.number().int(),
  rate: z.number().int().nullable(),
  burst: z.number().int(),
  delay: z.number().int(),
  enabled: z.boolean(),
});
export type L4LimitConnRule = z.infer<typeof l4LimitConnRuleSchema>;

// The zone's layer-4 protection (the operator's).

/** A rate per source address: `rate` per second, `burst` more at once. */
export const l4ZoneRateSchema = z.object({
  rate: positiveCount(L4_RATE_MAX),
  burst: z.number().int().min(0).max(L4_RATE_MAX).default(0),
});

/** Refusals per window that escalate an address to the kernel, and the window's seconds (bounds and default). */
export const ESCALATION_REFUSALS_MIN = 10;
export const ESCALATION_REFUSALS_MAX = 100_000;
export const ESCALATION_SECONDS_MAX = 600;
export const ESCALATION_DEFAULT = { refusals: 200, seconds: 10 } as const;

/**
 * Escalation of floods to the kernel (docs/decisions.md "Floods escalated to the kernel"): an
 * address that the node's layer 7 refuses `refusals` times within `seconds` (a sliding window) is
 * put in the node's kernel drop set for a time that doubles on each repeat, listed on the block list
 * with the cause `escalated`, and shared with the other nodes serving the site. Null: off.
 */
export const l4EscalationSchema = z.object({
  refusals: z.number().int().min(ESCALATION_REFUSALS_MIN).max(ESCALATION_REFUSALS_MAX),
  seconds: z.number().int().min(1).max(ESCALATION_SECONDS_MAX),
});
export type L4Escalation = z.infer<typeof l4EscalationSchema>;

/**
 * The zone's layer-4 protection, on every node of the zone: TCP SYNs and new connections per source
 * address on the nodes' listen ports and layer-4 ports (null: no such rate; over it, the packet is
 * dropped), and whether the layer-7 firewall's DROP + Blacklist blocks are pushed down to the
 * kernel so a blocked address's packets never reach nginx on those ports; and the escalation of
 * floods (above). Defaults: no rates, no push-down, escalation on at {@link ESCALATION_DEFAULT}.
 */
export const zoneL4ProtectionInputSchema = z.object({
  synFlood: l4ZoneRateSchema.nullable().default(null),
  newConnections: l4ZoneRateSchema.nullable().default(null),
  kernelBlocks: z.boolean().default(false),
  escalation: l4EscalationSchema.nullable().default({ ...ESCALATION_DEFAULT }),
});
export type ZoneL4ProtectionInput = z.input<typeof zoneL4ProtectionInputSchema>;
export type ZoneL4ProtectionIn = z.output<typeof zoneL4ProtectionInputSchema>;
export const zoneL4ProtectionSchema = z.object({
  synFlood: z.object({ rate: z.number().int(), burst: z.number().int() }).nullable(),
  newConnections: z.object({ rate: z.number().int(), burst: z.number().int() }).nullable(),
  kernelBlocks: z.boolean(),
  escalation: z.object({ refusals: z.number().int(), seconds: z.number().int() }).nullable(),
});
export type ZoneL4Protection = z.infer<typeof zoneL4ProtectionSchema>;

const route = routeFamily({
  tags: ['zones', 'firewall'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
  params: zoneParams,
});

export const getZoneL4Protection = route.get('client.zone.l4Protection', '/client/zone/{zoneID}/setting/l4Protection', {
  summary:
    "The zone's layer-4 protection: SYN and new-connection rates per source address, kernel blocks, escalation of floods",
  response: dataOf(zoneL4ProtectionSchema),
});

export const setZoneL4Protection = route.put(
  'client.zone.l4Protection.put',
  '/client/zone/{zoneID}/setting/l4Protection',
  {
    summary: "Replaces the zone's layer-4 protection (its nodes take it with their next snapshot)",
    body: zoneL4ProtectionInputSchema,
    response: dataOf(zoneL4ProtectionSchema),
  },
);

export const zoneL4ProtectionRoutes = { getZoneL4Protection, setZoneL4Protection } as const;

/** The most regions one position rule lists (201003 beyond). */
export const L4_POSITION_REGIONS_MAX = L4_PORT_REGIONS_MAX;
