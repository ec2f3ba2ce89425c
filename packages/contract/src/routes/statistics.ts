import { z } from 'zod';
import { DASHBOARD_CARD_IDS, TOP_LIST_IDS } from '../analytics-constants.js';
import { PAGE_SIZE_MAX } from '../constants.js';
import { dataOf, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zIds } from '../validators/ids.js';
import { DOMAIN_TAGS_MAX } from './domains.js';
import { siteTagSchema } from './sites.js';

/**
 * Traffic statistics (spec part 2 §3 "Query filters … Settings: siteIDs, domainIDs, zoneIDs,
 * startTime, endTime, minutesStep, top, type, page, pageSize", §7 "Statistics"; part 1 §3 the card
 * and top-list ids; docs/decisions.md "Traffic analytics"). The customer asks about its own sites
 * (a sub-account about the sites it was given), the operator about its sites, optionally by zone (a
 * zone-restricted sub-account only within its zones). Every number comes from the request events
 * the edge nodes shipped (analytics-events.ts), counted once each.
 */

/** Longest time range one statistics call covers. */
export const STATISTICS_RANGE_MAX_DAYS = 93;
/** Steps a time series may use, in minutes: the rollups' 1 and 5 minutes and their multiples. */
export const STATISTICS_STEPS = [1, 5, 10, 15, 30, 60, 120, 360, 720, 1440] as const;
/** Most points one series answers (a step too fine for its range is refused with 101003). */
export const STATISTICS_POINTS_MAX = 2000;
/** Most rows a top list answers. */
export const STATISTICS_TOP_MAX = 100;
/** Most sites, domains or zones one filter names. */
export const STATISTICS_FILTER_IDS_MAX = 1000;

/** Card ids (part 1 §3): request, IP, status, blacklist and block info. */
export const STATISTICS_CARDS = Object.values(DASHBOARD_CARD_IDS) as readonly number[];

/**
 * Top-list ids: those of part 1 §3 (11–25), and the statistics page's own (30–36: status codes,
 * methods, HTTP versions, schemes, file-type groups, client addresses, domains).
 */
export const STATISTICS_TOPS = {
  ...TOP_LIST_IDS,
  status: 30,
  method: 31,
  httpVersion: 32,
  scheme: 33,
  fileType: 34,
  ip: 35,
  domain: 36,
} as const;
export type StatisticsTopId = (typeof STATISTICS_TOPS)[keyof typeof STATISTICS_TOPS];
export const STATISTICS_TOP_IDS = Object.values(STATISTICS_TOPS) as StatisticsTopId[];

/**
 * Time-series types: part 2 §9's 2 (allowed and blocked requests), 12 (requests the blacklist and
 * the block list stopped) and 13 (requests the WAF stopped), and the dashboard's traffic charts
 * (part 2 §2: traffic, cache, bandwidth, request count, upstream count and status) and QPS.
 */
export const STATISTICS_SERIES = {
  traffic: 1,
  passDrop: 2,
  bandwidth: 3,
  requests: 4,
  cache: 5,
  upstream: 6,
  status: 7,
  qps: 8,
  blacklist: 12,
  waf: 13,
} as const;
export type StatisticsSeriesType = (typeof STATISTICS_SERIES)[keyof typeof STATISTICS_SERIES];
export const STATISTICS_SERIES_TYPES = Object.values(STATISTICS_SERIES) as StatisticsSeriesType[];

/** The values each series type's points carry, in this order (legend keys of the console). */
export const SERIES_VALUES: Readonly<Record<StatisticsSeriesType, readonly string[]>> = {
  1: ['bytesOut', 'bytesIn'],
  2: ['pass', 'drop'],
  3: ['bandwidth'],
  4: ['requests'],
  5: ['hitRequests', 'missRequests', 'hitBytes', 'missBytes'],
  6: ['upstreamRequests', 'upstreamErrors'],
  7: ['s2xx', 's3xx', 's4xx', 's5xx', 'sOther'],
  8: ['qps'],
  12: ['blacklist'],
  13: ['waf'],
};

const isoTime = z.string().datetime({ offset: true });
const filterIds = zIds(STATISTICS_FILTER_IDS_MAX, 0).optional();

/** What every statistics call is about: a time range and optionally some sites and domains. */
const statisticsFilterBase = z.object({
  siteIDs: filterIds,
  domainIDs: filterIds,
  /**
   * The domain-tag filter of the screens (part 2 §3 "Query filters"): the domains carrying any of
   * these tags, within the other filters (an addition to the spec's settings: the console cannot
   * send every tagged domain's id).
   */
  domainTags: z.array(siteTagSchema).max(DOMAIN_TAGS_MAX).optional(),
  startTime: isoTime,
  endTime: isoTime,
});
function checkRange<T extends { startTime: string; endTime: string }>(value: T, ctx: z.RefinementCtx): void {
  const start = Date.parse(value.startTime);
  const end = Date.parse(value.endTime);
  if (!(end > start)) ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'endBeforeStart' });
  else if (end - start > STATISTICS_RANGE_MAX_DAYS * 86_400_000) {
    ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'rangeTooLong' });
  }
}
/** The customer's filter; the operator's adds the zones (part 2 §1: zone filtering is the operator's). */
const userFilter = statisticsFilterBase;
/** The customer's filter and the range check, for the other statistics calls (network-statistics.ts). */
export const userStatisticsFilter = userFilter;
export const checkStatisticsRange = checkRange;
const clientFilter = statisticsFilterBase.extend({
  zoneIDs: filterIds,
  userID: z.number().int().positive().optional(),
});
export type StatisticsFilter = z.output<typeof clientFilter>;

const cardBody = (f: typeof userFilter | typeof clientFilter) =>
  f
    .extend({
      type: z
        .number()
        .int()
        .refine((t) => STATISTICS_CARDS.includes(t), { message: 'invalidValue' }),
    })
    .superRefine(checkRange);
const topBody = (f: typeof userFilter | typeof clientFilter) =>
  f
    .extend({
      type: z
        .number()
        .int()
        .refine((t) => (STATISTICS_TOP_IDS as number[]).includes(t), { message: 'invalidValue' }),
      top: z.number().int().min(1).max(STATISTICS_TOP_MAX).default(10),
    })
    .superRefine(checkRange);
const seriesBody = (f: typeof userFilter | typeof clientFilter) =>
  f
    .extend({
      type: z
        .number()
        .int()
        .refine((t) => (STATISTICS_SERIES_TYPES as number[]).includes(t), { message: 'invalidValue' }),
      minutesStep: z
        .number()
        .int()
        .refine((m) => (STATISTICS_STEPS as readonly number[]).includes(m), { message: 'invalidValue' })
        .default(5),
    })
    .superRefine(checkRange)
    .superRefine((v, ctx) => {
      const points = (Date.parse(v.endTime) - Date.parse(v.startTime)) / (v.minutesStep * 60_000);
      if (points > STATISTICS_POINTS_MAX)
        ctx.addIssue({ code: 'custom', path: ['minutesStep'], message: 'tooManyPoints' });
    });
const listBody = (f: typeof userFilter | typeof clientFilter) =>
  f
    .extend({
      page: z.number().int().min(1).default(1),
      pageSize: z.number().int().min(1).max(PAGE_SIZE_MAX).default(10),
      sortBy: z.enum(['requests', 'bytesOut', 'blocked', 'domain']).default('requests'),
      orderBy: z.enum(['asc', 'desc']).default('desc'),
    })
    .superRefine(checkRange);

/** A card: totals over the range (every field is present; those a card does not use are 0). */
export const statisticsCardSchema = z.object({
  type: z.number().int(),
  requests: z.number(),
  bytesOut: z.number(),
  bytesIn: z.number(),
  /** Requests and bytes served from the cache. */
  hitRequests: z.number(),
  hitBytes: z.number(),
  /** Requests a firewall rule, the block list or a challenge kept from the origin. */
  blocked: z.number(),
  /** Of those, the blacklist and the block list (card 14), and the dropped ones (444, card 15). */
  blacklisted: z.number(),
  dropped: z.number(),
  upstreamRequests: z.number(),
  upstreamErrors: z.number(),
  /**
   * Peak bits per second and requests per second: averaged over the busiest minute for ranges up
   * to a day and over the busiest five minutes beyond; where nodes ship aggregates, the sum of
   * their own busiest seconds in the busiest minute (an upper bound of the busiest second).
   */
  peakBandwidth: z.number(),
  peakQps: z.number(),
  /** Distinct client addresses and countries (card 4). */
  uniqueIPs: z.number(),
  /**
   * The relative standard error of `uniqueIPs` when it is estimated from the nodes' address
   * sketches (HyperLogLog: HLL_STANDARD_ERROR, 0.81 %); 0 when it is exact.
   */
  uniqueIPsError: z.number().min(0),
  countries: z.number(),
  /** Answers by status class (card 5) and by tracked code (TRACKED_STATUS_CODES; others under "other"). */
  s2xx: z.number(),
  s3xx: z.number(),
  s4xx: z.number(),
  s5xx: z.number(),
  statusCodes: z.record(z.string(), z.number()),
  /** Events the nodes' spools dropped in the range (full spool), not in the other counts. */
  droppedEvents: z.number(),
});
export type StatisticsCard = z.infer<typeof statisticsCardSchema>;

/** The origin's response time percentiles of some requests (milliseconds; null: no request reached it). */
const upstreamTimesSchema = z.object({
  count: z.number().int().min(0),
  p50: z.number().nullable(),
  p95: z.number().nullable(),
  p99: z.number().nullable(),
});
/**
 * The origin's response times over the range, in all and per site: from the nodes' histograms and
 * the raw events alike, each percentile within `relativeError` of the true nearest-rank value.
 */
export const statisticsUpstreamTimesSchema = z.object({
  total: upstreamTimesSchema,
  sites: z.array(upstreamTimesSchema.extend({ siteID: z.number().int() })),
  relativeError: z.number(),
});
export type StatisticsUpstreamTimes = z.infer<typeof statisticsUpstreamTimesSchema>;

export const statisticsTopRowSchema = z.object({
  /** The value (a country code, a city, a URL, an address, a domain name, a status code …). */
  key: z.string(),
  /** A readable name where the key is a code (a country or city name in the caller's language). */
  name: z.string(),
  requests: z.number(),
  bytesOut: z.number(),
  blocked: z.number(),
});
export type StatisticsTopRow = z.infer<typeof statisticsTopRowSchema>;

export const statisticsSeriesSchema = z.object({
  type: z.number().int(),
  minutesStep: z.number().int(),
  /** SERIES_VALUES of the type. */
  keys: z.array(z.string()),
  /** One point per step from startTime (rounded down to the step), empty steps included as 0. */
  points: z.array(z.object({ time: z.string(), values: z.array(z.number()) })),
});
export type StatisticsSeries = z.infer<typeof statisticsSeriesSchema>;

export const statisticsDomainRowSchema = z.object({
  domainID: z.number().int(),
  domain: z.string(),
  siteID: z.number().int(),
  siteName: z.string(),
  requests: z.number(),
  bytesOut: z.number(),
  bytesIn: z.number(),
  hitRequests: z.number(),
  blocked: z.number(),
  s4xx: z.number(),
  s5xx: z.number(),
});
export type StatisticsDomainRow = z.infer<typeof statisticsDomainRowSchema>;

const userStats = tiers(['user'], 'user.statistics.read');
const clientStats = tiers(['client'], 'client.statistics.read');

const route = routeFamily({ tags: ['statistics'] });

function statisticsRoutes<P extends 'user' | 'client'>(prefix: P) {
  const access = prefix === 'user' ? userStats : clientStats;
  const filter = prefix === 'user' ? userFilter : clientFilter;
  const whose = prefix === 'user' ? "the caller's sites" : "the operator's sites (optionally by zone and customer)";
  return {
    info: route.post(`${prefix}.statistics.info`, `/${prefix}/statistics/info`, {
      access,
      summary: `A card (type 3, 4, 5, 14 or 15) over ${whose} in the time range`,
      body: cardBody(filter),
      response: dataOf(statisticsCardSchema),
    }),
    top: route.post(`${prefix}.statistics.top`, `/${prefix}/statistics/top`, {
      access,
      summary: `A top list (STATISTICS_TOPS) over ${whose} in the time range, largest first`,
      body: topBody(filter),
      response: dataOf(z.array(statisticsTopRowSchema)),
    }),
    upstreamTimes: route.post(`${prefix}.statistics.upstreamTimes`, `/${prefix}/statistics/upstreamTimes`, {
      access,
      summary: `The origin's response time percentiles (p50, p95, p99) of ${whose} in the time range, in all and per site`,
      body: filter.superRefine(checkRange),
      response: dataOf(statisticsUpstreamTimesSchema),
    }),
    timeSeries: route.post(`${prefix}.statistics.timeSeries`, `/${prefix}/statistics/timeSeries`, {
      access,
      summary: `A time series (STATISTICS_SERIES) over ${whose}, one point per minutesStep`,
      body: seriesBody(filter),
      response: dataOf(statisticsSeriesSchema),
    }),
    list: route.post(`${prefix}.statistics.list`, `/${prefix}/statistics/list`, {
      access,
      summary: `Totals per domain of ${whose} in the time range, paged`,
      body: listBody(filter),
      response: pageOf(statisticsDomainRowSchema),
    }),
    export: route.post(`${prefix}.statistics.export`, `/${prefix}/statistics/list/export`, {
      access,
      summary: `The per-domain totals of ${whose} as a CSV file (every row, formulas neutralised); its name is in the Content-Disposition header`,
      body: listBody(filter),
      response: z.string(),
      reply: 'raw',
    }),
  } as const;
}

const user = statisticsRoutes('user');
const client = statisticsRoutes('client');

export const userStatisticsInfo = user.info;
export const userStatisticsTop = user.top;
export const userStatisticsTimeSeries = user.timeSeries;
export const userStatisticsUpstreamTimes = user.upstreamTimes;
export const userStatisticsList = user.list;
export const userStatisticsExport = user.export;
export const clientStatisticsInfo = client.info;
export const clientStatisticsTop = client.top;
export const clientStatisticsTimeSeries = client.timeSeries;
export const clientStatisticsUpstreamTimes = client.upstreamTimes;
export const clientStatisticsList = client.list;
export const clientStatisticsExport = client.export;

export const statisticsRoutesOf = {
  userStatisticsInfo,
  userStatisticsTop,
  userStatisticsTimeSeries,
  userStatisticsUpstreamTimes,
  userStatisticsList,
  userStatisticsExport,
  clientStatisticsInfo,
  clientStatisticsTop,
  clientStatisticsTimeSeries,
  clientStatisticsUpstreamTimes,
  clientStatisticsList,
  clientStatisticsExport,
} as const;
