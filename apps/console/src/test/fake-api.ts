import { type SelfInfo, TIERS, type Tier, tierPermissions } from '@rampart/contract';
import { vi } from 'vitest';
import { apiClientConfig } from '../api/client';
import { attachToastSink, resetToastsForTests, type ToastKind } from '../app/toast';
import { clearTokenSet, writeTokenSet } from '../session/cookies';
import { resetSessionStoreForTests } from '../session/session-store';

/** One request the console sent, as the fake server saw it. */
export interface SeenRequest {
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

export function ok(data: unknown): FakeReply {
  return { status: 200, body: { data } };
}

/** A 200 reply carrying plain text (a raw route such as `client/node-info`). */
export function okText(text: string): FakeReply {
  return { status: 200, text };
}

export function fail(status: number, code: number, message: string, extra?: unknown): FakeReply {
  return { status, body: { code, message, ...(extra === undefined ? {} : { extra }) } };
}

/**
 * A stubbed `fetch` that answers console calls from handlers keyed by method and path and records
 * every request. A call without a handler gets 101004, so a missing stub shows in the assertions.
 */
export function installFakeApi() {
  const requests: SeenRequest[] = [];
  const handlers = new Map<string, Handler>();
  apiClientConfig.postRequestDelayMs = 0;
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const parsed = new URL(url, 'http://console.test');
    const text = typeof init.body === 'string' ? init.body : '';
    const request: SeenRequest = {
      method: init.method ?? 'GET',
      path: parsed.pathname.replace(/^\/api\/v1/, ''),
      search: parsed.searchParams,
      headers: new Headers(init.headers),
      // A form-data body is recorded as it was sent (a FormData); a JSON one parsed.
      body: init.body instanceof FormData ? init.body : text === '' ? undefined : JSON.parse(text),
    };
    requests.push(request);
    const handler = handlers.get(`${request.method} ${request.path}`);
    const reply = handler ? await handler(request) : fail(404, 101004, 'API Path Invalid');
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
  return {
    requests,
    /** Answers `method path` with a fixed reply or a handler. */
    on(method: string, path: string, reply: FakeReply | Handler) {
      handlers.set(`${method} ${path}`, typeof reply === 'function' ? reply : () => reply);
    },
    /** The requests to `method path`. */
    sent(method: string, path: string) {
      return requests.filter((r) => r.method === method && r.path === path);
    },
  };
}

export type FakeApi = ReturnType<typeof installFakeApi>;

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
  api.on('GET', `/${tier}/account/self`, ok(selfInfo(tier)));
  return api;
}

/** Stores a token set as the tier's cookies, as a previous login would have. */
export function signedInCookies(tier: Tier, accessToken = 'access-1'): void {
  writeTokenSet(tier, { accessToken, tokenType: 'Bearer' });
}
