import {
  type AnyRoute,
  API_BASE,
  DEFAULT_ERROR_MESSAGE,
  type ErrorReply,
  errorMessage,
  errorReplySchema,
  fillPath,
  isErrorCode,
  type Locale,
  POST_REQUEST_DELAY_MS,
  queryString,
  REQUEST_TIMEOUT_MS,
  type RouteInput,
  type RouteReply,
} from '@rampart/contract';
import { currentLocale } from '../i18n/i18n';
import { LOCALE_TAGS } from '../i18n/locale-tags';

/** One entry of a 101009 (Multiple Errors) reply. */
export type MultiErrorEntry = NonNullable<ErrorReply['errors']>[number];

/** Why a call failed: the server answered non-2xx (`reply`), no answer arrived (`network`), or it took too long. */
export type ApiFailure = 'reply' | 'network' | 'timeout';

interface ApiErrorInit {
  failure: ApiFailure;
  status: number;
  message: string;
  code?: number | undefined;
  serverMessage?: string | undefined;
  extra?: unknown;
  errors?: readonly MultiErrorEntry[] | undefined;
  cause?: unknown;
}

/**
 * A failed call (spec part 1 §8: isError, message, code, extra, plus the 101009 list).
 * `message` is already localized: the catalogue text of a known code, else the server's message,
 * else 'Some Error Occurred'. How to show an error is `describeApiError`'s job (api/errors.ts).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly isError = true;
  readonly failure: ApiFailure;
  /** HTTP status of the reply; 0 when no reply arrived. */
  readonly status: number;
  /** Catalogue code of the reply; undefined when the reply carried none (or there was no reply). */
  readonly code: number | undefined;
  /** The server's own message, untranslated. */
  readonly serverMessage: string | undefined;
  readonly extra: unknown;
  /** The per-code entries of a 101009 reply; empty otherwise. */
  readonly errors: readonly MultiErrorEntry[];

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.failure = init.failure;
    this.status = init.status;
    this.code = init.code;
    this.serverMessage = init.serverMessage;
    this.extra = init.extra;
    this.errors = init.errors ?? [];
  }
}

export interface CallOptions {
  /** Cancels the call (TanStack Query passes one); a cancelled call rejects with the abort reason, not an ApiError. */
  signal?: AbortSignal;
  /**
   * Access token sent as `Authorization: Bearer <token>`. Pages do not pass it themselves:
   * `callAuthed` (session/call-authed.ts) reads the tier's session, refreshes once on 101014 and
   * ends the session on 101013/15/16.
   */
  token?: string;
}

/** Timing of every call (spec part 1 §7, §9). Mutable only so tests need not wait; the app never changes it. */
export const apiClientConfig = {
  timeoutMs: REQUEST_TIMEOUT_MS,
  postRequestDelayMs: POST_REQUEST_DELAY_MS,
};

/** Calls a JSON route of the contract and resolves with its 2xx body; rejects with {@link ApiError}. */
export async function callApi<R extends AnyRoute>(
  route: R,
  input: RouteInput<R>,
  options: CallOptions = {},
): Promise<RouteReply<R>> {
  if (route.reply === 'raw') throw new Error(`route ${route.id} answers raw content: use callApiRaw`);
  return exchange(route, input, options, readJson) as Promise<RouteReply<R>>;
}

/**
 * Calls a route that answers with its own content type (a file, a document). Resolves with the
 * buffered Response, so its headers (e.g. the file name of an export) can be read.
 */
export function callApiRaw<R extends AnyRoute>(
  route: R,
  input: RouteInput<R>,
  options: CallOptions = {},
): Promise<Response> {
  return exchange(route, input, options, async (response) => new Response(await response.blob(), response));
}

/** `API_BASE` + the filled path + the query string (the contract's `queryString`, as the tests' caller builds it). */
export function routeUrl(route: AnyRoute, input: { params?: unknown; query?: unknown }): string {
  return (
    API_BASE + fillPath(route.path, input.params as Record<string, unknown> | undefined) + queryString(input.query)
  );
}

/**
 * The body of a form-data route: strings become text parts, Blobs (Files) file parts, undefined
 * values are left out. The browser sets the multipart Content-Type with its boundary.
 */
function formDataOf(values: unknown): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
    if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : name);
    else if (value !== undefined && value !== null) form.append(name, String(value));
  }
  return form;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

async function exchange<T>(
  route: AnyRoute,
  input: { params?: unknown; query?: unknown; body?: unknown },
  options: CallOptions,
  read: (response: Response, locale: Locale) => Promise<T>,
): Promise<T> {
  const locale = currentLocale();
  const url = routeUrl(route, input);
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': LOCALE_TAGS[locale] };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | FormData | undefined;
  if (route.method !== 'GET' && input.body !== undefined) {
    if (route.bodyType === 'multipart') body = formDataOf(input.body);
    else {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(input.body);
    }
  }

  // One controller for both the time-out and the caller's signal, so fetch sees a single signal.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, apiClientConfig.timeoutMs);
  const callerSignal = options.signal;
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });

  let outcome: Outcome<T>;
  try {
    const response = await fetch(url, { method: route.method, headers, body, signal: controller.signal });
    if (!response.ok) throw await replyError(response, locale);
    outcome = { ok: true, value: await read(response, locale) };
  } catch (error) {
    if (callerSignal?.aborted && !timedOut) throw error; // cancelled: no delay, not an ApiError
    outcome = { ok: false, error: asApiError(error, timedOut, locale) };
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }

  await delay(apiClientConfig.postRequestDelayMs);
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

async function readJson(response: Response, locale: Locale): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new ApiError({ failure: 'reply', status: response.status, message: DEFAULT_ERROR_MESSAGE[locale], cause });
  }
}

/** Reads a non-2xx reply `{ code, message, extra, errors? }` into an ApiError. */
async function replyError(response: Response, locale: Locale): Promise<ApiError> {
  let json: unknown;
  try {
    json = JSON.parse(await response.text());
  } catch {
    json = undefined;
  }
  const parsed = errorReplySchema.safeParse(json);
  if (!parsed.success) {
    return new ApiError({ failure: 'reply', status: response.status, message: DEFAULT_ERROR_MESSAGE[locale] });
  }
  const { code, message, extra, errors } = parsed.data;
  return new ApiError({
    failure: 'reply',
    status: response.status,
    code,
    message: isErrorCode(code) ? errorMessage(code, locale) : message || DEFAULT_ERROR_MESSAGE[locale],
    serverMessage: message,
    extra,
    errors,
  });
}

function asApiError(error: unknown, timedOut: boolean, locale: Locale): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError({
    failure: timedOut ? 'timeout' : 'network',
    status: 0,
    message: DEFAULT_ERROR_MESSAGE[locale],
    cause: error,
  });
}

function delay(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
