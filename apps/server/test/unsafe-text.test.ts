import {
  ALL_ROUTES,
  type AnyRoute,
  EDGE_API_BASE,
  fillPath,
  logo,
  requestLogin,
  routeUrl,
  TIERS,
  type Tier,
  type TokenSet,
} from '@rampart/contract';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { bearer, signIn } from './helpers/auth.js';
import { rawRequest, send } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * A NUL or an unpaired surrogate in any string of any request is refused with 101003 naming the
 * field, never a 500 from the database. Walks ALL_ROUTES and, for each, every string field its
 * params, query and body schemas declare (nested objects, arrays, unions and records included),
 * so a route or field added later is covered the day it is declared. Bodies carry the surrogate
 * as a JSON `\ud800` escape, URLs as `%ED%A0%80`, NUL as `\u0000` and `%00`.
 */

type Part = 'params' | 'query' | 'body';

/** The zod 4 definition of a schema (its public `def` is typed per kind; the walk needs it untyped). */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  valueType?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  items?: z.ZodType[];
  coerce?: boolean;
  entries?: Record<string, unknown>;
  values?: unknown[];
  getter?: () => z.ZodType;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Paths (segments) of the fields of a JSON value that a schema lets be a string. */
function stringPaths(schema: z.ZodType, path: string[] = [], depth = 0): string[][] {
  if (depth > 12) return [];
  const def = defOf(schema);
  const inner = (s: z.ZodType | undefined, p = path) => (s ? stringPaths(s, p, depth + 1) : []);
  switch (def.type) {
    case 'string':
    case 'template_literal':
      return [path];
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'date':
      return def.coerce ? [path] : [];
    case 'enum':
      return Object.values(def.entries ?? {}).some((v) => typeof v === 'string') ? [path] : [];
    case 'literal':
      return (def.values ?? []).some((v) => typeof v === 'string') ? [path] : [];
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([key, s]) => inner(s, [...path, key]));
    case 'array':
      return inner(def.element, [...path, '0']);
    case 'tuple':
      return (def.items ?? []).flatMap((s, i) => inner(s, [...path, String(i)]));
    case 'record':
      return inner(def.valueType, [...path, 'key']);
    case 'union':
      return (def.options ?? []).flatMap((s) => inner(s));
    case 'intersection':
      return [...inner(def.left), ...inner(def.right)];
    case 'pipe':
      return inner(def.in);
    case 'lazy':
      return def.getter ? inner(def.getter()) : [];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return inner(def.innerType);
    default:
      return [];
  }
}

function unique(paths: string[][]): string[][] {
  const seen = new Map<string, string[]>();
  for (const p of paths) seen.set(p.join('.'), p);
  return [...seen.values()];
}

/** A value holding `text` at `path`, arrays where a segment is an index. */
function valueAt(path: readonly string[], text: string): unknown {
  if (path.length === 0) return text;
  const [head, ...rest] = path as [string, ...string[]];
  const child = valueAt(rest, text);
  if (/^\d+$/.test(head)) return [child];
  return { [head]: child };
}

const BAD = [
  { name: 'NUL', text: 'a\u0000b', url: 'a%00b' },
  { name: 'unpaired surrogate', text: 'a\ud800b', url: 'a%ED%A0%80b' },
] as const;

interface Case {
  route: AnyRoute;
  part: Part;
  field: string[];
}

const CASES: Case[] = [];
for (const route of ALL_ROUTES) {
  for (const part of ['params', 'query', 'body'] as const) {
    const schema = route.request[part];
    if (!schema) continue;
    // Path parameters and query values are strings on the wire, whatever the schema turns them into.
    const fields =
      part === 'body' ? unique(stringPaths(schema)) : Object.keys(defOf(schema).shape ?? {}).map((key) => [key]);
    for (const field of fields) CASES.push({ route, part, field });
  }
}

let t: TestApp;
const tokens = {} as Record<Tier, TokenSet>;
let node: JoinedNode;

beforeAll(async () => {
  t = await createTestApp();
  for (const tier of TIERS) tokens[tier] = await signIn(t.app, tier);
  node = await joinNode(t.app, tokens.client);
}, 60_000);
afterAll(async () => t.close());

/** The route called with `bad` in one field and nothing else of its input. */
function callWith(route: AnyRoute, part: Part, field: string[], bad: (typeof BAD)[number]) {
  const tier = (route.access.kind === 'tiers' ? route.access.tiers[0] : 'user') as Tier;
  const params: Record<string, string> = {};
  for (const name of route.path.match(/\{(\w+)\}/g) ?? []) {
    const key = name.slice(1, -1);
    params[key] = key === 'auth' ? tier : '1';
  }
  let path = fillPath(route.path, params);
  if (part === 'params') {
    path = route.path.replace(/\{(\w+)\}/g, (_, key: string) => (key === field[0] ? bad.url : (params[key] ?? '')));
  }
  const url = routeUrl({ ...route, path }) + (part === 'query' ? `?${field[0]}=${bad.url}` : '');
  const method = route.method;
  let payload: string | Buffer | undefined;
  const headers: Record<string, string> = {};
  if (part === 'body' && route.bodyType === 'multipart') {
    const boundary = 'unsafe-text-boundary';
    payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${field[0]}"\r\n\r\n`),
      Buffer.from(bad.text, 'utf8'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
  } else if (part === 'body') {
    // JSON.stringify writes an unpaired surrogate as the escape `\ud800` and NUL as `\u0000`.
    payload = JSON.stringify(valueAt(field, bad.text));
    headers['content-type'] = 'application/json';
  } else if (method !== 'GET' && route.request.body) {
    payload = '{}';
    headers['content-type'] = 'application/json';
  }
  if (route.access.kind === 'tiers') Object.assign(headers, bearer(tokens[tier]));
  if (route.access.kind === 'node') {
    Object.assign(
      headers,
      signedNodeHeaders({ nodeId: node.nodeId, nodeSecret: node.secret }, method, url, String(payload ?? '')),
    );
  }
  return t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
}

describe('NUL and unpaired surrogates in every string field of every route', () => {
  it('walks every route and finds string fields in all three parts, the node API and public routes included', () => {
    const routes = new Set(CASES.map((c) => c.route.id));
    expect(routes.size).toBeGreaterThan(ALL_ROUTES.length / 2);
    for (const part of ['params', 'query', 'body'] as const) {
      expect(CASES.filter((c) => c.part === part).length, part).toBeGreaterThan(20);
    }
    expect(CASES.some((c) => c.route.api === 'edge')).toBe(true);
    expect(CASES.some((c) => c.route.access.kind === 'public')).toBe(true);
    expect(routeUrl({ api: 'edge', path: '/x' })).toBe(`${EDGE_API_BASE}/x`);
  });

  it.each(BAD)(
    '$name: every field is refused with 101003 naming it',
    async (bad) => {
      const wrong: string[] = [];
      for (const { route, part, field } of CASES) {
        // Multipart text parts are decoded by the form parser, which turns invalid UTF-8 into U+FFFD: only NUL can arrive.
        if (part === 'body' && route.bodyType === 'multipart' && bad.name !== 'NUL') continue;
        const res = await callWith(route, part, field, bad);
        const name = field.join('.');
        const body = res.json() as { code?: number; extra?: { fields?: { in: string; field: string; key: string }[] } };
        const named = body.extra?.fields?.some(
          (f) => f.in === part && f.field === name && f.key === 'invalidCharacter',
        );
        if (res.statusCode !== 400 || body.code !== 101003 || !named) {
          wrong.push(`${route.id} ${part}.${name}: ${res.statusCode} ${res.body.slice(0, 160)}`);
        }
      }
      expect(wrong).toEqual([]);
    },
    300_000,
  );
});

describe('NUL and unpaired surrogates outside the declared fields', () => {
  it('the examples of the review: a sign-in account and the public logo query', async () => {
    const signInRes = await rawRequest(
      t.app,
      requestLogin,
      { params: { auth: 'user' }, payload: '{"account":"a\\u0000","password":"x"}' },
      { headers: { 'content-type': 'application/json' } },
    );
    expect(signInRes.statusCode).toBe(400);
    expect(signInRes.json().extra.fields).toEqual([
      expect.objectContaining({ in: 'body', field: 'account', key: 'invalidCharacter' }),
    ]);
    for (const query of ['%00', '%ED%A0%80', 'a%FFb', '%E0%A4']) {
      const logo = await rawRequest(t.app, { method: 'GET', url: `/api/v1/user/logo?operator=${query}` });
      expect(logo.statusCode, query).toBe(400);
      expect(logo.json().extra.fields, query).toEqual([
        expect.objectContaining({ in: 'query', field: 'operator', key: 'invalidCharacter' }),
      ]);
    }
  });

  it('an undeclared field, an object key and a deep array entry are refused and named', async () => {
    const res = await rawRequest(
      t.app,
      requestLogin,
      {
        params: { auth: 'user' },
        payload: '{"account":"user","password":"x","extra":{"list":["ok","\\ud800"]},"k\\u0000":1}',
      },
      { headers: { 'content-type': 'application/json' } },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(101003);
    const fields = res.json().extra.fields.map((f: { field: string; key: string }) => `${f.field}:${f.key}`);
    expect(fields).toEqual(['extra.list.1:invalidCharacter', 'k\ufffd:invalidCharacter']);
  });

  it('a paired surrogate (an emoji) is ordinary text and passes the check', async () => {
    const res = await send(t.app, logo, { params: { auth: 'user' }, query: { operator: '😀' } });
    expect(res.json().extra?.fields ?? []).not.toContainEqual(expect.objectContaining({ key: 'invalidCharacter' }));
  });

  it('answers in the caller language', async () => {
    const res = await rawRequest(
      t.app,
      { method: 'GET', url: '/api/v1/user/logo?operator=%00' },
      {},
      { headers: { 'accept-language': 'zh-CN' } },
    );
    expect(res.json().extra.fields[0].message).toBe('包含不允许的字符（NUL 或不成对的代理字符）');
  });
});
