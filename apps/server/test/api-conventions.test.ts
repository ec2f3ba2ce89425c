import {
  ALL_ROUTES,
  dataOf,
  defineRoute,
  errorReplySchema,
  health,
  pageOf,
  pageQuery,
  publicAccess,
  VALIDATION_MESSAGES,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../src/platform/errors/app-error.js';
import { invalidFields } from '../src/platform/http/validation.js';
import { rawInput, send } from './helpers/call.js';
import { repeatedKeys } from './helpers/log-lines.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Routes declared only for this test, bound with the app's own binder, to prove the mechanism.
const echo = defineRoute({
  id: 'test.echo',
  method: 'POST',
  path: '/test/echo/{id}',
  access: publicAccess,
  codes: [],
  summary: 'echo',
  tags: ['test'],
  request: {
    params: z.object({ id: z.coerce.number().int().min(1) }),
    query: pageQuery,
    body: z.object({ name: z.string().min(1).max(5), tags: z.array(z.string()).max(2).optional() }),
  },
  response: pageOf(z.object({ id: z.number(), name: z.string() })),
});
const boom = defineRoute({
  id: 'test.boom',
  method: 'GET',
  path: '/test/boom',
  access: publicAccess,
  codes: [],
  summary: 'throws',
  tags: ['test'],
  request: {},
  response: z.object({ data: z.string() }),
});
const leaky = defineRoute({
  id: 'test.leaky',
  method: 'GET',
  path: '/test/leaky',
  access: publicAccess,
  codes: [],
  summary: 'returns an undeclared field',
  tags: ['test'],
  request: {},
  response: z.object({ data: z.object({ name: z.string() }) }),
});
const broken = defineRoute({
  id: 'test.broken',
  method: 'GET',
  path: '/test/broken',
  access: publicAccess,
  codes: [],
  summary: 'returns a reply that breaks its schema',
  tags: ['test'],
  request: {},
  response: z.object({ data: z.number() }),
});

const refusal = defineRoute({
  id: 'test.refusal',
  method: 'POST',
  path: '/test/refusal/{kind}',
  access: publicAccess,
  codes: [401003],
  summary: 'refuses the call the way the path names, or says it is done',
  tags: ['test'],
  request: { params: z.object({ kind: z.enum(['done', 'field', 'goodExtra', 'badExtra', 'strayExtra']) }) },
  response: dataOf(z.literal(true)),
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    extraRoutes: (binder) => {
      binder.bind(echo, async ({ params, query, body }) => ({
        data: [{ id: params.id * query.page * query.pageSize, name: body.name }],
        total: 1,
      }));
      binder.bind(boom, async () => {
        throw new Error('secret detail at /srv/rampart/db.ts: SELECT password FROM accounts');
      });
      binder.bind(leaky, async () => ({ data: { name: 'a', passwordHash: 'x' } }) as never);
      binder.bind(broken, async () => ({ data: 'not a number' }) as never);
      binder.bind(refusal, async ({ params }) => {
        switch (params.kind) {
          case 'done':
            return;
          case 'field':
            throw invalidFields([{ field: 'port', key: 'tooBig', params: { max: 65535 } }]);
          case 'goodExtra':
            throw new AppError(401003, { extra: { port: 80, portType: 'https' } });
          case 'badExtra':
            throw new AppError(401003, { extra: 'port 80 is a sentence' });
          case 'strayExtra':
            throw new AppError(201002, { extra: { reason: 'not a field of 201002' } });
        }
      });
    },
  });
});
afterAll(async () => t.close());

describe('reply conventions', () => {
  it('answers { data: true } for a handler of a true-only reply that returns nothing', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/test/refusal/done' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: true });
  });

  it("words a service's refused field in the caller's language at the HTTP edge", async () => {
    const url = '/api/v1/test/refusal/field';
    for (const [language, locale] of [
      ['en-US', 'en_US'],
      ['zh-CN', 'zh_CN'],
      ['zh-TW', 'zh_TW'],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url, headers: { 'accept-language': language } });
      expect(res.json()).toMatchObject({
        code: 101003,
        extra: {
          fields: [
            {
              in: 'body',
              field: 'port',
              key: 'tooBig',
              message: VALIDATION_MESSAGES.tooBig[locale].replace('{max}', '65535'),
            },
          ],
        },
      });
      expect(res.json().extra.fields[0].message).toContain('65535');
    }
  });

  it("sends an error's extra only in its code's shape (contract ERROR_EXTRA), checked under test", async () => {
    const good = await t.app.inject({ method: 'POST', url: '/api/v1/test/refusal/goodExtra' });
    expect(good.json()).toMatchObject({ code: 401003, extra: { port: 80, portType: 'https' } });
    for (const kind of ['badExtra', 'strayExtra']) {
      const bad = await t.app.inject({ method: 'POST', url: `/api/v1/test/refusal/${kind}` });
      expect(bad.statusCode).toBe(500);
      expect(bad.json().code).toBe(101002);
      expect(bad.json()).not.toHaveProperty('extra');
    }
    expect(t.logs.some((l) => l.msg === 'error reply breaks its extra schema')).toBe(true);
  });

  it('answers a valid call with { data, total } and applies paging defaults', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/test/echo/7', payload: { name: 'ab' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [{ id: 70, name: 'ab' }], total: 1 });
  });

  it('rejects invalid input with 101003 naming each field and where it came from', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo/0?pageSize=501&page=x',
      payload: { name: 'toolong', tags: ['a', 'b', 'c'] },
    });
    expect(res.statusCode).toBe(400);
    const body = errorReplySchema.parse(res.json());
    expect(body.code).toBe(101003);
    expect(body.message).toBe('Parameter Error');
    const fields = (body.extra as { fields: { in: string; field: string; key: string }[] }).fields;
    expect(fields.map((f) => `${f.in}:${f.field}:${f.key}`).sort()).toEqual(
      [
        'body:name:tooLong',
        'body:tags:tooMany',
        'params:id:tooSmall',
        'query:page:wrongFormat',
        'query:pageSize:tooBig',
      ].sort(),
    );
  });

  it('reports a missing body field as required', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/test/echo/1', payload: {} });
    expect(res.json().extra.fields).toEqual([
      { in: 'body', field: 'name', key: 'required', message: expect.any(String) },
    ]);
  });

  it('localises messages from Accept-Language', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo/1',
      payload: {},
      headers: { 'accept-language': 'zh-TW,zh;q=0.9' },
    });
    const body = res.json();
    expect(body.code).toBe(101003);
    expect(body.message).not.toBe('Parameter Error');
    expect(body.message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('answers malformed JSON with 101003', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo/1',
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 101003, extra: { reason: 'invalidJson' } });
  });

  it('answers an unknown API path with 101004 and does not name the framework', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/no/such/call' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 101004, message: 'API Path Invalid' });
    expect(res.body.toLowerCase()).not.toContain('fastify');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('answers an unexpected failure with 101002 and nothing of the cause, and logs the cause', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 101002, message: 'Unknown Error' });
    expect(res.body).not.toMatch(/secret|SELECT|\/srv|at |stack/i);
    const logged = t.logs.find((l) => l.msg === 'unexpected error');
    expect(JSON.stringify(logged)).toContain('SELECT password');
  });

  it('strips fields the response schema does not declare', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/test/leaky' });
    expect(res.json()).toEqual({ data: { name: 'a' } });
  });

  it('turns a reply that breaks its schema into 101002', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/test/broken' });
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe(101002);
  });
});

describe('declared routes', () => {
  it('binds every route of the contract', () => {
    const unbound = ALL_ROUTES.map((r) => r.id).filter((id) => !t.app.binder.bound.has(id));
    expect(unbound).toEqual([]);
  });

  it('publishes an OpenAPI 3 document of the declared calls', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    const operationIds = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
      (ops) => Object.values(ops).map((op) => op.operationId),
    );
    expect(operationIds.sort()).toEqual(ALL_ROUTES.map((r) => r.id).sort());
    const logo = doc.paths['/api/v1/{auth}/logo'].get;
    expect(logo.parameters).toEqual([
      { name: 'auth', in: 'path', required: true, schema: { type: 'string', enum: ['admin', 'client', 'user'] } },
      expect.objectContaining({ name: 'operator', in: 'query', required: false }),
    ]);
    // Form-data calls say so.
    expect(Object.keys(doc.paths['/api/v1/client/setting/logo'].post.requestBody.content)).toEqual([
      'multipart/form-data',
    ]);
    // Each operation names its permission key and the catalogue codes it may answer, by status.
    const createZone = doc.paths['/api/v1/client/zone'].post;
    expect(createZone['x-permission']).toBe('client.zones.write');
    expect(createZone.responses['409']).toMatchObject({
      description: expect.stringContaining('`201002` Zone Name Already Exists'),
      'x-codes': expect.arrayContaining([201002]),
    });
    // 101019: the operator's licence expired (zones are one of the kinds a licence counts).
    expect(createZone.responses['403']['x-codes']).toEqual([101008, 101018, 101019]);
    expect(createZone.responses['401']['x-codes']).toEqual([101013, 101014]);
  });

  it('serves the API documentation page with its assets locally', async () => {
    const entry = await t.app.inject({ method: 'GET', url: '/api/v1/docs' });
    const location = new URL(String(entry.headers.location ?? ''), 'http://x/api/v1/docs').pathname;
    const page = entry.statusCode === 302 ? await t.app.inject({ method: 'GET', url: location }) : entry;
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger-ui');
    // Every script and stylesheet the page loads is served by us (the docs work offline).
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((m) => m[1] ?? '');
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^https?:|^\/\//);
      const res = await t.app.inject({ method: 'GET', url: new URL(asset, 'http://x/api/v1/docs/static/').pathname });
      expect(res.statusCode, asset).toBe(200);
    }
  });
});

describe('request log', () => {
  it('writes one JSON line per request with id, status and duration, and no query string', async () => {
    await send(t.app, health, rawInput({ query: { token: 'supersecret' } }), {
      headers: { 'x-request-id': 'req-abcdef12' },
    });
    const line = t.logs.find((l) => l.msg === 'request' && l.reqId === 'req-abcdef12');
    expect(line).toMatchObject({ method: 'GET', path: '/api/v1/health', status: 200 });
    expect(typeof line?.durationMs).toBe('number');
    expect(JSON.stringify(t.logs)).not.toContain('supersecret');
  });

  it("writes no key twice in any line (the request id is the logger's own)", async () => {
    await send(t.app, health, undefined, { headers: { 'x-request-id': 'req-once-0001' } });
    const lines = t.rawLogs.filter((line) => line.includes('req-once-0001'));
    expect(lines.length).toBeGreaterThan(0);
    expect(t.rawLogs.map((line) => repeatedKeys(line)).filter((keys) => keys.length > 0)).toEqual([]);
  });

  it('does not take a request id that could forge log content', async () => {
    const res = await send(t.app, health, undefined, { headers: { 'x-request-id': 'a\r\nb admin login OK' } });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
