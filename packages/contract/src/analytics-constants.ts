import type { Localized } from './locale.js';

/*
 * The statistics' and charts' constants of spec part 1 §3, §9 and part 2 §4, §9: a module of their
 * own (re-exported by the contract's index) so that the console's first load, which takes
 * constants.ts, does not carry them; only the analytics pages do.
 */

// Dashboards and statistics

/** Dashboard card ids (part 1 §3). */
export const DASHBOARD_CARD_IDS = {
  requestInfo: 3,
  ipInfo: 4,
  statusInfo: 5,
  blacklistInfo: 14,
  blockInfo: 15,
} as const;
/** Top-list ids (part 1 §3). */
export const TOP_LIST_IDS = {
  country: 11,
  city: 12,
  referer: 14,
  blacklist: 18,
  url: 19,
  userAgent: 20,
  blockCountry: 21,
  blockCity: 22,
  attackMethods: 23,
  attackDomains: 24,
  attackIPs: 25,
} as const;
/** Card types of the security dashboard (part 2 §9). */
export const SECURITY_CARD_TYPES = [3, 4, 5, 14, 15] as const;
/** Tops the security dashboard always shows (part 2 §9). */
export const SECURITY_FIXED_TOPS = [14, 19, 20] as const;
/** Country tops, all and blocked (part 2 §9). */
export const SECURITY_COUNTRY_TOPS = [11, 21] as const;
/** City tops, all and blocked (part 2 §9). */
export const SECURITY_CITY_TOPS = [12, 22] as const;
/** WAF tops: attack methods, domains, IPs (part 2 §9). */
export const SECURITY_WAF_TOPS = [23, 24, 25] as const;
/** Blacklist top (part 2 §9). */
export const SECURITY_BLACKLIST_TOP = 18;
/** Time-series types of the security dashboard (part 2 §9). */
export const SECURITY_TIME_SERIES_TYPES = [2, 12, 13] as const;
/** Area choices of the country/city tops (part 2 §9). */
export const AREA_OPTIONS = ['country', 'city'] as const;
/** Default count type of statistics (part 2 §9). */
export const COUNT_TYPE_DEFAULT = 'reqCount';

/** Default report interval in minutes (part 2 §9). */
export const REPORT_INTERVAL_DEFAULT = 5;
/** Dashboard intervals in minutes per widget kind (part 2 §9). */
export const DASHBOARD_INTERVALS = { traffic: 15, bandwidth: 15, request: 15, statusCode: 15, security: 60 } as const;
/** Step in minutes of the blacklist and WAF series (part 2 §9). */
export const BLACKLIST_WAF_STEP_MINUTES = 60;
/** Top counts: default, network attack tops, dynamic country/city tops, WAF analysis tops (part 2 §9). */
export const TOP_COUNTS = { default: 10, networkAttack: 5, area: 30, waf: 20 } as const;
/** Default time interval in hours per view (part 2 §4). */
export const DEFAULT_TIME_INTERVAL_HOURS = {
  userStatistics: 1,
  security: 6,
  networkAttack: 6,
  statsDashboard: 3,
} as const;

// Charts

/** Pass and drop series colours; every rule type shares the one grey (part 1 §9, part 2 §9). */
export const CHART_COLORS = { pass: '#2e7d32', drop: '#c62828', ruleType: '#8c8c8c' } as const;
/** Legends of the pass and drop series (part 1 §9, part 2 §9). */
export const CHART_LABELS = {
  pass: { en_US: 'allowed traffic', zh_CN: '放行流量', zh_TW: '放行流量' },
  drop: { en_US: 'blocked traffic', zh_CN: '拦截流量', zh_TW: '阻擋流量' },
} as const satisfies Record<'pass' | 'drop', Localized>;
/**
 * The 21-colour categorical palette (part 1 §9, part 2 §9): Kelly's colours of maximum contrast
 * without white (it vanishes on the page), reordered to start with the blue/orange pair that
 * colour-blind readers also tell apart, and with near-black last because dark themes lose it.
 */
export const CHART_PALETTE = [
  '#0067a5',
  '#f38400',
  '#008856',
  '#be0032',
  '#875692',
  '#882d17',
  '#e68fac',
  '#848482',
  '#8db600',
  '#a1caf1',
  '#f3c300',
  '#604e97',
  '#f99379',
  '#b3446c',
  '#c2b280',
  '#dcd300',
  '#654522',
  '#e25822',
  '#2b3d26',
  '#f6a600',
  '#222222',
] as const;
