import { z } from 'zod';
import { L4_OUTCOMES } from '../edge/l4-counters.js';
import { dataOf, defineRoute, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import {
  checkStatisticsRange,
  STATISTICS_POINTS_MAX,
  STATISTICS_STEPS,
  STATISTICS_TOP_MAX,
  userStatisticsFilter,
} from './statistics.js';

/**
 * Network-attack statistics (spec part 2 §3 "Network attack data: pass and drop bits, per-country,
 * IP and ASN tops, IP protocol (TCP, UDP, ICMP, GRE) and TCP flags", §7 "Network attack
 * statistics"; docs/decisions.md "Layer-4 counters"): what the kernel of the edge nodes counted on
 * the caller's layer-4 ports, passed and dropped by the node's layer-4 rules. Bits are the counted
 * bytes × 8 (the IP packets, headers included); a bit rate is a step's bits ÷ its seconds. The body
 * holds the time range and filters as the statistics calls do; tops answer `top` rows (the
 * console sends 5). The caller sees its own sites' ports only (analytics-scope).
 */

/** The dimensions the calls break the counts down by. */
export const NETWORK_DIMENSIONS = ['country', 'ip', 'asn', 'ipProtocol', 'tcpFlags'] as const;
export type NetworkDimension = (typeof NETWORK_DIMENSIONS)[number];

const step = z
  .number()
  .int()
  .refine((m) => (STATISTICS_STEPS as readonly number[]).includes(m), { message: 'invalidValue' })
  .default(5);
const pointsBound = (v: { startTime: string; endTime: string; minutesStep: number }, ctx: z.RefinementCtx) => {
  const points = (Date.parse(v.endTime) - Date.parse(v.startTime)) / (v.minutesStep * 60_000);
  if (points > STATISTICS_POINTS_MAX) ctx.addIssue({ code: 'custom', path: ['minutesStep'], message: 'tooManyPoints' });
};

/** Totals over the range. */
const totalsBody = userStatisticsFilter.superRefine(checkStatisticsRange);
/** A top list: the `top` largest values by bits (pass and drop together). */
const topsBody = userStatisticsFilter
  .extend({ top: z.number().int().min(1).max(STATISTICS_TOP_MAX).default(5) })
  .superRefine(checkStatisticsRange);
/** Bit rates over time, per outcome (the outcomes' call) or per value of the top `top` values. */
const rateBody = userStatisticsFilter
  .extend({
    minutesStep: step,
    top: z.number().int().min(1).max(STATISTICS_TOP_MAX).default(5),
    /** Only passed or only dropped traffic (both when absent); the outcomes' call ignores it. */
    outcome: z.enum(L4_OUTCOMES).optional(),
  })
  .superRefine(checkStatisticsRange)
  .superRefine(pointsBound);

export const networkSumSchema = z.object({
  passBits: z.number(),
  dropBits: z.number(),
  passPackets: z.number(),
  dropPackets: z.number(),
});
export type NetworkSum = z.infer<typeof networkSumSchema>;

export const networkTopRowSchema = networkSumSchema.extend({
  /** A country code ("" unknown), an address, an ASN ("0" unknown), a protocol or a TCP flag combination. */
  key: z.string(),
  /**
   * The ASN tops only: the organisation the ASN database of the caller's operator names for the
   * ASN (`autonomous_system_organization`), absent when it names none.
   */
  name: z.string().optional(),
});
export type NetworkTopRow = z.infer<typeof networkTopRowSchema>;

export const networkRateSchema = z.object({
  minutesStep: z.number().int(),
  /** `pass` and `drop` for the outcomes; else the values (the top ones, or every protocol). */
  keys: z.array(z.string()),
  /** One point per step from startTime (rounded down to the step), bits per second per key, empty steps 0. */
  points: z.array(z.object({ time: z.string(), values: z.array(z.number()) })),
});
export type NetworkRate = z.infer<typeof networkRateSchema>;

const access = tiers(['user'], 'user.statistics.read');
const base = '/user/statistics/network/outcomes';

/** One of the twelve: its name after `user.statistics.network.`, its path after the base. */
const call = <B extends z.ZodType, D extends z.ZodType>(
  name: string,
  path: string,
  summary: string,
  body: B,
  data: D,
) =>
  defineRoute({
    id: `user.statistics.network.${name}`,
    method: 'POST',
    path: `${base}${path}`,
    access,
    codes: [],
    summary,
    tags: ['statistics'],
    request: { body },
    response: dataOf(data),
  });
const totals = (name: string, path: string, summary: string) => call(name, path, summary, totalsBody, networkSumSchema);
const tops = (name: string, path: string, summary: string, body: typeof topsBody | typeof totalsBody = topsBody) =>
  call(name, path, summary, body, z.array(networkTopRowSchema));
const rate = (name: string, path: string, summary: string) => call(name, path, summary, rateBody, networkRateSchema);

export const userNetworkOutcomesAvgBitRate = rate(
  'outcomes.avgBitRate',
  '/avgBitRate',
  "Passed and dropped bits per second on the caller's layer-4 ports, one point per minutesStep",
);
export const userNetworkOutcomesSumBits = totals(
  'outcomes.sumBits',
  '/sumBits',
  "Passed and dropped bits and packets on the caller's layer-4 ports in the time range",
);
export const userNetworkCountriesTops = tops(
  'countries.tops',
  '/countries/tops',
  'The source countries of most bits (the operator’s geo database), with passed and dropped bits and packets',
);
export const userNetworkCountriesAvgBitRate = rate(
  'countries.avgBitRate',
  '/countries/avgBitRate',
  'Bits per second of the top source countries, one point per minutesStep',
);
export const userNetworkIpsTops = tops(
  'ips.tops',
  '/ips/tops',
  'The source addresses of most bits, with passed and dropped bits and packets',
);
export const userNetworkIpsAvgBitRate = rate(
  'ips.avgBitRate',
  '/ips/avgBitRate',
  'Bits per second of the top source addresses, one point per minutesStep',
);
export const userNetworkAsnsTops = tops(
  'asns.tops',
  '/asns/tops',
  "The source ASNs of most bits (0: unknown — the operator's ASN database has no record of the address, or there is none), with passed and dropped bits and packets and the ASN's organisation when the database names it",
);
export const userNetworkAsnsAvgBitRate = rate(
  'asns.avgBitRate',
  '/asns/avgBitRate',
  'Bits per second of the top source ASNs, one point per minutesStep',
);
export const userNetworkIpProtocolsBits = tops(
  'ipProtocols.bits',
  '/ipProtocols/bits',
  'Passed and dropped bits and packets per IP protocol (TCP, UDP, ICMP, GRE; every one, 0 when none)',
  totalsBody,
);
export const userNetworkIpProtocolsAvgBitRate = rate(
  'ipProtocols.avgBitRate',
  '/ipProtocols/avgBitRate',
  'Bits per second per IP protocol, one point per minutesStep',
);
export const userNetworkTcpFlagsTops = tops(
  'tcpFlags.tops',
  '/tcpFlags/tops',
  'The TCP flag combinations of most bits, with passed and dropped bits and packets',
);
export const userNetworkTcpFlagsAvgBitRate = rate(
  'tcpFlags.avgBitRate',
  '/tcpFlags/avgBitRate',
  'Bits per second of the top TCP flag combinations, one point per minutesStep',
);

export const networkStatisticsRoutes = {
  userNetworkOutcomesAvgBitRate,
  userNetworkOutcomesSumBits,
  userNetworkCountriesTops,
  userNetworkCountriesAvgBitRate,
  userNetworkIpsTops,
  userNetworkIpsAvgBitRate,
  userNetworkAsnsTops,
  userNetworkAsnsAvgBitRate,
  userNetworkIpProtocolsBits,
  userNetworkIpProtocolsAvgBitRate,
  userNetworkTcpFlagsTops,
  userNetworkTcpFlagsAvgBitRate,
} as const;

/**
 * Whether the operator shows its customers the layer-4 attack page (the calls above) in their
 * console's menu (spec part 1 §1: hidden by default; docs/decisions.md "Layer-4 counters"). Off
 * until the operator turns it on; its customers learn it from `GET user/self` (`l4AttackPage`).
 */
export const l4AttackPageSettingSchema = z.object({ enabled: z.boolean() });
export type L4AttackPageSetting = z.infer<typeof l4AttackPageSettingSchema>;

const route = routeFamily({
  tags: ['settings'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
});

export const getL4AttackPageSetting = route.get('client.setting.l4AttackPage', '/client/setting/l4AttackPage', {
  summary: "Whether the operator's customers see the layer-4 attack page in their console's menu",
  response: dataOf(l4AttackPageSettingSchema),
});

export const putL4AttackPageSetting = route.put('client.setting.l4AttackPage.update', '/client/setting/l4AttackPage', {
  summary: "Shows the layer-4 attack page in the menu of the operator's customers, or hides it",
  body: l4AttackPageSettingSchema,
  response: dataOf(l4AttackPageSettingSchema),
});

export const l4AttackPageSettingRoutes = { getL4AttackPageSetting, putL4AttackPageSetting } as const;
