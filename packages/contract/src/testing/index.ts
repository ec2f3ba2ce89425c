import type { z } from 'zod';
import { checkErrorExtra } from '../error-extra.js';
import { type ErrorReply, errorReplySchema, type FieldError } from '../http.js';
import {
  type AnyRoute,
  fillPath,
  type HttpMethod,
  queryString,
  type RouteInput,
  type RouteReply,
  routeUrl,
} from '../route.js';

/**
 * The transport-neutral half of the tests' route caller: the server tests (Fastify `inject`), the
 * browser tests (`fetch` against the running server) and the console's fake API all call routes by
 * their contract objects through it, so renaming a route's path or a field of its request or reply
 * breaks the type check (or a test) of every harness that uses it.
 */

/** What a test sends to a route; undefined when the route needs no params and no body. */
export type CallInput<R extends AnyRoute> = RouteInput<R> | (NeedsInput<R> extends true ? never : undefined);

/** Whether a call of the route must name path params or a body. */
export type NeedsInput<R extends AnyRoute> = R['request']['params'] extends z.ZodType
  ? true
  : R['request']['body'] extends z.ZodType
    ? true
    : false;

/**
 * The arguments after the route of a caller: the input (optional when the route needs no params
 * and no body) and one more optional argument of the harness (options, a token).
 */
export type CallArgs<R extends AnyRoute, Extra = never> =
  NeedsInput<R> extends true ? [input: RouteInput<R>, extra?: Extra] : [input?: RouteInput<R>, extra?: Extra];

/**
 * The body of a reply as a test reads it: the route's 2xx body, or (on a refusal) the catalogue
 * error fields. Both sides are present in the type because a test asserts the status before it
 * reads either, and the reply reads as {@link Present}: a field the reply lacks fails the test at
 * run time, as an assertion on it would; a field the contract lacks fails the type check.
 */
export type ReplyBody<R extends AnyRoute> = Present<RouteReply<R>> & TestErrorBody;

/** The catalogue error fields as tests read them: `extra` with the 101003 field list and any other key. */
export interface TestErrorBody {
  code: number;
  message: string;
  extra: ErrorExtra;
  errors: Present<NonNullable<ErrorReply['errors']>>;
}
export type ErrorExtra = { fields: Present<(FieldError & Record<string, unknown>)[]> } & Record<string, unknown>;

/**
 * `T` as a test reads it: every field present and not null, every array holding at least eight
 * elements (then any number), so `data[0].role.name` reads without non-null assertions.
 */
export type Present<T> = unknown extends T
  ? T
  : T extends readonly (infer E)[]
    ? [Present<E>, Present<E>, Present<E>, Present<E>, Present<E>, Present<E>, Present<E>, Present<E>, ...Present<E>[]]
    : T extends object
      ? { [K in keyof T]-?: Present<NonNullable<T[K]>> }
      : NonNullable<T>;

/** One request, ready for a transport: method, URL (base, filled path and query) and the JSON body. */
export interface PreparedRequest {
  readonly method: HttpMethod;
  readonly url: string;
  /** The JSON body (undefined: none); a multipart route's text parts as an object. */
  readonly body: unknown;
  readonly multipart: boolean;
}

/** The request that calls `route` with `input`: URL-encoded path parameters, the query string and the body. */
export function requestFor<R extends AnyRoute>(route: R, input?: CallInput<R>): PreparedRequest {
  return looseRequestFor(route, (input ?? {}) as LooseInput);
}

/** What {@link looseRequestFor} takes: params, query and body not checked against the route's types. */
export interface LooseInput {
  params?: Readonly<Record<string, unknown>>;
  query?: unknown;
  body?: unknown;
}

/**
 * The request of {@link requestFor} with input the route's types refuse: for tests that check how
 * the server answers what no client sends (wrong types, missing fields). The path is still the route's.
 */
export function looseRequestFor(route: AnyRoute, input: LooseInput = {}): PreparedRequest {
  return {
    method: route.method,
    url: fillPath(routeUrl(route), input.params) + queryString(input.query),
    body: input.body,
    multipart: route.bodyType === 'multipart',
  };
}

/** Why a reply does not parse with its schema, or undefined when it does. */
export function replyProblem(route: AnyRoute, status: number, body: unknown): string | undefined {
  if (route.reply === 'raw' && status >= 200 && status < 300) return undefined;
  const schema: z.ZodType = status >= 200 && status < 300 ? route.response : errorReplySchema;
  const parsed = schema.safeParse(body);
  if (parsed.success) {
    if (status >= 200 && status < 300) return undefined;
    // An error's `extra` has the shape its code's schema gives (contract ERROR_EXTRA).
    const reply = parsed.data as ErrorReply;
    const extra = checkErrorExtra(reply.code, reply.extra);
    return extra.ok
      ? undefined
      : `${route.method} ${route.path} (${route.id}): the ${status} reply's extra for ${reply.code} does not match ERROR_EXTRA: ${extra.problem}`;
  }
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `  ${issue.path.join('.') || '(body)'}: ${issue.message}`)
    .join('\n');
  return `${route.method} ${route.path} (${route.id}): the ${status} reply does not match the contract's ${
    status >= 200 && status < 300 ? 'response' : 'error'
  } schema\n${issues}`;
}

/** Throws with {@link replyProblem}'s message unless the reply parses with the route's schema. */
export function checkReply<R extends AnyRoute>(route: R, status: number, body: unknown): ReplyBody<R> {
  const problem = replyProblem(route, status, body);
  if (problem !== undefined) throw new Error(problem);
  return body as ReplyBody<R>;
}

/**
 * The route a request reaches: the one whose template matches `method` and `path` (base included,
 * no query) with the most literal segments (`/user/site/tags` before `/user/site/{siteId}`), and
 * its path parameters as sent.
 */
export function matchRoute(
  routes: readonly AnyRoute[],
  method: string,
  path: string,
): { route: AnyRoute; params: Record<string, string> } | undefined {
  let best: { route: AnyRoute; params: Record<string, string>; literal: number } | undefined;
  for (const route of routes) {
    if (route.method !== method) continue;
    const params = matchPath(routeUrl(route), path);
    if (!params) continue;
    const literal = routeUrl(route).split('/').length - Object.keys(params).length;
    if (!best || literal > best.literal) best = { route, params, literal };
  }
  return best && { route: best.route, params: best.params };
}

/** The params of `template` (`/a/{id}`) filled by `path` (`/a/7`), or undefined when it does not match. */
export function matchPath(template: string, path: string): Record<string, string> | undefined {
  const want = template.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const seg = got[i] as string;
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name !== undefined) {
      if (seg === '') return undefined;
      params[name] = decodeURIComponent(seg);
    } else if (part !== seg) return undefined;
  }
  return params;
}

export { edgeEvent } from './edge-events.js';
export { addressOf, generateTraffic, mulberry32, type TrafficOptions, zipf } from './edge-traffic.js';
export {
  asnRecord,
  encodeMmdbValue,
  geoRecord,
  type MmdbNetwork,
  type MmdbOptions,
  MmdbPointer,
  MmdbTyped,
  type MmdbValue,
  writeMmdb,
} from './mmdb-writer.js';
export { LATIN_WORDS_ALLOWED, latinWords, latinWordsIn, textLeaves, untranslatedWords } from './untranslated.js';
