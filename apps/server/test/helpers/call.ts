import type { AnyRoute, RouteReply, TokenSet } from '@rampart/contract';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import {
  type CallArgs,
  type CallInput,
  type LooseInput,
  looseRequestFor,
  type PreparedRequest,
  type ReplyBody,
  requestFor,
} from '@rampart/contract/testing';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/**
 * The server tests' route caller: the Fastify `inject` adapter of the contract's typed caller
 * (`@rampart/contract/testing`). Tests name the route object, never its URL, and send the route's
 * own input type, so a route renamed in the contract, a field of its request renamed, retyped or
 * made required, or a field of its reply, breaks the type check here. A test that sends a wrong,
 * missing or out-of-range value on purpose says so with {@link rawInput}.
 */

export type Token = Pick<TokenSet, 'accessToken'>;

/** Everything `inject` takes besides the request itself, plus the bearer token of the caller. */
export type SendOptions = Omit<InjectOptions, 'method' | 'url' | 'path' | 'payload' | 'body' | 'query'> & {
  token?: Token | undefined;
};

/** The reply as it came (status, headers, text), with `json()` typed by the route. */
export type RouteResponse<R extends AnyRoute> = Omit<LightMyRequestResponse, 'json'> & { json(): ReplyBody<R> };

/** Calls `route` with `input` and answers the reply whole: for tests that assert the status and error codes. */
export async function send<R extends AnyRoute>(
  app: FastifyInstance,
  route: R,
  ...[input, options = {}]: CallArgs<R, SendOptions>
): Promise<RouteResponse<R>> {
  return inject(app, requestFor(route, input), options) as Promise<RouteResponse<R>>;
}

/** {@link send} with the input as one argument, for a test's own helpers that pass it through. */
export function sendWith<R extends AnyRoute>(
  app: FastifyInstance,
  route: R,
  input: CallInput<R>,
  options: SendOptions = {},
): Promise<RouteResponse<R>> {
  return inject(app, requestFor(route, input), options) as Promise<RouteResponse<R>>;
}

/**
 * {@link send} as `token` unless the call names another: what the tests' own `call` helpers are
 * made of (`const call = (route, ...args) => sendAs(t.app, client, route, ...args)`).
 */
export function sendAs<R extends AnyRoute>(
  app: FastifyInstance,
  token: Token | null,
  route: R,
  ...[input, as]: CallArgs<R, Token>
): Promise<RouteResponse<R>> {
  return inject(app, requestFor(route, input), { token: as ?? token ?? undefined }) as Promise<RouteResponse<R>>;
}

/** Calls `route` with `input` and answers its 2xx body; any other status throws with the reply. */
export async function call<R extends AnyRoute>(
  app: FastifyInstance,
  route: R,
  ...[input, options = {}]: CallArgs<R, SendOptions>
): Promise<RouteReply<R>> {
  const res = await inject(app, requestFor(route, input), options);
  if (res.statusCode < 200 || res.statusCode >= 300) {
    throw new Error(`${route.method} ${route.path} (${route.id}): ${res.statusCode} ${res.body}`);
  }
  return res.json() as RouteReply<R>;
}

/**
 * Marks the input of a call as one the route's types refuse, sent on purpose to check the answer
 * (a value of another type, a key the route does not declare): the escape hatch beside
 * {@link rawRequest} for a typed call. Keep its uses few.
 */
export function rawInput(input: LooseInput): never {
  return input as never;
}

/** The fields a refusal for invalid input (101003) names, in its order: which input was refused. */
export function fieldNames(res: { json(): { extra: { fields: { field: string }[] } } }): string[] {
  return res.json().extra.fields.map((f) => f.field);
}

/** A refusal for invalid input (400, 101003), and each field it names as `field:key`, in its order. */
export function refusedFields(res: {
  statusCode: number;
  json(): { code: number; extra: { fields: { field: string; key: string }[] } };
}): string[] {
  expect(res.statusCode).toBe(400);
  expect(res.json().code).toBe(101003);
  return res.json().extra.fields.map((f) => `${f.field}:${f.key}`);
}

/** A raw request, for tests that send what no client sends. */
export type RawTarget = AnyRoute | { method: InjectOptions['method']; url: string };

/**
 * The escape hatch: sends input the route's types refuse (wrong types, missing fields, a body
 * that is not JSON) or a path no route declares. The reply's `json()` is untyped. Keep its uses few.
 */
export function rawRequest(
  app: FastifyInstance,
  target: RawTarget,
  input: LooseInput & { payload?: InjectOptions['payload'] } = {},
  options: SendOptions = {},
): Promise<LightMyRequestResponse> {
  if ('id' in target) {
    const request = looseRequestFor(target, input);
    return inject(app, input.payload === undefined ? request : { ...request, body: input.payload }, options);
  }
  return inject(
    app,
    {
      method: target.method as PreparedRequest['method'],
      url: target.url,
      body: input.payload ?? input.body,
      multipart: false,
    },
    options,
  );
}

function inject(
  app: FastifyInstance,
  request: PreparedRequest,
  { token, headers, ...rest }: SendOptions,
): Promise<LightMyRequestResponse> {
  return app.inject({
    ...rest,
    method: request.method,
    url: request.url,
    headers: { ...(token ? { authorization: `Bearer ${token.accessToken}` } : {}), ...headers },
    ...(request.body === undefined ? {} : { payload: request.body as InjectOptions['payload'] }),
  });
}

/** An edge node's id and secret, for the signed node API. */
export interface NodeIdentity {
  readonly nodeId: number;
  readonly secret: string;
}

/**
 * Calls a node-API route signed with the node's secret, as an agent does; `nowMs` signs with
 * another time (an app running on a manual clock).
 */
export function nodeSend<R extends AnyRoute>(
  app: FastifyInstance,
  node: NodeIdentity,
  route: R,
  input: CallInput<R>,
  options: { nowMs?: number } = {},
): Promise<RouteResponse<R>> {
  return signedInject(app, node, requestFor(route, input), options) as Promise<RouteResponse<R>>;
}

/** {@link nodeSend} with input the route's types refuse. */
export function rawNodeRequest(
  app: FastifyInstance,
  node: NodeIdentity,
  route: AnyRoute,
  input: LooseInput,
  options: { nowMs?: number } = {},
): Promise<LightMyRequestResponse> {
  return signedInject(app, node, looseRequestFor(route, input), options);
}

function signedInject(
  app: FastifyInstance,
  node: NodeIdentity,
  request: PreparedRequest,
  options: { nowMs?: number },
): Promise<LightMyRequestResponse> {
  const { method, url, body } = request;
  const payload = body === undefined ? '' : JSON.stringify(body);
  return app.inject({
    method,
    url,
    ...(body === undefined ? {} : { payload }),
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...signedNodeHeaders({ nodeId: node.nodeId, nodeSecret: node.secret }, method, url, payload, options),
    },
  });
}

/**
 * A multipart call as the console makes it, with `bytes` as the file part `file` (with null, only
 * another part): the uploads of the operator's geo and ASN databases.
 */
export async function sendFile(
  app: FastifyInstance,
  route: AnyRoute,
  bytes: Buffer | null,
  token: Token,
  filename = 'db.mmdb',
): Promise<LightMyRequestResponse> {
  const form = new FormData();
  if (bytes) form.append('file', new Blob([bytes]), filename);
  else form.append('other', 'x');
  const request = new Request('http://x/', { method: route.method, body: form });
  const payload = Buffer.from(await request.arrayBuffer());
  return rawRequest(
    app,
    route,
    { payload },
    { token, headers: { 'content-type': request.headers.get('content-type') ?? '' } },
  );
}
