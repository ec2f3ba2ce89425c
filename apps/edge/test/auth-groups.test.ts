import { createHmac, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import type { EdgeAuthGroup, EdgeDomainAuth } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataPlane } from '../src/data-plane/schema.js';
import { firewallLogLines } from './helpers/access-log.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import { type FullReply, sendFrom } from './helpers/send.js';

// Auth groups (routes/site-auth.ts, rampart.auth) through a real nginx: basic, key and JWT
// (HS256, RS256, ES256) credentials accepted and refused, the 401 and its challenges, paths no
// rule covers untouched, rule order, and the decision in the access log.

const pem = (key: KeyObject) => String(key.export({ type: 'spki', format: 'pem' }));
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const otherRsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const HS_SECRET = 'hs-secret-0123456789-0123456789-0123';
const salt = randomBytes(16);
const hmacHex = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest('hex');

const b64u = (v: string | Buffer) => Buffer.from(v).toString('base64url');
function jwt(
  alg: string,
  claims: Record<string, unknown>,
  key: string | KeyObject | null,
  header: Record<string, unknown> = {},
): string {
  const signed = `${b64u(JSON.stringify({ alg, typ: 'JWT', ...header }))}.${b64u(JSON.stringify(claims))}`;
  let sig: Buffer = Buffer.alloc(0);
  if (alg === 'HS256')
    sig = createHmac('sha256', key as string)
      .update(signed)
      .digest();
  else if (alg === 'RS256') sig = sign('sha256', Buffer.from(signed), key as KeyObject);
  else if (alg === 'ES256')
    sig = sign('sha256', Buffer.from(signed), { key: key as KeyObject, dsaEncoding: 'ieee-p1363' });
  return `${signed}.${b64u(sig)}`;
}
const now = () => Math.floor(Date.now() / 1000);

const group: EdgeAuthGroup = {
  id: 7,
  basic: [{ id: 1, user: 'alice', salt: salt.toString('hex'), hash: hmacHex(salt, 'wonderland') }],
  key: [
    { id: 2, in: 'header', name: 'x-api-key', key: 'key-0123456789abcdef' },
    { id: 3, in: 'query', name: 'api_key', key: 'qkey-0123456789abcdef' },
  ],
  jwt: [
    { id: 4, alg: 'HS256', key: HS_SECRET, iss: 'idp', aud: 'app', leeway: 0, requireExp: true },
    // The one credential that takes tokens without exp.
    { id: 5, alg: 'RS256', key: pem(rsa.publicKey), iss: '', aud: '', leeway: 0, requireExp: false },
    { id: 6, alg: 'ES256', key: pem(ec.publicKey), iss: '', aud: '', leeway: 0, requireExp: true },
  ],
};
const keysOnly: EdgeAuthGroup = { id: 8, basic: [], key: [group.key[0]!], jwt: [] };
const AUTH: EdgeDomainAuth = {
  rules: [
    { id: 101, match: 'exact', path: '/keys-only', group: 8 },
    { id: 102, match: 'prefix', path: '/admin', group: 7 },
    { id: 103, match: 'regex', path: '^/api/v[0-9]+/', group: 7 },
  ],
  groups: [group, keysOnly],
};

let edge: Edge;
let origin: Origin;

function plane(version: string): DataPlane {
  const to = [upstream(origin.port)];
  return document(version, [
    domain(1, 'www.auth.example', to, { auth: AUTH }),
    domain(2, 'open.auth.example', to),
    domain(3, 'tls.auth.example', to, { auth: AUTH, forceSSL: true }),
  ]);
}

const get = async (path: string, headers: Record<string, string> = {}, host = 'www.auth.example') =>
  (await sendFrom('127.0.7.1', edge.httpPort, host, { path, headers })) as FullReply;
const status = async (path: string, headers: Record<string, string> = {}) => (await get(path, headers)).status;
const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const good = () => ({ iss: 'idp', aud: 'app', exp: now() + 60 });

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge();
  await edge.push(plane('auth-1'));
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

describe('auth groups at the edge', () => {
  it('leaves paths no rule covers, and domains without rules, untouched', async () => {
    const open = await get('/public');
    expect(open.status).toBe(200);
    expect(servedBy(open.body)).toBe('origin');
    expect((await get('/admin', {}, 'open.auth.example')).status).toBe(200);
    // Prefix and regex: /administrator is covered by the prefix, /api/vx/ is not by the regex.
    expect(await status('/administrator')).toBe(401);
    expect(await status('/api/vx/')).toBe(200);
    expect(await status('/api/v2/items')).toBe(401);
  });

  it('answers 401 with the challenges of the group, in the 401 page', async () => {
    const refused = await get('/admin');
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toEqual(
      'Basic realm="Restricted", charset="UTF-8", Bearer realm="Restricted"',
    );
    expect(refused.body).toContain('401');
    const keys = await get('/keys-only');
    expect(keys.status).toBe(401);
    expect(keys.headers['www-authenticate']).toBeUndefined();
  });

  it('basic: the right password passes; a wrong one, an unknown user or a malformed header is 401', async () => {
    const passed = await get('/admin/x', basic('alice', 'wonderland'));
    expect(passed.status).toBe(200);
    expect(servedBy(passed.body)).toBe('origin');
    expect(await status('/admin', basic('alice', 'wonderlanD'))).toBe(401);
    expect(await status('/admin', basic('bob', 'wonderland'))).toBe(401);
    expect(await status('/admin', { authorization: 'Basic !!!' })).toBe(401);
    expect(await status('/admin', { authorization: `Basic ${Buffer.from('alice').toString('base64')}` })).toBe(401);
  });

  it('key: the key in its header or query parameter passes; a wrong key or place is 401', async () => {
    expect(await status('/admin', { 'x-api-key': 'key-0123456789abcdef' })).toBe(200);
    expect(await status('/admin?api_key=qkey-0123456789abcdef')).toBe(200);
    expect(await status('/admin', { 'x-api-key': 'key-0123456789abcdeF' })).toBe(401);
    expect(await status('/admin?api_key=key-0123456789abcdef')).toBe(401);
    expect(await status('/admin', { 'x-other': 'key-0123456789abcdef' })).toBe(401);
    // A group's credentials only: the keys-only group knows no password.
    expect(await status('/keys-only', basic('alice', 'wonderland'))).toBe(401);
    expect(await status('/keys-only', { 'x-api-key': 'key-0123456789abcdef' })).toBe(200);
  });

  it('JWT HS256: a good token passes; expired, not yet valid, wrong issuer or audience, wrong key is 401', async () => {
    expect(await status('/admin', bearer(jwt('HS256', good(), HS_SECRET)))).toBe(200);
    expect(await status('/admin', bearer(jwt('HS256', { ...good(), aud: ['x', 'app'] }, HS_SECRET)))).toBe(200);
    expect(await status('/admin', bearer(jwt('HS256', { ...good(), exp: now() - 5 }, HS_SECRET)))).toBe(401);
    expect(await status('/admin', bearer(jwt('HS256', { ...good(), nbf: now() + 60 }, HS_SECRET)))).toBe(401);
    expect(await status('/admin', bearer(jwt('HS256', { ...good(), iss: 'evil' }, HS_SECRET)))).toBe(401);
    expect(await status('/admin', bearer(jwt('HS256', { ...good(), aud: 'other' }, HS_SECRET)))).toBe(401);
    expect(await status('/admin', bearer(jwt('HS256', { iss: 'idp', exp: now() + 60 }, HS_SECRET)))).toBe(401);
    expect(await status('/admin', bearer(jwt('HS256', good(), `${HS_SECRET}x`)))).toBe(401);
    expect(await status('/admin', bearer(jwt('HS256', { ...good(), exp: 'never' }, HS_SECRET)))).toBe(401);
  });

  it('JWT RS256 and ES256: signatures by the key pass; another key, alg none and HS/RS confusion are 401', async () => {
    expect(await status('/admin', bearer(jwt('RS256', { exp: now() + 60 }, rsa.privateKey)))).toBe(200);
    expect(await status('/admin', bearer(jwt('ES256', { exp: now() + 60 }, ec.privateKey)))).toBe(200);
    expect(await status('/admin', bearer(jwt('RS256', { exp: now() + 60 }, otherRsa.privateKey)))).toBe(401);
    expect(await status('/admin', bearer(jwt('RS256', { exp: now() - 1 }, rsa.privateKey)))).toBe(401);
    // An ES256 signature claimed as RS256, and the reverse.
    const es = jwt('ES256', { exp: now() + 60 }, ec.privateKey);
    const [, payload, sig] = es.split('.');
    expect(await status('/admin', bearer(`${b64u(JSON.stringify({ alg: 'RS256' }))}.${payload}.${sig}`))).toBe(401);
    // alg none, with and without a signature.
    expect(await status('/admin', bearer(jwt('none', good(), null)))).toBe(401);
    expect(await status('/admin', bearer(`${jwt('none', good(), null)}c2ln`))).toBe(401);
    // Algorithm confusion: an HS256 token whose secret is the RSA public key is not checked against it.
    expect(await status('/admin', bearer(jwt('HS256', good(), pem(rsa.publicKey))))).toBe(401);
    expect(await status('/admin', bearer('not.a.jwt'))).toBe(401);
  });

  it('JWT without exp: refused by a credential that requires it (the default), taken by one that does not', async () => {
    const { exp: _exp, ...forever } = good();
    expect(await status('/admin', bearer(jwt('HS256', forever, HS_SECRET)))).toBe(401);
    expect(await status('/admin', bearer(jwt('ES256', {}, ec.privateKey)))).toBe(401);
    expect(await status('/admin', bearer(jwt('RS256', {}, rsa.privateKey)))).toBe(200);
    // exp present still counts for the credential that does not require it.
    expect(await status('/admin', bearer(jwt('RS256', { exp: now() - 1 }, rsa.privateKey)))).toBe(401);
  });

  it('redirects plain HTTP on a forceSSL domain before asking for a credential', async () => {
    const reply = await get('/admin', {}, 'tls.auth.example');
    expect(reply.status).toBe(301);
    expect(reply.headers['www-authenticate']).toBeUndefined();
  });

  it('logs a refusal with kind auth, the rule and deny', async () => {
    await get('/admin/logged-refusal');
    await get('/admin/logged-pass', basic('alice', 'wonderland'));
    const log = await firewallLogLines(edge, ['/admin/logged-refusal', '/admin/logged-pass']);
    expect(log.get('/admin/logged-refusal')).toMatchObject({
      fw_kind: 'auth',
      fw_rule: '102',
      fw_action: 'deny',
      status: '401',
    });
    expect(log.get('/admin/logged-pass')).toMatchObject({ fw_kind: '', status: '200' });
  });
});
