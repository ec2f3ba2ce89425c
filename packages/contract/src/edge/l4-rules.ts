import { z } from 'zod';
import { isCIDR, isIP } from '../validators/ip.js';
import { STREAM_PORTS_PER_NODE, STREAM_PROTOCOLS } from './stream-ports.js';

/**
 * The node's layer-4 protection document (issue 22; docs/decisions.md "Layer-4 protection in the
 * kernel"). The agent renders it into one nftables table of its own (apps/edge/src/agent/l4/l4-rules-render.ts):
 * like the stream ports, every value ends up in a file the kernel reads, so every value is an
 * integer, a keyword from a fixed list or an IP/CIDR literal, and nothing a customer types reaches
 * the ruleset as text (region codes only name lists here; they are never rendered).
 *
 * Per layer-4 port (the site's port: id, number, protocol): a whitelist and a blacklist of
 * addresses and CIDR blocks (IPv4 and IPv6), the regions allowed or denied (by code; their CIDRs
 * are in `regions`, built by the control plane from the operator's geo database) and a connection
 * limit per client address. Per zone: the ports the node-wide rules guard, SYN-flood and
 * new-connection rates per source address.
 */

/** Addresses and CIDR blocks in one port's whitelist or blacklist. */
export const L4_IP_LIST_MAX = 5_000;
/** Regions (countries) the document carries CIDRs for. */
export const L4_REGIONS_MAX = 300;
/** CIDR blocks of one region, per family together (a large country is ~30k merged IPv4 blocks). */
export const L4_REGION_CIDRS_MAX = 100_000;
/** CIDR blocks of every region together (what one `nft -f` loads in reasonable time). */
export const L4_REGION_CIDRS_TOTAL_MAX = 500_000;
/** Regions one port allows or denies. */
export const L4_PORT_REGIONS_MAX = 300;
/** Ports the zone-wide rules guard beyond the layer-4 ports (the node's HTTP and HTTPS listen ports). */
export const L4_GUARDED_PORTS_MAX = 64;
/** Longest a connection limit blocks an address (one day). */
export const L4_BLOCK_SECONDS_MAX = 86_400;
/** Highest rate (per second) and burst any limit takes. */
export const L4_RATE_MAX = 10_000_000;

const port = z.number().int().min(1).max(65_535);
const rate = z.number().int().min(1).max(L4_RATE_MAX);
const burst = z.number().int().min(0).max(L4_RATE_MAX);

/** An address or CIDR block of either family (`10.0.0.1`, `10.0.0.0/8`, `2001:db8::/32`). */
export const l4AddressSchema = z
  .string()
  .max(50)
  .refine((s) => isIP(s) || isCIDR(s), 'not an IPv4 or IPv6 address or CIDR block');
/** A CIDR block (a region's lists hold blocks only). */
export const l4CidrSchema = z
  .string()
  .max(50)
  .refine((s) => isCIDR(s), 'not an IPv4 or IPv6 CIDR block');

/** A region's code: an ISO 3166 alpha-2 country code in capitals. */
export const l4RegionCodeSchema = z.string().regex(/^[A-Z]{2}$/, 'not a two-letter region code');

/** A rate per source address: `rate` new ones per second, `burst` more at once. */
export const l4RateSchema = z.strictObject({ rate, burst });
export type L4Rate = z.infer<typeof l4RateSchema>;

export const l4RegionSchema = z.strictObject({
  code: l4RegionCodeSchema,
  cidrs: z.array(l4CidrSchema).max(L4_REGION_CIDRS_MAX),
});
export type L4Region = z.infer<typeof l4RegionSchema>;

/**
 * A port's connection limit per client address: at most `max` connections at once, and new ones
 * at `rate` per second with `burst` (null: no rate); an address over either is dropped, and for
 * `blockSeconds` more (0: only the connection over the limit).
 */
export const l4ConnectionLimitSchema = z.strictObject({
  max: z.number().int().min(1).max(1_000_000),
  rate: z.number().int().min(1).max(L4_RATE_MAX).nullable(),
  burst,
  blockSeconds: z.number().int().min(0).max(L4_BLOCK_SECONDS_MAX),
});
export type L4ConnectionLimit = z.infer<typeof l4ConnectionLimitSchema>;

export const l4PortRulesSchema = z.strictObject({
  /** The site port's id (names the port's chains and sets). */
  id: z.number().int().min(1).max(2_147_483_647),
  port,
  protocol: z.enum(STREAM_PROTOCOLS),
  /** Always let through on this port (before every other rule of the port and the zone). */
  whitelist: z.array(l4AddressSchema).max(L4_IP_LIST_MAX),
  /** Dropped on this port. */
  blacklist: z.array(l4AddressSchema).max(L4_IP_LIST_MAX),
  /** `allow`: only these regions reach the port; `deny`: these regions do not. Null: no region rule. */
  regions: z
    .strictObject({
      mode: z.enum(['allow', 'deny']),
      codes: z.array(l4RegionCodeSchema).min(1).max(L4_PORT_REGIONS_MAX),
    })
    .nullable(),
  connectionLimit: l4ConnectionLimitSchema.nullable(),
});
export type L4PortRules = z.infer<typeof l4PortRulesSchema>;

export const l4ZoneRulesSchema = z.strictObject({
  /**
   * Ports (TCP and UDP) where the blocked addresses and the zone's rates act besides the layer-4
   * ports: the node's HTTP and HTTPS listen ports. Never every port: a node's SSH stays reachable.
   */
  guardedPorts: z.array(port).max(L4_GUARDED_PORTS_MAX),
  /** TCP SYNs per source address on guarded ports (null: none). */
  synFlood: l4RateSchema.nullable(),
  /** New connections (TCP or UDP) per source address per second on guarded ports (null: none). */
  newConnections: l4RateSchema.nullable(),
});
export type L4ZoneRules = z.infer<typeof l4ZoneRulesSchema>;

/** The whole document: ports at most once by id and by number, regions named once and known. */
export const l4RulesSchema = z
  .strictObject({
    zone: l4ZoneRulesSchema,
    regions: z.array(l4RegionSchema).max(L4_REGIONS_MAX),
    ports: z.array(l4PortRulesSchema).max(STREAM_PORTS_PER_NODE),
  })
  .superRefine((doc, ctx) => {
    const codes = new Set<string>();
    let cidrs = 0;
    doc.regions.forEach((r, i) => {
      if (codes.has(r.code)) ctx.addIssue({ code: 'custom', path: ['regions', i, 'code'], message: `${r.code} twice` });
      codes.add(r.code);
      cidrs += r.cidrs.length;
    });
    if (cidrs > L4_REGION_CIDRS_TOTAL_MAX)
      ctx.addIssue({
        code: 'custom',
        path: ['regions'],
        message: `more than ${L4_REGION_CIDRS_TOTAL_MAX} CIDR blocks`,
      });
    const numbers = new Set<number>();
    const ids = new Set<number>();
    doc.ports.forEach((p, i) => {
      if (numbers.has(p.port))
        ctx.addIssue({ code: 'custom', path: ['ports', i, 'port'], message: `port ${p.port} twice` });
      if (ids.has(p.id)) ctx.addIssue({ code: 'custom', path: ['ports', i, 'id'], message: `id ${p.id} twice` });
      numbers.add(p.port);
      ids.add(p.id);
      p.regions?.codes.forEach((code, j) => {
        if (!codes.has(code))
          ctx.addIssue({ code: 'custom', path: ['ports', i, 'regions', 'codes', j], message: `no region ${code}` });
      });
    });
  });
export type L4Rules = z.infer<typeof l4RulesSchema>;
