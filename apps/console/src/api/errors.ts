import {
  ACCOUNT_DELETE_REFUSAL_MESSAGES,
  DEFAULT_ERROR_MESSAGE,
  ERROR_EXTRA,
  errorMessage,
  type FieldError,
  fieldErrorSchema,
  formatMessage,
  INVALID_LICENSE_KEY_MESSAGE,
  isErrorCode,
  LOG_EXPORT_ACTIVE_MAX,
  type Locale,
  PORT_MAPPING_MESSAGE,
} from '@rampart/contract';
import { z } from 'zod';
import { ApiError } from './client';

/** What to show for a failed call. */
export interface ErrorDescription {
  message: string;
  /** 101009 only: each failed code's message with the targets it concerns, for a list dialog. */
  details?: { code: number; message: string; targets: readonly string[] }[];
}

export interface DescribeOptions {
  /** The account's daily log export quota, the number of a 601002 message. */
  maxLogExportTimes?: number;
  /** A caller-specific code whose message replaces 101025 (Duplicated data). */
  duplicateCode?: number;
  /**
   * The caller's text of a 101029 (number of items exceeds limit) with the limit: the number the
   * server sent (extra.max), else undefined for the caller to name its own.
   */
  limitText?: (max: number | undefined) => string;
}

/**
 * The display rules of spec part 1 §8 that do not depend on the session (the session codes
 * 101013–101016 are handled where tokens live). Returns null when nothing is to be shown:
 * 101001 (a success that carries a code) and cancelled calls.
 */
export function describeApiError(err: unknown, locale: Locale, options: DescribeOptions = {}): ErrorDescription | null {
  if (isAbort(err)) return null;
  if (!(err instanceof ApiError)) return { message: DEFAULT_ERROR_MESSAGE[locale] };
  const { code } = err;
  const fallback = () => ({ message: codeText(code, locale) ?? (err.serverMessage || DEFAULT_ERROR_MESSAGE[locale]) });

  switch (code) {
    case 101001:
      return null;
    case 101009:
      return {
        message: errorMessage(101009, locale),
        details: err.errors.map((entry) => ({
          code: entry.code,
          message: codeText(entry.code, locale) ?? entry.message,
          targets: entry.targets,
        })),
      };
    case 101025:
      return { message: codeText(options.duplicateCode, locale) ?? errorMessage(101025, locale) };
    case 101029: {
      if (!options.limitText) return fallback();
      const limit = ERROR_EXTRA[101029].safeParse(err.extra);
      return { message: options.limitText(limit.success ? limit.data.max : undefined) };
    }
    case 401003: {
      const mapping = ERROR_EXTRA[401003].safeParse(err.extra);
      if (!mapping.success) return { message: err.serverMessage || errorMessage(401003, locale) };
      return { message: formatMessage(PORT_MAPPING_MESSAGE[locale], { port: mapping.data.port }) };
    }
    case 205003: {
      // An account delete refused: say what it still has (extra.reason, extra.count).
      const refusal = ERROR_EXTRA[205003].safeParse(err.extra);
      if (!refusal.success) return fallback();
      return {
        message: formatMessage(ACCOUNT_DELETE_REFUSAL_MESSAGES[refusal.data.reason][locale], {
          count: refusal.data.count,
        }),
      };
    }
    case 601001: {
      // The number the server sent (extra.num), else the contract's limit (spec part 1 §8: 3).
      const quota = ERROR_EXTRA[601001].safeParse(err.extra);
      return { message: errorMessage(601001, locale, { num: quota.success ? quota.data.num : LOG_EXPORT_ACTIVE_MAX }) };
    }
    case 601002: {
      // The account's maxLogExportTimes: as the server sent it (extra.num), else as the caller knows it.
      const quota = ERROR_EXTRA[601002].safeParse(err.extra);
      const num = quota.success ? quota.data.num : options.maxLogExportTimes;
      if (num === undefined) return { message: err.serverMessage || err.message };
      return { message: errorMessage(601002, locale, { num }) };
    }
    case 101003:
      if (typeof err.extra === 'string' && /invalid license key/i.test(err.extra)) {
        return { message: INVALID_LICENSE_KEY_MESSAGE[locale] };
      }
      // Shown where no form holds the fields (a delete refused with certificateInUse): their own texts say more.
      return { message: fieldMessages(err.extra) ?? fallback().message };
    default:
      return fallback();
  }
}

const parameterErrorExtra = z.object({ fields: z.array(fieldErrorSchema) });

/** The per-field errors in the `extra` of a 101003 reply (`extra.fields`); empty when there are none. */
export function parameterErrorFields(extra: unknown): FieldError[] {
  const parsed = parameterErrorExtra.safeParse(extra);
  return parsed.success ? parsed.data.fields : [];
}

/** The messages of a 101003 reply's `extra.fields`, one per line; undefined when it names none. */
function fieldMessages(extra: unknown): string | undefined {
  const texts = parameterErrorFields(extra)
    .map((field) => field.message)
    .filter((text) => text !== '');
  return texts.length > 0 ? [...new Set(texts)].join('\n') : undefined;
}

function codeText(code: number | undefined, locale: Locale): string | undefined {
  return isErrorCode(code) ? errorMessage(code, locale) : undefined;
}

/** A cancelled call. Checked by name: DOMException is not an Error subclass in every runtime. */
function isAbort(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';
}
