import type { AnyRoute, RouteReply } from '@rampart/contract';
import { requestLogin } from '@rampart/contract';
import { type CallArgs, type CallInput, type ReplyBody, requestFor } from '@rampart/contract/testing';
import { E2E } from './env.js';

/**
 * The browser tests' route caller: the `fetch` adapter of the contract's typed caller
 * (`@rampart/contract/testing`) against the running server. Tests name the route object, never its
 * URL, so a route or a reply field renamed in the contract breaks the type check here.
 */

/** An API answer kept whole: the HTTP status and the JSON body (the route's reply, or `code` and `message`). */
export interface ApiReply<R extends AnyRoute> {
  status: number;
  body: ReplyBody<R>;
}

/** The `data` of a route's reply. */
export type ReplyData<R extends AnyRoute> = RouteReply<R> extends { data: infer D } ? D : never;

/** One request with a bearer token (none for public calls), answered as it came. */
async function exchange(route: AnyRoute, input: unknown, token: string | undefined): Promise<Response> {
  const request = requestFor(route, input as CallInput<AnyRoute>);
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  return fetch(`${E2E.url}${request.url}`, {
    method: request.method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body } : {}),
  });
}

/** Calls `route` with `input` as the holder of `token` (none for public calls), answered as it came. */
export async function callApi<R extends AnyRoute>(
  route: R,
  ...[input, token]: CallArgs<R, string>
): Promise<ApiReply<R>> {
  const res = await exchange(route, input, token);
  return { status: res.status, body: (await res.json()) as ReplyBody<R> };
}

/** Signs `account` in to the `tier` console through the API and answers its access token. */
export async function signIn(
  tier: 'admin' | 'client' | 'user',
  account: string,
  password = E2E.password,
): Promise<string> {
  const reply = await callApi(requestLogin, { params: { auth: tier }, body: { account, password } });
  const data = reply.body.data;
  if (!data || !('accessToken' in data) || !data.accessToken)
    throw new Error(`sign-in of ${account}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return data.accessToken;
}

/** Who makes an arranging call: `tier` and an account of it (default: the tier's root account). */
export interface Caller {
  tier: 'admin' | 'client' | 'user';
  account?: string;
  password?: string;
}

/**
 * Signed-in API call as `caller` (a tier's root account, or the account named), for arranging what a
 * test does not click through: answers the reply's `data`, and throws on any other status than 2xx.
 */
export async function api<R extends AnyRoute>(
  caller: Caller | 'client' | 'user',
  route: R,
  ...[input]: CallArgs<R>
): Promise<ReplyData<R>> {
  const res = await signedIn(caller, route, input);
  const reply = (await res.json()) as { data: ReplyData<R> };
  if (!res.ok) throw new Error(`${route.method} ${route.path}: ${res.status} ${JSON.stringify(reply)}`);
  return reply.data;
}

/** {@link api} for a route that answers plain text (client/node-info's key=value lines). */
export async function apiText<R extends AnyRoute>(
  caller: Caller | 'client' | 'user',
  route: R,
  ...[input]: CallArgs<R>
): Promise<string> {
  const res = await signedIn(caller, route, input);
  const text = await res.text();
  if (!res.ok) throw new Error(`${route.method} ${route.path}: ${res.status} ${text}`);
  return text;
}

async function signedIn(caller: Caller | 'client' | 'user', route: AnyRoute, input: unknown): Promise<Response> {
  const who = typeof caller === 'string' ? { tier: caller } : caller;
  const token = await signIn(who.tier, who.account ?? who.tier, who.password ?? E2E.password);
  return exchange(route, input, token);
}
