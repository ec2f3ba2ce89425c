import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import net from 'node:net';
import {
  type AnyRoute,
  type DnsSettingIn,
  deleteDnsSetting,
  getDnsSetting,
  getSelf,
  listAuditLogs,
  saveDnsSetting,
  testDnsSetting,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, giveRole, rootId, signInOtherOperator } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { fieldNames, rawInput, sendAs, type Token } from './helpers/call.js';
import { type DnsServer, startDnsServer, type TsigKeySpec } from './helpers/dns-server.js';
import { type PowerDnsServer, powerDnsSetting, startPowerDns } from './helpers/powerdns-server.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The operator's DNS provider setting (contract routes/dns-settings.ts): saved per operator with its
// secret sealed and never answered, the operator's dnsType following it, tested against a real
// PowerDNS and a real BIND (RFC 2136 with TSIG) that the test starts on loopback.
let t: TestApp;
let client: Token;
let rival: Token;
let user: Token;
let reader: Token;
let pdns: PowerDnsServer;
let bind: DnsServer;
const zone = 'cdn-settings.test';
const tsig: TsigKeySpec = {
  name: 'rampart-update',
  algorithm: 'hmac-sha512',
  secret: randomBytes(64).toString('base64'),
};

const as = <R extends AnyRoute>(who: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, who, route, ...args);
const powerdns = (over: Partial<Extract<DnsSettingIn, { type: 'powerdns' }>> = {}) => powerDnsSetting(pdns, zone, over);
const dnsTypeOf = async (who: Token) =>
  (await as(who, getSelf, { params: { auth: 'client' } })).json().data.dnsType as string;

beforeAll(async () => {
  // One after the other: each picks a free port and binds it later, so two started at once can pick
  // the same one (BIND then answers REFUSED for the zone it does not hold).
  pdns = await startPowerDns([zone]);
  bind = await startDnsServer({ [zone]: [] }, undefined, { updateKey: tsig });
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  rival = await signInOtherOperator(t.app);
  user = await signIn(t.app, 'user');
  const clientRoot = await rootId(t.app, 'client');
  await giveRole(t.app, client, 'client', await addAccount(t.app, 'client', 'dns-reader', clientRoot), [
    'client.settings.read',
  ]);
  reader = await signIn(t.app, 'client', 'dns-reader');
});
afterAll(async () => {
  await t?.close();
  await Promise.all([pdns?.stop(), bind?.stop()]);
});

describe('client/setting/dns', () => {
  it('is null and the dnsType empty until the operator sets one', async () => {
    expect((await as(client, getDnsSetting)).json()).toEqual({ data: null });
    expect(await dnsTypeOf(client)).toBe('');
  });

  it('saves PowerDNS, answers without the key, sets dnsType, and keeps the key sealed in the store', async () => {
    const saved = await as(client, saveDnsSetting, { body: powerdns() });
    expect(saved.statusCode, saved.body).toBe(200);
    const expected = {
      type: 'powerdns',
      apiUrl: `${pdns.apiUrl}/`,
      serverId: 'localhost',
      zone,
      ttl: 60,
      hasSecret: true,
    };
    expect(saved.json()).toEqual({ data: expected });
    expect((await as(reader, getDnsSetting)).json()).toEqual({ data: expected });
    expect(saved.body).not.toContain(pdns.apiKey);
    expect(await dnsTypeOf(client)).toBe('powerdns');

    const rows = (await t.db.database.db.execute(
      sql`SELECT value::text AS v FROM system_settings WHERE key LIKE 'dnsProvider:%'`,
    )) as unknown as { rows: { v: string }[] };
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]?.v).not.toContain(pdns.apiKey);
    expect(rows.rows[0]?.v).toMatch(/"sealedSecret": ?"v1\./);

    // The operation log names the action and never holds the key.
    const log = await as(client, listAuditLogs, { params: { auth: 'client' }, query: { url: 'client.setting.dns' } });
    const entry = log.json().data.find((e: { action: string }) => e.action === 'client.setting.dns.save');
    expect(entry?.changes).toMatchObject({ type: 'powerdns', apiKey: '[redacted]' });
    expect(JSON.stringify(log.json())).not.toContain(pdns.apiKey);
  });

  it('keeps the stored key when an update leaves it out or empty, and tests with it', async () => {
    const { apiKey: _, ...withoutKey } = powerdns({ ttl: 300 });
    expect((await as(client, saveDnsSetting, { body: withoutKey })).json().data).toMatchObject({
      ttl: 300,
      hasSecret: true,
    });
    expect((await as(client, saveDnsSetting, { body: { ...withoutKey, apiKey: '' } })).statusCode).toBe(200);
    const tested = await as(client, testDnsSetting, { body: withoutKey });
    expect(tested.statusCode, tested.body).toBe(200);
    expect(tested.json().data.detail).toContain('written and removed');
  });

  it('tests against PowerDNS: a wrong key is 101010 with PowerDNS’s answer; the stored setting is unchanged', async () => {
    const res = await as(client, testDnsSetting, { body: powerdns({ apiKey: 'wrong-key' }) });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 101010, extra: { name: zone, reason: 'PowerDNS 401: Unauthorized' } });
    const zoneMissing = await as(client, testDnsSetting, { body: powerdns({ zone: 'missing.test' }) });
    expect(zoneMissing.json()).toMatchObject({
      code: 101010,
      extra: { name: 'missing.test', reason: expect.stringContaining('PowerDNS 404') },
    });
    expect((await as(client, getDnsSetting)).json().data).toMatchObject({ type: 'powerdns', zone });
  });

  it('switching type needs that type’s secret (101003 naming it); RFC 2136 to BIND then tests and resolves', async () => {
    const rfc = {
      type: 'rfc2136',
      server: bind.address,
      zone,
      keyName: tsig.name,
      algorithm: tsig.algorithm,
      ttl: 60,
    } as const;
    const missing = await as(client, saveDnsSetting, { body: rfc });
    expect(missing.json()).toMatchObject({ code: 101003 });
    expect(fieldNames(missing)).toEqual(['secret']);
    const saved = await as(client, saveDnsSetting, { body: { ...rfc, secret: tsig.secret } });
    expect(saved.json()).toEqual({ data: { ...rfc, hasSecret: true } });
    expect(await dnsTypeOf(client)).toBe('rfc2136');
    const tested = await as(client, testDnsSetting, { body: rfc });
    expect(tested.statusCode, tested.body).toBe(200);

    // The stored provider writes records BIND then answers.
    const provider = await t.app.rampart.dnsSettings.providerOf(await rootId(t.app, 'client'));
    await provider.applyChanges([
      { kind: 'upsert', set: { name: `node.${zone}`, type: 'A', line: 'default', ttl: 60, values: ['192.0.2.7'] } },
    ]);
    const resolver = new Resolver({ timeout: 1000, tries: 1 });
    resolver.setServers([bind.address]);
    expect(await resolver.resolve4(`node.${zone}`)).toEqual(['192.0.2.7']);

    const bad = await as(client, testDnsSetting, { body: { ...rfc, secret: randomBytes(64).toString('base64') } });
    expect(bad.json()).toMatchObject({
      code: 101010,
      extra: { name: zone, reason: expect.stringMatching(/BADSIG|NOTAUTH/) },
    });
  });

  it('holds no database transaction while the provider is slow: other calls go on, the test ends at its timeout', async () => {
    const silent = net.createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
      let slowEnded = false;
      const slow = as(client, testDnsSetting, { body: powerdns({ apiUrl: url, apiKey: 'k' }) }).finally(() => {
        slowEnded = true;
      });
      await new Promise((r) => setTimeout(r, 300));
      const meanwhile = await as(client, saveDnsSetting, { body: powerdns() });
      expect(meanwhile.statusCode).toBe(200);
      // Answered while the slow test still waits on its provider (its 10 s timeout).
      expect(slowEnded).toBe(false);
      const res = await slow;
      expect(res.json()).toMatchObject({
        code: 101010,
        extra: { reason: expect.stringContaining('no answer within 10000 ms') },
      });
    } finally {
      silent.close();
    }
  });

  it('refuses invalid fields with 101003 naming them', async () => {
    const cases: [unknown, string[]][] = [
      [{ ...powerdns(), apiUrl: 'ftp://x' }, ['apiUrl']],
      [{ ...powerdns(), zone: 'not a zone' }, ['zone']],
      [{ ...powerdns(), ttl: 0 }, ['ttl']],
      [{ ...powerdns(), serverId: 'a/b' }, ['serverId']],
      [
        { type: 'rfc2136', server: '127.0.0.1:99999', zone, keyName: 'k', algorithm: 'hmac-sha256', secret: 'AA==' },
        ['server'],
      ],
      [
        { type: 'rfc2136', server: '127.0.0.1', zone, keyName: 'k', algorithm: 'hmac-md5', secret: 'AA==' },
        ['algorithm'],
      ],
      [
        { type: 'rfc2136', server: '127.0.0.1', zone, keyName: 'k', algorithm: 'hmac-sha256', secret: 'not base64!' },
        ['secret'],
      ],
      [{ type: 'dnspod', zone, token: 'no-comma' }, ['token']],
      [{ type: 'route53', zone }, ['type']],
    ];
    for (const [body, fields] of cases) {
      const res = await as(client, saveDnsSetting, rawInput({ body: body as Record<string, unknown> }));
      expect(res.json().code, JSON.stringify(body)).toBe(101003);
      expect(fieldNames(res), JSON.stringify(body)).toEqual(fields);
    }
  });

  it('is each operator’s own: another operator sees none and its delete leaves this one', async () => {
    expect((await as(rival, getDnsSetting)).json()).toEqual({ data: null });
    expect((await as(rival, deleteDnsSetting)).statusCode).toBe(200);
    expect((await as(client, getDnsSetting)).json().data).toMatchObject({ type: 'powerdns', zone });
    // A test by the other operator of a type it never stored needs its own secret.
    const res = await as(rival, testDnsSetting, { body: { type: 'cloudflare', zone } });
    expect(fieldNames(res)).toEqual(['apiToken']);
  });

  it('refuses customers and accounts without the write permission', async () => {
    for (const route of [getDnsSetting, deleteDnsSetting] as const) {
      expect((await as(user, route)).json().code).toBe(101018);
    }
    expect((await as(user, saveDnsSetting, { body: powerdns() })).json().code).toBe(101018);
    expect((await as(user, testDnsSetting, { body: powerdns() })).json().code).toBe(101018);
    expect((await as(reader, saveDnsSetting, { body: powerdns() })).json().code).toBe(101018);
    expect((await as(reader, deleteDnsSetting)).json().code).toBe(101018);
  });

  it('delete removes the setting and clears dnsType', async () => {
    expect((await as(client, deleteDnsSetting)).json()).toEqual({ data: null });
    expect((await as(client, getDnsSetting)).json()).toEqual({ data: null });
    expect(await dnsTypeOf(client)).toBe('');
    await expect(t.app.rampart.dnsSettings.providerOf(await rootId(t.app, 'client'))).rejects.toMatchObject({
      code: 101006,
    });
  });
});
