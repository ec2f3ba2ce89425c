import { E2E } from './env.js';

/** Signed-in API call as the root account of `tier`, for arranging what a test does not click through. */
export async function api<T>(tier: 'client' | 'user', method: string, path: string, body?: unknown): Promise<T> {
  const signIn = await fetch(`${E2E.url}/api/v1/${tier}/code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: tier, password: E2E.password }),
  });
  const token = ((await signIn.json()) as { data: { accessToken: string } }).data.accessToken;
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
