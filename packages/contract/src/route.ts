import { z } from 'zod';
import type { ErrorCode } from './errors.js';

/**
 * The route-declaration mechanism. Every call of the spec is declared once with `defineRoute`;
 * the server binds it (validation in, serialization out, access check), the console's client
 * is typed from it, and the OpenAPI document is generated from it.
 */

export const TIERS = ['admin', 'client', 'user'] as const;
export type Tier = (typeof TIERS)[number];
export const tierSchema = z.enum(TIERS);
/** The params of a path under `/{auth}/…`: the console tier it is called from. */
export const authParams = z.object({ auth: tierSchema });

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Base path of every console call. */
export const API_BASE = '/api/v1';
/** Base path of the node API, called by edge agents. */
export const EDGE_API_BASE = '/api/edge/v1';

/**
 * Who may call a route: anyone, a registered edge node, or a signed-in account of one of the tiers
 * holding the route's permission key (permissions.ts lists the keys of each tier).
 */
export type RouteAccess = PublicAccess | TiersAccess | NodeAccess;
export interface PublicAccess {
  readonly kind: 'public';
}
/** Signed-in accounts of the listed tiers (the tuple's type is kept, so a handler's caller is typed by it). */
export interface TiersAccess<L extends readonly Tier[] = readonly Tier[]> {
  readonly kind: 'tiers';
  readonly tiers: L;
  /** The key the caller must hold (101018 otherwise). */
  readonly permission: string;
}
/** A registered edge node, proving itself with a signed request. */
export interface NodeAccess {
  readonly kind: 'node';
}

export const publicAccess: PublicAccess = { kind: 'public' };
export const nodeAccess: NodeAccess = { kind: 'node' };
/** Signed-in access: the tiers that may call, and the permission key the caller must hold. */
export function tiers<const L extends readonly Tier[]>(list: L, permission: string): TiersAccess<L> {
  return { kind: 'tiers', tiers: list, permission };
}

type AnyObject = z.ZodType<Record<string, unknown>>;

export interface RouteRequest {
  readonly params?: AnyObject;
  readonly query?: AnyObject;
  readonly body?: z.ZodType;
  /**
   * A cheaper check of the body that accepts exactly what `body` accepts (a test proves it), for a
   * body large and frequent enough that the schema's cost shows: a body it passes is taken as it
   * is; one it does not is checked by `body`, whose issues are the answer.
   */
  readonly bodyCheck?: (value: unknown) => boolean;
}

export interface RouteDefinition<
  Req extends RouteRequest = RouteRequest,
  Res extends z.ZodType = z.ZodType,
  A extends RouteAccess = RouteAccess,
> {
  /** Stable operation id, `<area>.<action>`; also the OpenAPI operationId. */
  readonly id: string;
  readonly method: HttpMethod;
  /** Path under {@link API_BASE} (or {@link EDGE_API_BASE}) with `{name}` placeholders, e.g. `/{auth}/logo`. */
  readonly path: string;
  /** `console` (default): under /api/v1; `edge`: the node API under /api/edge/v1. */
  readonly api?: 'console' | 'edge';
  readonly access: A;
  /**
   * The catalogue codes the route may answer beyond the ones its access kind implies
   * (`IMPLIED_CODES` in route-codes.ts), sorted. The OpenAPI document lists them; in tests the
   * binder answers 101002 for any other.
   */
  readonly codes: readonly ErrorCode[];
  readonly summary: string;
  readonly tags: readonly string[];
  readonly request: Req;
  /** Schema of the whole 2xx body (use {@link dataOf} or {@link pageOf}). */
  readonly response: Res;
  /**
   * `json` (default), `raw` or `jsonText`: a raw route answers with its own content type (a file,
   * a document) and its `response` schema only describes it; a `jsonText` route answers JSON its
   * handler wrote as text (a large document checked when it was built, not again on every reply),
   * which its `response` schema still describes exactly (the clients and the tests check it).
   */
  readonly reply?: 'json' | 'raw' | 'jsonText';
  /**
   * `json` (default) or `multipart`: the body is `multipart/form-data`; `request.body` describes its
   * text parts and the handler reads the file parts (validated by the service).
   */
  readonly bodyType?: 'json' | 'multipart';
  /** The largest request body in bytes, for a call that takes more than the server's default (1 MiB). */
  readonly bodyLimit?: number;
  /**
   * The call opens an outgoing connection or sends mail when it is made (a "send a test", a
   * re-sent link): the binder allows each signed-in account {@link ON_DEMAND_SEND_LIMIT} of them
   * per route and window, and answers 101012 (HTTP 429, `Retry-After`) beyond.
   */
  readonly sendsOnDemand?: true;
}

/** Calls of one account to one {@link RouteDefinition.sendsOnDemand} route within the window. */
export const ON_DEMAND_SEND_LIMIT = { limit: 10, windowMs: 60_000 } as const;

export function defineRoute<const Req extends RouteRequest, Res extends z.ZodType, A extends RouteAccess>(
  def: RouteDefinition<Req, Res, A>,
): RouteDefinition<Req, Res, A> {
  const names = pathParamNames(def.path);
  const shape = def.request.params instanceof z.ZodObject ? Object.keys(def.request.params.shape) : [];
  const missing = names.filter((n) => !shape.includes(n));
  const extra = shape.filter((n) => !names.includes(n));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(`route ${def.id}: path parameters ${names.join(',')} and params schema ${shape.join(',')} differ`);
  }
  return def;
}

/** The full path template of a route, base included. */
export function routeUrl(route: Pick<RouteDefinition, 'api' | 'path'>): string {
  return (route.api === 'edge' ? EDGE_API_BASE : API_BASE) + route.path;
}

/** `{auth}` placeholders of a path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
}

/** Fills `{name}` placeholders, URL-encoding each value. */
export function fillPath(path: string, params: Readonly<Record<string, unknown>> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** `?a=1&b=x&b=y`: undefined and null values are left out, arrays become repeated keys (the console's client and the tests' caller both send them so). */
export function queryString(query: unknown): string {
  if (query === undefined || query === null) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) search.append(key, queryValue(item));
    }
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

function queryValue(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The reply of a call that returns one object: `{ data }`. */
export function dataOf<T extends z.ZodType>(item: T) {
  return z.object({ data: item });
}

/** The reply of a call that answers only that it was done: `{ data: true }`. */
export const okReply = dataOf(z.literal(true));

/** The reply of a list call: `{ data, total }` (spec: lists are data plus a total count). */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), total: z.number().int().min(0) });
}

export type AnyRoute = RouteDefinition<RouteRequest, z.ZodType, RouteAccess>;

type InputOf<S> = S extends z.ZodType ? z.input<S> : never;
type OutputOf<S> = S extends z.ZodType ? z.output<S> : never;

/** What a caller sends: path params, query and body as the schemas accept them. */
export type RouteInput<R extends AnyRoute> = (R['request']['params'] extends z.ZodType
  ? { params: InputOf<R['request']['params']> }
  : { params?: undefined }) &
  (R['request']['query'] extends z.ZodType ? { query?: InputOf<R['request']['query']> } : { query?: undefined }) &
  (R['request']['body'] extends z.ZodType ? { body: InputOf<R['request']['body']> } : { body?: undefined });

/** What a handler receives after validation (defaults applied, coerced). */
export interface RouteParsed<R extends AnyRoute> {
  params: R['request']['params'] extends z.ZodType ? OutputOf<R['request']['params']> : Record<string, never>;
  query: R['request']['query'] extends z.ZodType ? OutputOf<R['request']['query']> : Record<string, never>;
  body: R['request']['body'] extends z.ZodType ? OutputOf<R['request']['body']> : undefined;
}

/** The 2xx body of a call as the server produces it and the client receives it. */
export type RouteReply<R extends AnyRoute> = z.input<R['response']>;
