import {
  ALL_ROUTES,
  type AnyRoute,
  getSelf,
  type SelfInfo,
  TIERS,
  type Tier,
  tierPermissions,
} from '@rampart/contract';
import { matchRoute, replyProblem } from '@rampart/contract/testing';
import { afterEach, beforeEach, type MockInstance, vi } from 'vitest';
import { apiClientConfig } from '../api/client';
import { appNavigation } from '../app/app-navigation';
import { attachToastSink, resetToastsForTests, type ToastKind } from '../app/toast';
import { clearTokenSet, writeTokenSet } from '../session/cookies';
import { resetSessionStoreForTests } from '../session/session-store';
import { recordReplyProblem } from './reply-problems';

/** One request the console sent, as the fake server saw it. */
export interface SeenRequest {
  /** The contract route it reached; undefined for a path no route declares. */
  route: AnyRoute | undefined;
  /** Its path parameters as sent (strings). */
  params: Record<string, string>;
  method: string;
  /** Path under /api/v1, without the query. */
  path: string;
  search: URLSearchParams;
  headers: Headers;
  body: unknown;
}

export interface FakeReply {
  status: number;
  body?: unknown;
  /** A raw reply's text, sent as text/plain instead of a JSON body. */
  text?: string;
  /** Extra headers of a raw reply (a download's Content-Disposition). */
  headers?: Record<string, string>;
}

type Handler = (request: SeenRequest) => FakeReply | Promise<FakeReply>;

/** Path parameters a stub or a lookup is limited to (compared as sent, so numbers match their text). */
export type StubParams = Readonly<Record<string, string | number>>;

interface Stub {
  route: AnyRoute;
  params: StubParams | undefined;
  handler: Handler;
}

/** Throws unless a stubbed reply parses with the route's response schema (2xx) or the error schema. */
function checkStub(route: AnyRoute, reply: FakeReply): void {
  if (reply.text !== undefined) {
    if (route.reply !== 'raw' && reply.status >= 200 && reply.status < 300) {
      throw new Error(`${route.method} ${route.path} (${route.id}) answers JSON: a text reply does not fit it`);
    }
    return;
  }
  const problem = replyProblem(route, reply.status, reply.body);
  if (problem !== undefined) throw new Error(`fake API stub: ${problem}`);
}

function paramsMatch(want: StubParams | undefined, got: Record<string, string>): boolean {
  return want === undefined || Object.entries(want).every(([name, value]) => got[name] === String(value));
}

export function ok(data: unknown): FakeReply {
  return { status: 200, body: { data } };
}

/** A 200 reply of a list route: `data` as one page of `total` rows (by default, all of them). */
export function okPage(data: readonly unknown[], total = data.length): FakeReply {
  return { status: 200, body: { data, total } };
}

/** A 200 reply of a log search: a page of records and the sampled spans (none unless given). */
export function logPage(data: readonly unknown[], total = data.length, sampled: readonly unknown[] = []): FakeReply {
  return { status: 200, body: { data, total, sampled } };
}

/** A 200 reply carrying plain text (a raw route such as `client/node-info`). */
export function okText(text: string): FakeReply {
  return { status: 200, text };
}

export function fail(status: number, code: number, message: string, extra?: unknown): FakeReply {
  return { status, body: { code, message, ...(extra === undefined ? {} : { extra }) } };
}

/**
 * A stubbed `fetch` that answers console calls from stubs keyed by contract route (and path
 * parameters) and records every request. A call without a stub gets 101004, so a missing stub
 * shows in the assertions. Every stubbed reply must parse with its route's schema.
 */
export function installFakeApi() {
  const requests: SeenRequest[] = [];
  const stubs: Stub[] = [];
  apiClientConfig.postRequestDelayMs = 0;
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const parsed = new URL(url, 'http://console.test');
    const text = typeof init.body === 'string' ? init.body : '';
    const method = init.method ?? 'GET';
    const reached = matchRoute(ALL_ROUTES, method, parsed.pathname);
    const request: SeenRequest = {
      route: reached?.route,
      params: reached?.params ?? {},
      method,
      path: parsed.pathname.replace(/^\/api\/v1/, ''),
      search: parsed.searchParams,
      headers: new Headers(init.headers),
      // A form-data body is recorded as it was sent (a FormData); a JSON one parsed.
      body: init.body instanceof FormData ? init.body : text === '' ? undefined : JSON.parse(text),
    };
    requests.push(request);
    // The latest stub of the route (and of these params, when it names some) answers.
    const stub = stubs.findLast((s) => s.route === request.route && paramsMatch(s.params, request.params));
    const reply = stub ? await stub.handler(request) : fail(404, 101004, 'API Path Invalid');
    if (stub) {
      try {
        checkStub(stub.route, reply);
      } catch (error) {
        recordReplyProblem((error as Error).message);
        throw error;
      }
    }
    if (reply.text !== undefined) {
      return new Response(reply.text, {
        status: reply.status,
        headers: { 'Content-Type': 'text/plain', ...reply.headers },
      });
    }
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  /**
   * Answers `route` (with these path parameters, or any) with a fixed reply or a handler. A fixed
   * reply is checked against the route's schema at once; a handler's reply when it answers.
   */
  function on(route: AnyRoute, reply: FakeReply | Handler): void;
  function on(route: AnyRoute, params: StubParams, reply: FakeReply | Handler): void;
  function on(route: AnyRoute, ...args: [FakeReply | Handler] | [StubParams, FakeReply | Handler]): void {
    const [params, reply] = args.length === 2 ? args : [undefined, args[0]];
    if (typeof reply !== 'function') checkStub(route, reply);
    stubs.push({ route, params, handler: typeof reply === 'function' ? reply : () => reply });
  }
  return {
    requests,
    on,
    /** The requests that reached `route` (with these path parameters, when given). */
    sent(route: AnyRoute, params?: StubParams) {
      return requests.filter((r) => r.route === route && paramsMatch(params, r.params));
    },
  };
}

export type FakeApi = ReturnType<typeof installFakeApi>;

/**
 * The fake API of every test of a file: `start` makes a fresh one before each test (a signed-in
 * browser, as a rule) and it is restored after the test. The object returned stands for the
 * running test's fake API, so a file declares it once.
 */
export function fakeApiForEachTest(start: () => FakeApi): FakeApi {
  let current: FakeApi | undefined;
  const active = (): FakeApi => {
    if (current === undefined) throw new Error('the fake API answers only while a test runs');
    return current;
  };
  beforeEach(() => {
    current = start();
  });
  afterEach(() => {
    restoreFakeApi();
    current = undefined;
  });
  return {
    get requests() {
      return active().requests;
    },
    on: ((...args: Parameters<FakeApi['on']>) => active().on(...args)) as FakeApi['on'],
    sent: (route, params) => active().sent(route, params),
  };
}

/**
 * A whole-console page test file: its fake API as `fakeApiForEachTest` gives it, and 20 s a test
 * (the first render of a file loads antd's modules, seconds).
 */
export function pageTestApi(start: () => FakeApi): FakeApi {
  vi.setConfig({ testTimeout: 20_000 });
  return fakeApiForEachTest(start);
}

/** Records toasts instead of drawing them (unit tests without a console frame). */
export function recordToasts() {
  const toasts: { kind: ToastKind; text: string }[] = [];
  const detach = attachToastSink({ open: (kind, text) => toasts.push({ kind, text }) });
  return { toasts, detach };
}

/** Removes every console's token cookies and forgets every session and waiting toast. */
export function resetBrowserSession(): void {
  resetToastsForTests();
  for (const tier of TIERS) clearTokenSet(tier);
  resetSessionStoreForTests();
}

export function restoreFakeApi(): void {
  vi.unstubAllGlobals();
  apiClientConfig.postRequestDelayMs = 200;
}

export function selfInfo(tier: Tier, overrides: Partial<SelfInfo> = {}): SelfInfo {
  return {
    id: 7,
    auth: tier,
    account: 'alice',
    email: 'alice@example.com',
    name: 'Alice',
    status: 'normal',
    isRoot: true,
    dnsType: '',
    maxLogExportTimes: 5,
    login2FAType: 0,
    permissions: tierPermissions(tier),
    operator: tier === 'admin' ? null : 'acme-operator',
    l4AttackPage: false,
    createdAt: '2026-01-15T08:30:00.000Z',
    ...overrides,
  };
}

/**
 * A fresh browser signed in to the tier's console (cookies, self information) on a fake API: the
 * start of every test of a page behind the session.
 */
export function signedInFakeApi(tier: Tier): FakeApi {
  resetBrowserSession();
  const api = installFakeApi();
  signedInCookies(tier);
  api.on(getSelf, { auth: tier }, ok(selfInfo(tier)));
  return api;
}

/** Stores a token set as the tier's cookies, as a previous login would have. */
export function signedInCookies(tier: Tier, accessToken = 'access-1'): void {
  writeTokenSet(tier, { accessToken, tokenType: 'Bearer' });
}

/** What a session test reads: the fake API, the navigations asked for and the toasts shown. */
export interface SessionTest {
  api: FakeApi;
  navigate: MockInstance<(path: string) => void>;
  toasts: ReturnType<typeof recordToasts>;
}

/**
 * The session layer's unit tests (no console frame): before each test a signed-out browser, a
 * fresh fake API, in-app navigation recorded (not followed) and toasts recorded; undone after it.
 * Read the fields inside a test.
 */
export function sessionTestEach(): SessionTest {
  const session = {} as SessionTest;
  beforeEach(() => {
    resetBrowserSession();
    session.api = installFakeApi();
    session.navigate = vi.spyOn(appNavigation, 'replace').mockImplementation(() => {});
    session.toasts = recordToasts();
  });
  afterEach(() => {
    session.toasts.detach();
    restoreFakeApi();
    vi.restoreAllMocks();
  });
  return session;
}
