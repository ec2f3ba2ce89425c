import type { z } from 'zod';
import type { ErrorCode } from './errors.js';
import { defineRoute, type HttpMethod, type RouteAccess, type RouteDefinition } from './route.js';

/**
 * The calls of one area declared with what they share said once: the family gives the tags, the
 * access of its reading calls (`GET`) and of its writing calls (every other method); a call gives
 * its id, path, summary, request parts and reply, and only what differs from the family (its own
 * access, tags, codes). The result is the same {@link RouteDefinition} `defineRoute` makes:
 *
 *   const route = routeFamily({ tags: ['zones'], read: tiers(['client'], 'client.zones.read'), write: … });
 *   export const listGroups = route.get('client.groups.list', '/client/zone/{zoneID}/groups', {
 *     summary: 'Groups of a zone, paged',
 *     params: zoneParams, query: pageQuery, response: pageOf(groupSchema),
 *   });
 */

type AnyObject = z.ZodType<Record<string, unknown>>;

export interface FamilyDefaults<
  R extends RouteAccess | undefined,
  W extends RouteAccess | undefined,
  FP extends AnyObject | undefined,
> {
  readonly tags: readonly string[];
  /** Path params of every call of the family whose path has them all (e.g. `zoneParams`), unless a call names its own. */
  readonly params?: FP;
  /** Access of the family's `GET` calls, unless a call names its own. */
  readonly read?: R;
  /** Access of the family's other calls, unless a call names its own. */
  readonly write?: W;
}

type Extras = Pick<RouteDefinition, 'api' | 'reply' | 'bodyType' | 'bodyLimit' | 'sendsOnDemand'>;

/** One call of a family: the request parts sit beside the rest (no `request: { … }`). */
export type FamilyCall<
  P extends AnyObject | undefined,
  Q extends AnyObject | undefined,
  B extends z.ZodType | undefined,
  Res extends z.ZodType,
  A extends RouteAccess | undefined,
> = Partial<Extras> & {
  readonly summary: string;
  readonly response: Res;
  /** Codes beyond the ones the access kind implies; none when left out. */
  readonly codes?: readonly ErrorCode[];
  readonly tags?: readonly string[];
  readonly access?: A;
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
};

/** The `request` of a family call: exactly the parts it names, as `defineRoute` infers them. */
export type FamilyRequest<P, Q, B> = object &
  (P extends AnyObject ? { readonly params: P } : unknown) &
  (Q extends AnyObject ? { readonly query: Q } : unknown) &
  (B extends z.ZodType ? { readonly body: B } : unknown);

type AccessOf<A, D> = A extends RouteAccess ? A : D extends RouteAccess ? D : never;

type Declare<D extends RouteAccess | undefined, FP extends AnyObject | undefined> = <
  const P extends AnyObject | undefined = undefined,
  const Q extends AnyObject | undefined = undefined,
  const B extends z.ZodType | undefined = undefined,
  Res extends z.ZodType = z.ZodType,
  const A extends RouteAccess | undefined = undefined,
>(
  id: string,
  path: string,
  call: FamilyCall<P, Q, B, Res, A>,
) => RouteDefinition<FamilyRequest<P extends AnyObject ? P : FP, Q, B>, Res, AccessOf<A, D>>;

export interface RouteFamily<
  R extends RouteAccess | undefined,
  W extends RouteAccess | undefined,
  FP extends AnyObject | undefined,
> {
  readonly get: Declare<R, FP>;
  readonly post: Declare<W, FP>;
  readonly put: Declare<W, FP>;
  readonly patch: Declare<W, FP>;
  readonly delete: Declare<W, FP>;
}

const REQUEST_PARTS = ['params', 'query', 'body'] as const;

export function routeFamily<
  const R extends RouteAccess | undefined = undefined,
  const W extends RouteAccess | undefined = undefined,
  const FP extends AnyObject | undefined = undefined,
>(defaults: FamilyDefaults<R, W, FP>): RouteFamily<R, W, FP> {
  const declare =
    (method: HttpMethod) =>
    (id: string, path: string, call: FamilyCall<AnyObject, AnyObject, z.ZodType, z.ZodType, RouteAccess>) => {
      const { summary, response, codes, tags, access, params, query, body, ...extras } = call;
      const chosen = access ?? (method === 'GET' ? defaults.read : defaults.write);
      if (!chosen) throw new Error(`route ${id}: no access given and the family has none for ${method}`);
      const parts = { params: params ?? defaults.params, query, body };
      const request = Object.fromEntries(REQUEST_PARTS.flatMap((k) => (parts[k] ? [[k, parts[k]]] : [])));
      return defineRoute({
        id,
        method,
        path,
        access: chosen,
        codes: codes ?? [],
        summary,
        tags: tags ?? defaults.tags,
        request,
        response,
        ...extras,
      });
    };
  return {
    get: declare('GET'),
    post: declare('POST'),
    put: declare('PUT'),
    patch: declare('PATCH'),
    delete: declare('DELETE'),
  } as unknown as RouteFamily<R, W, FP>;
}
