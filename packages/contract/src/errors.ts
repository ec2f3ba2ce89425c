import { ERRORS_1XXXXX } from './error-catalogue-1.js';
import { ERRORS_2XXXXX } from './error-catalogue-2.js';
import { ERRORS_3XXXXX_9XXXXX } from './error-catalogue-3-9.js';
import type { ErrorEntry } from './error-entry.js';
import { formatMessage, type Locale, type Localized } from './locale.js';

/**
 * The error catalogue: every code of spec part 1 §8 and part 2 §8 with the HTTP status the
 * server answers with, a localized message and when it is thrown.
 *
 * The spec gives codes and texts but no HTTP statuses, so each code belongs to a family and the
 * family fixes the status. The console never branches on the status (it reads `code`), so the
 * status is for HTTP intermediaries, logs and API clients; keeping it per family keeps it
 * predictable.
 *
 *   family      status  codes
 *   ok          200     101001 (a success reply that still carries a code)
 *   parameter   400     invalid input: 101003, 101006, 101011, 101020, 101021, 101023, 202006,
 *                       301001, 401003, 401008
 *   multiple    400     101009: a batch in which every item failed on its own; each item's code
 *                       is in `errors`, and those are mostly input problems
 *   auth        401     101012–101016: the credential or token is missing, wrong or spent; the
 *                       console logs out (or refreshes on 101014)
 *   permission  403     101008, 101018, 205002: the caller is known but may not do this
 *   licence     403     101019, 101022, 900001: the installation's licence forbids the call.
 *                       101022 stays here rather than 404: it means "no licence installed",
 *                       not "no such resource" in the requested path
 *   notFound    404     101004: the API path does not exist
 *   conflict    409     duplicates and "in use / still has / exists in": the request is valid but
 *                       the current state refuses it (202008, a node version mismatch, too: the
 *                       node must be upgraded first, the input is not wrong)
 *   limit       422     a count, length or quota bound is exceeded: the input is well formed but
 *                       would take a resource over its limit
 *   rate        429     601001, 601002: log download quotas (concurrent, daily); they reset over
 *                       time, so a retry later succeeds
 *   upstream    502     101007, 101010, 101024, 202001: a proxy, DNS, licence server or node the
 *                       server talks to failed
 *   internal    500     101002, 101005: our own fault
 */
export type { ErrorEntry, ErrorFamily } from './error-entry.js';
export { ERROR_FAMILY_STATUS } from './error-entry.js';

/** English texts are the spec's (part 1 §8) verbatim, odd casing included. */
export const ERROR_CATALOGUE = {
  ...ERRORS_1XXXXX,
  ...ERRORS_2XXXXX,
  ...ERRORS_3XXXXX_9XXXXX,
} as const satisfies Record<number, ErrorEntry>;
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Every code, ascending (integer keys enumerate in numeric order). */
export const ERROR_CODES: readonly ErrorCode[] = Object.keys(ERROR_CATALOGUE).map(Number) as ErrorCode[];

/** The fallback text of a failed call without a usable message (part 1 §8). */
export const DEFAULT_ERROR_MESSAGE: Localized = {
  en_US: 'Some Error Occurred',
  zh_CN: '发生错误',
  zh_TW: '發生錯誤',
};

/**
 * 401003 with the port the server named in `extra` ('port N is ...'); the console falls back to
 * the server's raw message when no port can be parsed.
 */
export const PORT_MAPPING_MESSAGE: Localized = {
  en_US: 'Illegal port mapping settings: port {port} is not available',
  zh_CN: '端口映射设置无效：端口 {port} 不可用',
  zh_TW: '連接埠對應設定無效：連接埠 {port} 無法使用',
};

/** 101003 whose extra is 'invalid license key' (part 1 §8). */
export const INVALID_LICENSE_KEY_MESSAGE: Localized = {
  en_US: 'Invalid License Key',
  zh_CN: '授权密钥无效',
  zh_TW: '授權金鑰無效',
};

export function isErrorCode(n: unknown): n is ErrorCode {
  return typeof n === 'number' && Object.hasOwn(ERROR_CATALOGUE, n);
}

export function errorStatus(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}

/** The localized text of a code with `{name}` placeholders filled (e.g. `{num}` of 601001). */
export function errorMessage(code: ErrorCode, locale: Locale, params?: Record<string, string | number>): string {
  return formatMessage(ERROR_CATALOGUE[code].message[locale], params);
}
