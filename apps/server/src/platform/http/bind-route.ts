import {
  type AnyRoute,
  permissionOf,
  type RouteParsed,
  type RouteReply,
  routeUrl,
  type TiersAccess,
  unsafeTextPaths,
} from '@rampart/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AccountRow } from '../db/schema.js';
import { AppError } from '../errors/app-error.js';
import { type RouteCodeOptions, routeCodeCheck } from './route-codes.js';
import { type FieldIssue, fieldErrors, invalidCharacterErrors } from './validation.js';

/** Who is calling, once authentication has run. */
export interface Caller {
  readonly tier: 'admin' | 'client' | 'user';
  readonly accountId: number;
  /**
   * The operator (root client account) the caller belongs to: itself for an operator, the operator
   * above it for an operator's sub-account, a customer or a customer's sub-user; null for the admin
   * tier and a customer outside every operator. Resolved by the authenticator from the account row.
   */
  readonly operatorId: number | null;
  readonly sessionId: string;
  /** The caller's account row as loaded for this request. */
  readonly account: AccountRow;
  /** Switch user: the account really acting through this session; null (or absent) otherwise. */
  readonly realAccountId?: number | null;
  /** Permission keys the caller holds for this request (limited by its API token, if any). */
  readonly permissions: ReadonlySet<string>;
  /** The API token the access token was minted from, or null for a console session. */
  readonly apiTokenId: number | null;
  /**
   * Operator sub-accounts with assigned zones (`client/{clientId}/zones`): the zones the caller
   * may name; null when it may name every zone of its operator (every other caller).
   */
  readonly zoneScope: ReadonlySet<number> | null;
}

/** Refuses (101018) a call naming a zone or node outside the caller's zone scope (contract `zone-scope.ts`). */
export type ZoneScopeCheck = (
  route: AnyRoute,
  caller: Caller,
  input: { params: unknown; query: unknown; body: unknown },
) => Promise<void>;

/**
 * Records state-changing calls (the audit module). `audits` says whether a route is recorded;
 * `begin` writes the record — inside the call's transaction when there is one — and `finish`
 * completes it with the outcome.
 */
export interface AuditHook {
  audits(route: AnyRoute): boolean;
  begin(
    route: AnyRoute,
    caller: Caller,
    input: { params: unknown; body: unknown },
    request: FastifyRequest,
    /** The call runs in its own transaction: record it and capture the rows it changes. */
    inTransaction?: boolean,
  ): Promise<{ finish(error: unknown, status: number): Promise<void> }>;
}

/** Runs a call in one database transaction (platform/db/request-transaction.ts). */
export interface TransactionRunner {
  run<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * Audited calls whose handler waits on the outside world (a mail server, a DNS server, an upload
 * streamed from the client): they do not hold a database transaction open meanwhile — on the
 * embedded database that would stall every other request. Their record is written `pending`
 * before the handler and completed after it, so a committed change never lacks one.
 */
export const OUTSIDE_TRANSACTION_ROUTES: ReadonlySet<string> = new Set([
  // A restore replaces the database in psql's own transaction, which would wait on this call's locks.
  'client.dbBackups.restore',
  'auth.account.create',
  'auth.account.resendEmail',
  'auth.login2fa.phase0.code',
  'user.domains.checkCNAME',
  // The operator's DNS provider is called (up to its timeout per call).
  'client.setting.dns.test',
  // A mail server or the Telegram Bot API is called (up to their timeouts).
  'client.setting.email.test',
  'client.setting.tg.test',
  // A reconciliation of the operator's records calls its DNS provider once per change.
  'client.setting.dns.unprocessed.retry',
  'client.setting.dns.recovery',
  'client.setting.logo.create',
  'client.setting.logo.update',
  // Deleting parts of the analytics store (DuckDB's deletes, ClickHouse over HTTP) may take a while.
  'client.setting.log.part.delete',
  'client.setting.log.parts.delete',
]);

export interface BinderOptions {
  readonly audit?: AuditHook;
  readonly zoneScope?: ZoneScopeCheck;
  readonly transactions?: TransactionRunner;
  /** Recording of the codes each route answers, and the strict check of them (tests). */
  readonly codes?: RouteCodeOptions;
  /**
   * Counts a call of a `sendsOnDemand` route for its caller, throwing (101012) once the account has
   * had its share: required when such a route is bound.
   */
  readonly onDemandLimit?: (caller: Caller, route: AnyRoute) => void;
}

/** The caller of a route only operators call: its operator is always known. */
export interface ClientCaller extends Caller {
  readonly tier: 'client';
  readonly operatorId: number;
}

/** Checks the token of a console route; installed by the auth module. */
export type Authenticator = (request: FastifyRequest, access: TiersAccess) => Promise<Caller>;

/** An edge node that proved itself on a node-API route. */
export interface NodeCaller {
  readonly nodeId: number;
  readonly ownerId: number;
}

/** Checks the signature of a node-API request; installed by the nodes module. */
export type NodeAuthenticator = (request: FastifyRequest) => Promise<NodeCaller>;

export interface Authenticators {
  readonly account: Authenticator | null;
  readonly node: NodeAuthenticator | null;
}

/**
 * What a handler is handed besides its input, typed by the route's access: a signed-in route always
 * has its `caller` (a {@link ClientCaller}, operator known, when only operators may call it), a node
 * route its `node`; a public route neither.
 */
export type HandlerContext<R extends AnyRoute = AnyRoute> = {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** Aborts when the client goes before its answer is sent: work for nobody can stop. */
  readonly signal: AbortSignal;
} & (R['access'] extends TiersAccess<infer L>
  ? { readonly caller: L extends readonly ['client'] ? ClientCaller : Caller; readonly node: null }
  : R['access'] extends { kind: 'node' }
    ? { readonly caller: null; readonly node: NodeCaller }
    : { readonly caller: null; readonly node: null });

/** A reply that only says the call succeeded (`dataOf(z.literal(true))`): the handler may return nothing. */
type Done = { data: true };
type HandlerResult<R extends AnyRoute> = [RouteReply<R>] extends [Done]
  ? [Done] extends [RouteReply<R>]
    ? // biome-ignore lint/suspicious/noConfusingVoidType: a handler with nothing to say returns nothing
      RouteReply<R> | void
    : RouteReply<R>
  : RouteReply<R>;

export type RouteHandler<R extends AnyRoute> = (
  input: RouteParsed<R>,
  ctx: HandlerContext<R>,
) => Promise<HandlerResult<R>>;

/** How one route is bound, besides its handler. */
export interface BindOptions {
  /**
   * Runs as a request arrives, before its body is read or parsed and before authentication:
   * throws (an AppError) to refuse it at once, e.g. a queue that is full (load shedding), or a node
   * whose signature over the headers fails (platform/http/node-admission.ts).
   */
  readonly admit?: (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>;
}

export interface Binder {
  bind<R extends AnyRoute>(route: R, handler: RouteHandler<R>, options?: BindOptions): void;
  /** Ids of every route bound so far. */
  readonly bound: ReadonlySet<string>;
}

const DONE: Done = { data: true };

/** Aborts when the reply's connection closes before the reply was all written (the client went). */
function goneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const res = reply.raw;
  if (res.destroyed && !res.writableFinished) controller.abort();
  else res.once('close', () => (res.writableFinished ? undefined : controller.abort()));
  return controller.signal;
}

/** `/{auth}/logo` → `/api/v1/:auth/logo` */
export function fastifyPath(route: Pick<AnyRoute, 'api' | 'path'>): string {
  return routeUrl(route).replace(/\{(\w+)\}/g, ':$1');
}

/**
 * Binds declared routes to handlers: access check (token, tier, and the route's permission key
 * from the contract: 101018 when the caller does not hold it), validation of params, query and body against
 * the contract (101003 naming each field; a NUL or an unpaired surrogate in any string, declared
 * or not, is refused the same way before the schemas run), the zone scope of a restricted operator sub-account
 * (101018 for a zone or node outside it), and the reply passed through the response schema, so
 * that a handler can never send a field the contract does not declare.
 */
export function createBinder(
  app: FastifyInstance,
  authenticators: Authenticators,
  { audit, zoneScope, transactions, codes = {}, onDemandLimit }: BinderOptions = {},
): Binder {
  const bound = new Set<string>();
  return {
    bound,
    bind(route, handler, { admit } = {}) {
      if (bound.has(route.id)) throw new Error(`route ${route.id} bound twice`);
      bound.add(route.id);
      // The key is the contract's: a signed-in route without one is a declaration error, refused at start.
      const permission = permissionOf(route);
      if (route.access.kind === 'tiers' && !permission) {
        throw new Error(`route ${route.id} has no permission key (tiers(list, key) in its declaration)`);
      }
      if (route.sendsOnDemand && (route.access.kind !== 'tiers' || !onDemandLimit)) {
        throw new Error(`route ${route.id} sends on demand: it must be signed-in and the binder needs onDemandLimit`);
      }
      const checkCodes = routeCodeCheck(route, codes);
      app.route({
        method: route.method,
        url: fastifyPath(route),
        // A call that takes a larger body than Fastify's 1 MiB says so in its declaration (an import).
        ...(route.bodyLimit !== undefined ? { bodyLimit: route.bodyLimit } : {}),
        ...(admit ? { onRequest: async (request: FastifyRequest, reply: FastifyReply) => admit(request, reply) } : {}),
        // Thrown on to the app's error handler, which answers it.
        ...(checkCodes
          ? {
              errorHandler: (error: unknown, request: FastifyRequest) => {
                throw checkCodes(error, request.log);
              },
            }
          : {}),
        handler: async (request, reply) => {
          // An authorization denial of a state-changing call is audited (security list item 36), then answered 101018.
          const recordDenial = async (who: Caller, input: { params: unknown; body: unknown }): Promise<never> => {
            const denied = new AppError(101018);
            if (audit?.audits(route)) {
              await audit
                .begin(route, who, input, request)
                .then((record) => record.finish(denied, 0))
                .catch((e: unknown) => request.log.error({ err: e }, 'audit: denial not recorded'));
            }
            throw denied;
          };
          // Every string of the request, declared or not, is checked for NUL and unpaired surrogates
          // before anything reads it (the authenticator reads the path's tier): no field can miss the
          // check. Refusing them says nothing about the caller's rights or anyone's objects.
          const unsafe = (['params', 'query', 'body'] as const).flatMap((part) =>
            invalidCharacterErrors(part, unsafeTextPaths(request[part])),
          );
          if (unsafe.length > 0) throw new AppError(101003, { fields: unsafe });
          const access = route.access;
          let caller: Caller | null = null;
          let node: NodeCaller | null = null;
          if (access.kind === 'tiers') {
            if (!authenticators.account) throw new Error(`route ${route.id} needs sign-in but none is installed`);
            caller = await authenticators.account(request, access);
            request.caller = caller ?? undefined;
            if (permission !== null && !caller.permissions.has(permission)) {
              await recordDenial(caller, { params: request.params, body: request.body });
            }
          } else if (access.kind === 'node') {
            if (!authenticators.node)
              throw new Error(`route ${route.id} needs node credentials but none are installed`);
            node = await authenticators.node(request);
          }
          const errors: FieldIssue[] = [];
          const parse = (part: FieldIssue['in'], schema: z.ZodType | undefined, value: unknown) => {
            if (!schema) return part === 'body' ? undefined : {};
            const result = schema.safeParse(value ?? (part === 'body' ? undefined : {}));
            if (result.success) return result.data;
            errors.push(...fieldErrors(part, result.error, value));
            return undefined;
          };
          const params = parse('params', route.request.params, request.params);
          const query = parse('query', route.request.query, request.query);
          const body = route.request.bodyCheck?.(request.body)
            ? request.body
            : parse('body', route.request.body, request.body);
          if (errors.length > 0) throw new AppError(101003, { fields: errors });
          if (caller?.zoneScope && zoneScope) {
            await zoneScope(route, caller, { params, query, body }).catch(async (error: unknown) => {
              if (error instanceof AppError && error.code === 101018) await recordDenial(caller, { params, body });
              throw error;
            });
          }

          // Counted once the call is known to be the caller's to make, before it connects anywhere.
          if (route.sendsOnDemand && caller) onDemandLimit?.(caller, route);

          const parsed = { params, query, body } as RouteParsed<typeof route>;
          const context = { request, reply, caller, node, signal: goneSignal(reply) } as unknown as HandlerContext<
            typeof route
          >;
          const run = async (): Promise<unknown> => (await handler(parsed, context)) ?? DONE;
          let result: unknown;
          if (!caller || !audit?.audits(route)) {
            result = await run();
          } else if (transactions && !OUTSIDE_TRANSACTION_ROUTES.has(route.id)) {
            // The change and its audit record commit together, or neither does.
            try {
              result = await transactions.run(async () => {
                const record = await audit.begin(route, caller, { params, body }, request, true);
                const value = await run();
                await record.finish(null, reply.statusCode);
                return value;
              });
            } catch (error) {
              // Rolled back: the refused call is recorded on its own, with its error.
              await audit
                .begin(route, caller, { params, body }, request)
                .then((record) => record.finish(error, 0))
                .catch((e: unknown) => request.log.error({ err: e }, 'audit: refused call not recorded'));
              throw error;
            }
          } else {
            // Written before the handler runs, so a committed change never lacks its record.
            const record = await audit.begin(route, caller, { params, body }, request);
            try {
              result = await run();
            } catch (error) {
              await record
                .finish(error, 0)
                .catch((e: unknown) => request.log.error({ err: e }, 'audit: outcome not recorded'));
              throw error;
            }
            await record
              .finish(null, reply.statusCode)
              .catch((e: unknown) => request.log.error({ err: e }, 'audit: outcome not recorded'));
          }
          if (route.reply === 'raw' || route.reply === 'jsonText') return reply;
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
