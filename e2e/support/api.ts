import { E2E } from './env.js';

/** An API answer kept whole: the HTTP status and the JSON envelope (`data`, or `code` and `message`). */
export interface ApiReply<T = unknown> {
  status: number;
  body: { code?: number; message?: string; data?: T };
}

/** One API call with a bearer token (none for public calls), answered as it came. */
export async function callApi<T = unknown>(
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<ApiReply<T>> {
  const res = await fetch(`${E2E.url}/api/v1/${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as ApiReply<T>['body'] };
}

/** Signs `account` in to the `tier` console through the API and answers its access token. */
export async function signIn(tier: 'client' | 'user', account: string, password = E2E.password): Promise<string> {
  const reply = await callApi<{ accessToken: string }>('POST', `${tier}/code`, undefined, { account, password });
  if (!reply.body.data?.accessToken)
    throw new Error(`sign-in of ${account}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data.accessToken;
}

/**
 * Signed-in API call as `account` of `tier` (default: the tier's root account), for arranging what
 * a test does not click through.
 */
export async function api<T>(
  tier: 'client' | 'user',
  method: string,
  path: string,
  body?: unknown,
  account: string = tier,
  password: string = E2E.password,
): Promise<T> {
  const token = await signIn(tier, account, password);
  const res = await fetch(`${E2E.url}/api/v1/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  // A few calls answer plain text (client/node-info's key=value lines).
  if (!(res.headers.get('content-type') ?? '').includes('json')) {
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text as T;
  }
  const reply = (await res.json()) as { data: T };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(reply)}`);
  return reply.data;
}
