import { connect } from 'node:net';
import {
  errorMessage,
  errorReplySchema,
  type Locale,
  listDomains,
  requestLogin,
  VALIDATION_MESSAGES,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawInput, rawRequest, send } from './helpers/call.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Requests the framework or the HTTP parser refuses before any route runs (a body too large, a
 * content type no parser reads, malformed JSON, an unknown path or method, headers or a URL over
 * the limits, a malformed request line) answer like every other error: the catalogue's
 * `{ code, message, extra }` in the caller's language, never Fastify's or Node's own JSON.
 */

let t: TestApp;
let port = 0;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => t.close());

const LANGS: readonly [string, Locale][] = [
  ['en-US', 'en_US'],
  ['zh-CN', 'zh_CN'],
  ['zh-TW', 'zh_TW'],
];

/** Sends raw bytes and returns status line, headers and body of the reply. */
function raw(request: string | Buffer): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body });
    });
    socket.end(request);
  });
}

function expectCatalogue(body: unknown, code: number, locale: Locale, reason?: keyof typeof VALIDATION_MESSAGES) {
  const parsed = errorReplySchema.parse(body);
  expect(parsed.code).toBe(code);
  expect(parsed.message).toBe(errorMessage(code as never, locale));
  expect(Object.keys(body as object).sort()).toEqual(reason ? ['code', 'extra', 'message'] : ['code', 'message']);
  if (reason) expect(parsed.extra).toEqual({ reason, message: VALIDATION_MESSAGES[reason][locale] });
}

describe.each(LANGS)('framework-level errors in %s', (lang, locale) => {
  const headers = { 'accept-language': lang };

  it('413: a body over the limit', async () => {
    const res = await rawRequest(
      t.app,
      requestLogin,
      { params: { auth: 'user' }, payload: `{"account":"${'a'.repeat(2 * 1024 * 1024)}"}` },
      { headers: { ...headers, 'content-type': 'application/json' } },
    );
    expect(res.statusCode).toBe(413);
    expectCatalogue(res.json(), 101003, locale, 'bodyTooLarge');
  });

  it('415: a content type no parser reads', async () => {
    const res = await rawRequest(
      t.app,
      requestLogin,
      { params: { auth: 'user' }, payload: '<a/>' },
      { headers: { ...headers, 'content-type': 'text/xml' } },
    );
    expect(res.statusCode).toBe(415);
    expectCatalogue(res.json(), 101003, locale, 'unsupportedMediaType');
  });

  it('400: malformed and empty JSON', async () => {
    for (const [payload, reason] of [
      ['{"account":', 'invalidJson'],
      ['', 'emptyJsonBody'],
    ] as const) {
      const res = await send(t.app, requestLogin, rawInput({ params: { auth: 'user' }, body: payload }), {
        headers: { ...headers, 'content-type': 'application/json' },
      });
      expect(res.statusCode, reason).toBe(400);
      expectCatalogue(res.json(), 101003, locale, reason);
    }
  });

  it('404: an unknown path, and a known path with a method it does not serve', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/no/such/call'],
      ['DELETE', '/api/v1/user/code'],
      ['PATCH', '/api/edge/v1/register'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expectCatalogue(res.json(), 101004, locale);
    }
  });

  it('414: a path parameter over the router limit', async () => {
    const res = await send(t.app, listDomains, { params: { siteId: '1'.repeat(500) } }, { headers });
    expect(res.statusCode).toBe(414);
    expectCatalogue(res.json(), 101003, locale, 'urlTooLong');
  });

  it('431: headers over the limit, on the wire', async () => {
    const res = await raw(
      `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nAccept-Language: ${lang}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expect(res.headers.toLowerCase()).toContain('content-type: application/json; charset=utf-8');
    expectCatalogue(JSON.parse(res.body), 101003, locale, 'headersTooLarge');
  });

  it('431: a URL over the limit, on the wire', async () => {
    const res = await raw(
      `GET /api/v1/health?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nAccept-Language: ${lang}\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expectCatalogue(JSON.parse(res.body), 101003, locale, 'headersTooLarge');
  });

  it('400: a request the HTTP parser cannot read', async () => {
    const res = await raw(`GET /api/v1/health HTTP/1.1\r\nHost: x\r\nAccept-Language: ${lang}\r\nBad Header\r\n\r\n`);
    expect(res.status).toBe(400);
    expectCatalogue(JSON.parse(res.body), 101003, locale, 'badRequest');
  });
});
