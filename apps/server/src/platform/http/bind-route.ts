import {
  type AnyRoute,
  API_BASE,
  type FieldError,
  type RouteAccess,
  type RouteParsed,
  type RouteReply,
} from '@rampart/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AccountRow } from '../db/schema.js';
import { AppError } from '../errors/app-error.js';
import { requestLocale } from './request-locale.js';
import { fieldErrors } from './validation.js';

/** Who is calling, once authentication has run. */
export interface Caller {
  readonly tier: 'admin' | 'client' | 'user';
  readonly accountId: number;
  readonly sessionId: string;
  /** The caller's account row as loaded for this request. */
  readonly account: AccountRow;
}

/** Checks the token for a non-public route; installed by the auth module. */
export type Authenticator = (
  request: FastifyRequest,
  access: Exclude<RouteAccess, { kind: 'public' }>,
) => Promise<Caller>;

export interface HandlerContext {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly caller: Caller | null;
}

export type RouteHandler<R extends AnyRoute> = (input: RouteParsed<R>, ctx: HandlerContext) => Promise<RouteReply<R>>;

export interface Binder {
  bind<R extends AnyRoute>(route: R, handler: RouteHandler<R>): void;
  /** Ids of every route bound so far. */
  readonly bound: ReadonlySet<string>;
}

/** `/{auth}/logo` → `/api/v1/:auth/logo` */
export function fastifyPath(path: string): string {
  return API_BASE + path.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * Binds declared routes to handlers: access check, validation of params, query and body against
 * the contract (101003 naming each field), and the reply passed through the response schema, so
 * that a handler can never send a field the contract does not declare.
 */
export function createBinder(app: FastifyInstance, authenticate: Authenticator | null): Binder {
  const bound = new Set<string>();
  return {
    bound,
    bind(route, handler) {
      if (bound.has(route.id)) throw new Error(`route ${route.id} bound twice`);
      bound.add(route.id);
      app.route({
        method: route.method,
        url: fastifyPath(route.path),
        handler: async (request, reply) => {
          const access = route.access;
          let caller: Caller | null = null;
          if (access.kind !== 'public') {
            if (!authenticate) throw new Error(`route ${route.id} needs authentication but none is installed`);
            caller = await authenticate(request, access);
            request.caller = caller;
          }
          const locale = requestLocale(request);
          const errors: FieldError[] = [];
          const parse = (part: FieldError['in'], schema: z.ZodType | undefined, value: unknown) => {
            if (!schema) return part === 'body' ? undefined : {};
            const result = schema.safeParse(value ?? (part === 'body' ? undefined : {}));
            if (result.success) return result.data;
            errors.push(...fieldErrors(part, result.error, value, locale));
            return undefined;
          };
          const params = parse('params', route.request.params, request.params);
          const query = parse('query', route.request.query, request.query);
          const body = parse('body', route.request.body, request.body);
          if (errors.length > 0) throw new AppError(101003, { extra: { fields: errors } });

          const result = await handler({ params, query, body } as RouteParsed<typeof route>, {
            request,
            reply,
            caller,
          });
          if (route.reply === 'raw') return reply;
          const checked = route.response.safeParse(result);
          if (!checked.success) {
            throw new AppError(101002, {
              cause: new Error(`reply of ${route.id} breaks its schema: ${checked.error.message}`),
            });
          }
          return checked.data;
        },
      });
    },
  };
}
