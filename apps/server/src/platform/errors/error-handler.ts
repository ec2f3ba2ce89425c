import { type ErrorCode, type ErrorReply, errorMessage, errorStatus } from '@rampart/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestLocale } from '../http/request-locale.js';
import { AppError } from './app-error.js';

function replyWith(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  const locale = requestLocale(request);
  const body: ErrorReply = {
    code: error.code,
    message: errorMessage(error.code, locale, error.params),
    ...(error.extra === undefined ? {} : { extra: error.extra }),
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

/** Errors Fastify raises before a handler runs (bad JSON, wrong content type, body too large). */
function fromFramework(error: FastifyError): AppError | null {
  const status = error.statusCode ?? 500;
  if (status === 404) return new AppError(101004);
  if (status >= 400 && status < 500) {
    // The framework's own text is safe (no paths or SQL) and says what was wrong with the request.
    const reason: Record<string, string> = {
      FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported content type',
      FST_ERR_CTP_BODY_TOO_LARGE: 'request body too large',
      FST_ERR_CTP_EMPTY_JSON_BODY: 'empty JSON body',
      FST_ERR_CTP_INVALID_JSON_BODY: 'invalid JSON body',
    };
    const code: ErrorCode = 101003;
    return new AppError(code, { extra: { reason: reason[error.code] ?? 'bad request' } });
  }
  return null;
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
): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (errorStatus(error.code) >= 500) request.log.error({ err: error, cause: error.cause }, 'request failed');
      return replyWith(request, reply, error);
    }
    const mapped = fromFramework(error as FastifyError);
    if (mapped) return replyWith(request, reply, mapped);
    request.log.error({ err: error }, 'unexpected error');
    return replyWith(request, reply, new AppError(101002));
  });

  app.setNotFoundHandler(
    (request, reply) => fallback(request, reply) ?? replyWith(request, reply, new AppError(101004)),
  );
}
