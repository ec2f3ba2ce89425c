import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  checkErrorExtra,
  type ErrorReply,
  errorMessage,
  errorStatus,
  formatMessage,
  type Locale,
  localeFromLanguageTag,
  VALIDATION_MESSAGES,
} from '@rampart/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestLocale } from '../http/request-locale.js';
import { AppError } from './app-error.js';

/** The reply's `extra`: the error's own, with its refused fields (if any) worded for the caller. */
function extraOf(error: AppError, locale: Locale): unknown {
  if (!error.fields) return error.extra;
  const fields = error.fields.map((f) => ({
    in: f.in,
    field: f.field,
    key: f.key,
    message: formatMessage(VALIDATION_MESSAGES[f.key][locale], f.params),
  }));
  const own = typeof error.extra === 'object' && error.extra !== null ? error.extra : {};
  return { ...own, fields };
}

/** `check` (tests): an `extra` that breaks its code's schema in the contract is logged and answered 101002. */
function replyWith(request: FastifyRequest, reply: FastifyReply, error: AppError, check = false): FastifyReply {
  const locale = requestLocale(request);
  const extra = extraOf(error, locale);
  if (check) {
    const checked = checkErrorExtra(error.code, extra);
    if (!checked.ok) {
      request.log.error({ code: error.code, extra, problem: checked.problem }, 'error reply breaks its extra schema');
      return replyWith(request, reply, new AppError(101002, { cause: new Error(checked.problem) }));
    }
  }
  const body: ErrorReply = {
    code: error.code,
    message: errorMessage(error.code, locale, error.params),
    ...(extra === undefined ? {} : { extra }),
    ...(error.errors
      ? {
          errors: error.errors.map((e) => ({
            code: e.code,
            message: errorMessage(e.code, locale),
            targets: [...e.targets],
          })),
        }
      : {}),
  };
  if (error.headers) reply.headers(error.headers);
  return reply
    .status(error.status ?? errorStatus(error.code))
    .type('application/json; charset=utf-8')
    .send(body);
}

type RequestReason =
  | 'bodyTooLarge'
  | 'unsupportedMediaType'
  | 'invalidJson'
  | 'emptyJsonBody'
  | 'urlTooLong'
  | 'headersTooLarge'
  | 'requestTimeout'
  | 'badRequest';

/** A request refused before any route read it: 101003 with the framework's status and a localized reason. */
function requestError(reason: RequestReason, status: number, locale: Locale): AppError {
  return new AppError(101003, { status, extra: { reason, message: VALIDATION_MESSAGES[reason][locale] } });
}

/** Fastify's own error codes for requests it refuses before a handler runs, and what they mean. */
const FRAMEWORK_REASONS: Readonly<Record<string, RequestReason>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupportedMediaType',
  FST_ERR_CTP_BODY_TOO_LARGE: 'bodyTooLarge',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'badRequest',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'emptyJsonBody',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalidJson',
  FST_ERR_MAX_PARAM_LENGTH: 'urlTooLong',
  FST_ERR_BAD_URL: 'badRequest',
  // @fastify/multipart: more parts, files or fields than allowed, or a form that cannot be read.
  FST_PARTS_LIMIT: 'bodyTooLarge',
  FST_FILES_LIMIT: 'bodyTooLarge',
  FST_FIELDS_LIMIT: 'bodyTooLarge',
  FST_REQ_FILE_TOO_LARGE: 'bodyTooLarge',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'unsupportedMediaType',
};

/** Errors Fastify raises before a handler runs (bad JSON, wrong content type, body too large). */
function fromFramework(error: FastifyError, locale: Locale): AppError | null {
  const status = error.statusCode ?? 500;
  if (status === 404) return new AppError(101004);
  if (status >= 400 && status < 500) {
    const reason = FRAMEWORK_REASONS[error.code] ?? (status === 413 ? 'bodyTooLarge' : 'badRequest');
    return requestError(reason, status, locale);
  }
  return null;
}

/** Errors the router raises before a route is chosen (a URL it cannot decode, a parameter over its length limit). */
export function frameworkErrorReply(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return replyWith(request, reply, fromFramework(error, requestLocale(request)) ?? new AppError(101002));
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them: headers (or the request line,
 * so a URL) over the size limit, a malformed request, a client too slow to send its headers. They
 * get the catalogue's reply too. No request object exists yet, so the language is read from the
 * raw bytes received when they hold an Accept-Language line.
 */
export function clientErrorReply(error: Error & { code?: string; rawPacket?: unknown }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const received = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.toString('latin1') : '';
  const language = /\r\naccept-language:[ \t]*([^\r\n]*)/i.exec(received)?.[1];
  const locale = localeFromLanguageTag(language, 'en_US');
  const [reason, status]: [RequestReason, number] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ['headersTooLarge', 431]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['requestTimeout', 408]
        : ['badRequest', 400];
  const body = Buffer.from(
    JSON.stringify({
      code: 101003,
      message: errorMessage(101003, locale),
      extra: { reason, message: VALIDATION_MESSAGES[reason][locale] },
    } satisfies ErrorReply),
  );
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${body.length}\r\nConnection: close\r\nX-Content-Type-Options: nosniff\r\n\r\n`,
    );
    socket.write(body);
  }
  socket.destroy(error);
}

/**
 * Every failure leaves as `{ code, message, extra }` with the catalogue's status. Anything
 * unexpected is logged with its stack and answered with 101002 and nothing else: no stack, SQL or
 * file path reaches the client.
 */
export function installErrorHandling(
  app: FastifyInstance,
  /** Answers an unmatched path some other way (the console's pages); `null` means 101004. */
  fallback: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | null,
  { checkReplies = false }: { checkReplies?: boolean } = {},
): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      // A request shed by design (101005: too many at once) is no failure: one line, no stack, as
      // they come by the thousand under load (counted in the metrics where they are refused).
      if (error.code === 101005) request.log.warn({ code: 101005, url: request.url }, 'request shed: busy');
      else if (errorStatus(error.code) >= 500) request.log.error({ err: error, cause: error.cause }, 'request failed');
      return replyWith(request, reply, error, checkReplies);
    }
    const mapped = fromFramework(error as FastifyError, requestLocale(request));
    if (mapped) return replyWith(request, reply, mapped, checkReplies);
    request.log.error({ err: error }, 'unexpected error');
    return replyWith(request, reply, new AppError(101002));
  });

  app.setNotFoundHandler(
    (request, reply) => fallback(request, reply) ?? replyWith(request, reply, new AppError(101004)),
  );
}
