import type { Localized } from './locale.js';

/*
 * Business constants and limits of spec part 1 §9 and part 2 §9 (plus the few of §1, §3 and §4
 * the brief names). Server validation and the console read them from here so the two cannot drift.
 */

// Timing

/** Time-out of every console call (part 1 §9). */
export const REQUEST_TIMEOUT_MS = 300_000;
/** Pause after a successful write before the console reloads (part 1 §9). */
export const POST_REQUEST_DELAY_MS = 200;
/** Node list auto-refresh period (part 1 §9, part 2 §9). */
export const NODE_LIST_REFRESH_MS = 5000;
/** Node information auto-refresh period (part 1 §9, part 2 §9). */
export const NODE_INFO_REFRESH_MS = 2000;
/** Time-out before a lazily loaded console chunk counts as failed (part 1 §9). */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

// Paging

/** Default page (part 1 §9, part 2 §9). */
export const PAGE_DEFAULT = 1;
/** Default page size when none is given (part 1 §9, part 2 §9). */
export const PAGE_SIZE_DEFAULT = 10;
/** Page-size choices of ordinary lists (part 1 §9). */
export const PAGE_SIZE_CHOICES = [25, 50, 75, 100] as const;
/** Page-size choices of admin and traffic lists (part 1 §9). */
export const PAGE_SIZE_CHOICES_LARGE = [25, 50, 75, 100, 200, 500] as const;
/** Page-size choices of the traffic report (part 2 §9). */
export const TRAFFIC_REPORT_PAGE_SIZES = [25, 50, 100, 200, 500] as const;
/** Largest page size any list accepts: the largest choice offered (part 1 §9). */
export const PAGE_SIZE_MAX = 500;

// QPS view

/** QPS view poll period, 5 minutes (part 2 §4, §9). */
export const QPS_POLL_MS = 300_000;
/** QPS series step (part 2 §9). */
export const QPS_STEP_MINUTES = 5;
/** QPS window (part 2 §9). */
export const QPS_WINDOW_HOURS = 6;
/**
 * Page size the QPS view asks for (part 2 §9). It is far above {@link PAGE_SIZE_MAX}, so the QPS
 * call needs its own query schema rather than `pageQuery`.
 */
export const QPS_PAGE_SIZE = 26_784;

// Input limits

/** Most IPs in one list; beyond it the `max5000IPs` message (part 1 §5, §9). */
export const MAX_IPS = 5000;
/** Most characters in a text block (part 1 §5, §9). */
export const TEXT_BLOCK_MAX = 5000;
/** Most characters in a generic text field (part 1 §5, §9). */
export const GENERIC_TEXT_MAX = 256;
/** Shortest domain label (part 1 §5, §9). */
export const DOMAIN_LABEL_MIN = 1;
/** Longest domain label (part 1 §5, §9). */
export const DOMAIN_LABEL_MAX = 63;
/** Most URL redirect rules per site; beyond it 205007 (part 1 §9). */
export const REDIRECT_RULES_MAX = 3000;

// Units and time

/** Base of size and traffic unit conversion, decimal not binary (part 1 §9). */
export const UNIT_BASE = 1000;
/** Decimals shown after unit conversion (part 1 §9). */
export const UNIT_DECIMALS = 2;
/** Times are rounded to buckets of this many minutes (part 1 §9). */
export const TIME_BUCKET_MINUTES = 5;
/** Zone used for the queries that are not in the browser's zone (part 1 §9). */
export const TAIPEI_TIME_ZONE = 'Asia/Taipei';

// Status codes, methods, versions, protocols, file types

/** Status-code filter options (part 1 §9, part 2 §9). */
export const STATUS_CODE_FILTERS = [400, 403, 500, 502, 504, 903, 929] as const;
/** The second status-code filter list, without 903 (part 1 §9, part 2 §9). */
export const STATUS_CODE_FILTERS_NO_903 = [400, 403, 500, 502, 504, 929] as const;
/** Status codes the statistics track (part 2 §9). */
export const TRACKED_STATUS_CODES = [
  200, 206, 301, 302, 400, 403, 404, 444, 499, 500, 502, 503, 504, 903, 904, 929, 978,
] as const;
/** The tracked code that means the connection was dropped (part 2 §9). */
export const DROP_STATUS_CODE = 444;
/** HTTP methods the statistics track; OTHER collects the rest (part 2 §9). */
export const HTTP_METHODS_TRACKED = ['GET', 'POST', 'DELETE', 'PUT', 'HEAD', 'PATCH', 'OPTIONS', 'OTHER'] as const;
/** HTTP versions the statistics track (part 2 §9). */
export const HTTP_VERSIONS = ['1.0', '1.1', '2', '3'] as const;
/** Layer-4 protocols of filters and attack data (part 1 §9, part 2 §9). */
export const L4_PROTOCOLS = ['TCP', 'UDP', 'ICMP', 'GRE'] as const;
/** File extensions per cache file-type group (part 1 §9, part 2 §9). */
export const FILE_TYPE_GROUPS = {
  image: ['gif', 'png', 'jpg', 'jpeg', 'bmp'],
  page: ['html', 'htm', 'shtml', 'js', 'css', 'woff2'],
  audioVideo: ['mp3', 'wma', 'flv', 'mp4', 'wmv'],
  file: ['ipa', 'apk'],
} as const;

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

// Console layout

/** Default modal width in px (part 1 §9). */
export const MODAL_DEFAULT_WIDTH = 400;
/** Default modal top offset in px (part 1 §9). */
export const MODAL_DEFAULT_TOP = 100;
/** Success toast top offset in px (part 1 §9, part 2 §9). */
export const SUCCESS_TOAST_TOP = 50;

// Session and build

/** Token cookie name prefix per console (part 1 §3). */
export const TOKEN_COOKIE_PREFIX = { user: 'u_', client: 'c_', admin: 'a_' } as const;
/** Token cookie lifetime: 2 years (part 1 §3). */
export const TOKEN_COOKIE_DAYS = 730;
/** Front-end version of the build (part 1 §1). */
export const FRONTEND_VERSION = '1.11.5';
/** Accept-Language the console sends when nothing else is chosen (part 2 §9). */
export const DEFAULT_LOCALE_HEADER = 'zh-TW';
