import { randomUUID } from 'node:crypto';
import { gunzip } from 'node:zlib';
import {
  EVENT_BATCH_CONTENT_TYPE,
  EVENT_BATCH_GZIP_MAX_BYTES,
  EVENT_BATCH_JSON_MAX_BYTES,
  GEO_DATABASE_MAX_BYTES,
  LOGO_IMAGE_MAX_BYTES,
} from '@rampart/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { clientErrorReply, frameworkErrorReply, installErrorHandling } from '../platform/errors/error-handler.js';
import { wantsConsolePage } from '../platform/http/console-static.js';
import { registerMultipart } from '../platform/http/multipart.js';
import { registerSecurityHeaders } from '../platform/http/security-headers.js';
import { escapeUndecodablePath, parseQueryString } from '../platform/http/url-decoding.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

export interface HttpServerOptions {
  readonly logger: FastifyServerOptions['logger'];
  /** The built console: a page request for an unknown path answers its index.html. */
  readonly consoleDir: string | null | undefined;
  /** Tests: every error reply is checked against the contract's `extra` of its code. */
  readonly checkErrorReplies: boolean;
}

/**
 * The HTTP server before any route: request ids, one log line per request, the catalogue's error
 * shape for every refusal (the framework's own included), security headers, and the body parsers
 * (JSON kept as received for signed node calls, form data for logo uploads).
 */
export async function createHttpServer(options: HttpServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger,
    // A caller's request id is kept only when it looks like one, so it cannot forge log content.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // One line per request is written by the onResponse hook below instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    // Undecodable bytes in a query value become unpaired surrogates, which the binder refuses (101003).
    routerOptions: { querystringParser: parseQueryString },
    // Undecodable bytes in the path become %00, so the route matches and the binder names the parameter.
    rewriteUrl: (req) => escapeUndecodablePath(req.url ?? '/'),
    // Requests Node's parser refuses (headers or URL over the limit) answer in the catalogue's shape.
    clientErrorHandler: clientErrorReply,
    frameworkErrors: frameworkErrorReply,
  });

  const consoleDir = options.consoleDir;
  installErrorHandling(
    app,
    (request, reply) =>
      consoleDir && wantsConsolePage(request.method, request.url)
        ? reply.header('cache-control', 'no-cache').sendFile('index.html', consoleDir)
        : null,
    { checkReplies: options.checkErrorReplies },
  );

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerSecurityHeaders(app);

  // One structured line per request (the request's logger already carries its `reqId`). The path
  // is logged without its query string, which may carry tokens.
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        tier: request.caller?.tier,
        account: request.caller?.accountId,
      },
      'request',
    );
  });

  // Keep the body as received: node-API requests are signed over its exact bytes.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.rawBody = body as string;
    parseJson(request, body as string, done);
  });
  // The edge's event batches (routes/analytics-events.ts): gzip of JSON, signed over the gzip
  // bytes; inflated with a bound so a small body cannot expand without limit.
  app.addContentTypeParser(
    EVENT_BATCH_CONTENT_TYPE,
    { parseAs: 'buffer', bodyLimit: EVENT_BATCH_GZIP_MAX_BYTES },
    (request, body, done) => {
      request.rawBody = body as Buffer;
      gunzip(body as Buffer, { maxOutputLength: EVENT_BATCH_JSON_MAX_BYTES }, (error, json) => {
        if (error) {
          done(Object.assign(new Error('the event batch is not gzip within its size limit'), { statusCode: 400 }));
          return;
        }
        parseJson(request, json.toString('utf8'), done);
      });
    },
  );
  // Form data for the logo and geo database uploads; the largest file either takes bounds every
  // file (each service checks its own limit and names the field).
  await registerMultipart(app, Math.max(...Object.values(LOGO_IMAGE_MAX_BYTES), GEO_DATABASE_MAX_BYTES));
  return app;
}
