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
