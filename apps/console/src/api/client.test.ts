import { dataOf, defineRoute, publicAccess, tiers } from '@rampart/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { i18n } from '../i18n';
import { ApiError, apiClientConfig, callApi } from './client';

// Routes declared here rather than taken from the contract's table, so the test pins the client's
// behaviour (path filling, query, body) independently of which real routes exist.
const listDomains = defineRoute({
  id: 'test.listDomains',
  method: 'GET',
  path: '/user/site/{siteId}/domains',
  access: tiers(['user'], 'user.domains.read'),
  codes: [],
  summary: 'test',
  tags: ['test'],
  request: {
    params: z.object({ siteId: z.string() }),
    query: z.object({ page: z.number(), tags: z.array(z.string()).optional(), keywords: z.string().optional() }),
  },
  response: z.object({ data: z.array(z.object({ name: z.string() })), total: z.number() }),
});

const createDomains = defineRoute({
  id: 'test.createDomains',
  method: 'POST',
  path: '/user/site/{siteId}/domains',
  access: tiers(['user'], 'user.domains.write'),
  codes: [],
  summary: 'test',
  tags: ['test'],
  request: { params: z.object({ siteId: z.string() }), body: z.object({ domains: z.array(z.string()) }) },
  response: dataOf(z.object({ created: z.number() })),
});

const health = defineRoute({
  id: 'test.health',
  method: 'GET',
  path: '/health',
  access: publicAccess,
  codes: [],
  summary: 'test',
  tags: ['test'],
  request: {},
  response: dataOf(z.object({ status: z.string() })),
});

/** Every request the stubbed fetch saw, as a Request (absolute against the test origin). */
let requests: Request[];
let replies: (() => Response | Promise<Response>)[];

function json(status: number, body: unknown): () => Response {
  return () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  requests = [];
  replies = [];
  apiClientConfig.postRequestDelayMs = 0;
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    // The signal is left out: it only matters to the time-out tests, which read it from init.
    const { signal: _signal, ...rest } = init;
    requests.push(new Request(new URL(url, 'http://console.test'), rest));
    const reply = replies.shift();
    if (!reply) throw new Error('no canned reply left');
    return reply();
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  apiClientConfig.postRequestDelayMs = 200;
  apiClientConfig.timeoutMs = 300_000;
});

describe('callApi request building', () => {
  it('fills the path, appends the query (arrays repeated, undefined left out) and sends no body on GET', async () => {
    replies.push(json(200, { data: [{ name: 'a.example' }], total: 1 }));

    const reply = await callApi(listDomains, {
      params: { siteId: 'site 7/x' },
      query: { page: 2, tags: ['blue', 'red & green'], keywords: undefined },
    });

    expect(reply).toEqual({ data: [{ name: 'a.example' }], total: 1 });
    const [request] = requests;
    expect(request?.url).toBe(
      'http://console.test/api/v1/user/site/site%207%2Fx/domains?page=2&tags=blue&tags=red+%26+green',
    );
    expect(request?.method).toBe('GET');
    expect(request?.headers.get('Accept')).toBe('application/json');
    expect(request?.headers.get('Accept-Language')).toBe('en-US');
    expect(request?.headers.get('Authorization')).toBeNull();
    expect(request?.headers.get('Content-Type')).toBeNull();
    expect(await request?.text()).toBe('');
  });

  it('sends a JSON body, the bearer token and the current language on POST', async () => {
    await i18n.changeLanguage('zh_TW');
    replies.push(json(201, { data: { created: 2 } }));

    const reply = await callApi(
      createDomains,
      { params: { siteId: '9' }, body: { domains: ['a.example', 'b.example'] } },
      { token: 'tok-123' },
    );

    expect(reply).toEqual({ data: { created: 2 } });
    const [request] = requests;
    expect(request?.url).toBe('http://console.test/api/v1/user/site/9/domains');
    expect(request?.method).toBe('POST');
    expect(request?.headers.get('Content-Type')).toBe('application/json');
    expect(request?.headers.get('Authorization')).toBe('Bearer tok-123');
    expect(request?.headers.get('Accept-Language')).toBe('zh-TW');
    expect(await request?.text()).toBe('{"domains":["a.example","b.example"]}');
  });

  it('resolves undefined for an empty 2xx body', async () => {
    replies.push(() => new Response(null, { status: 204 }));
    await expect(callApi(health, {})).resolves.toBeUndefined();
    expect(requests[0]?.url).toBe('http://console.test/api/v1/health');
  });
});

describe('callApi failures', () => {
  async function failure(promise: Promise<unknown>): Promise<ApiError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }

  it('maps a known code to the catalogue text in the current language and keeps the reply details', async () => {
    const extra = { fields: [{ in: 'body', field: 'domains.0', key: 'wrongFormat', message: 'wrong format' }] };
    replies.push(json(400, { code: 101003, message: 'invalid parameter: domains.0', extra }));

    const error = await failure(callApi(createDomains, { params: { siteId: '9' }, body: { domains: ['bad name'] } }));

    expect(error.isError).toBe(true);
    expect(error.failure).toBe('reply');
    expect(error.status).toBe(400);
    expect(error.code).toBe(101003);
    expect(error.message).toBe('Parameter Error');
    expect(error.serverMessage).toBe('invalid parameter: domains.0');
    expect(error.extra).toEqual(extra);
    expect(error.errors).toEqual([]);
  });

  it('localizes the catalogue text to the language in use', async () => {
    await i18n.changeLanguage('zh_CN');
    replies.push(json(400, { code: 101003, message: 'invalid parameter' }));
    const error = await failure(callApi(health, {}));
    expect(error.message).toBe('参数错误');
  });

  it('keeps the server message for a code the catalogue does not know', async () => {
    replies.push(json(409, { code: 987654, message: 'Something only the server knows', extra: 'x' }));

    const error = await failure(callApi(health, {}));

    expect(error.status).toBe(409);
    expect(error.code).toBe(987654);
    expect(error.message).toBe('Something only the server knows');
    expect(error.extra).toBe('x');
  });

  it('carries the per-code list of a 101009 reply', async () => {
    const errors = [{ code: 401001, message: 'dup', targets: ['a.example', 'b.example'] }];
    replies.push(json(400, { code: 101009, message: 'Multiple Errors', errors }));

    const error = await failure(callApi(health, {}));

    expect(error.code).toBe(101009);
    expect(error.message).toBe('Multiple Errors');
    expect(error.errors).toEqual(errors);
  });

  it("says 'Some Error Occurred' (localized) when the error body is unreadable", async () => {
    replies.push(() => new Response('<html>Bad Gateway</html>', { status: 502 }));
    const english = await failure(callApi(health, {}));
    expect(english.message).toBe('Some Error Occurred');
    expect(english.code).toBeUndefined();
    expect(english.status).toBe(502);

    await i18n.changeLanguage('zh_TW');
    replies.push(() => new Response('', { status: 500 }));
    const chinese = await failure(callApi(health, {}));
    expect(chinese.message).toBe('發生錯誤');
  });

  it('turns a failed connection into a network ApiError with status 0', async () => {
    replies.push(() => {
      throw new TypeError('fetch failed');
    });
    const error = await failure(callApi(health, {}));
    expect(error.failure).toBe('network');
    expect(error.status).toBe(0);
    expect(error.message).toBe('Some Error Occurred');
  });
});

describe('callApi timing', () => {
  /** A fetch that answers only when its signal aborts, as a hung server would. */
  function hangingFetch() {
    vi.stubGlobal(
      'fetch',
      (_url: string, init: RequestInit) =>
        new Promise((_, reject) => {
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
  }

  it('waits the post-request delay after the reply before resolving', async () => {
    apiClientConfig.postRequestDelayMs = 200;
    replies.push(json(200, { data: { status: 'ok' } }));
    const started = performance.now();
    await callApi(health, {});
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
  });

  it('gives up after the time-out with a timeout ApiError', async () => {
    apiClientConfig.timeoutMs = 20;
    hangingFetch();
    const error = await callApi(health, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).failure).toBe('timeout');
    expect((error as ApiError).status).toBe(0);
  });

  it("rejects with the caller's abort reason, not an ApiError, when the caller cancels", async () => {
    hangingFetch();
    const controller = new AbortController();
    const pending = callApi(health, {}, { signal: controller.signal });
    controller.abort(new DOMException('left the page', 'AbortError'));
    const error = await pending.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe('AbortError');
  });
});
