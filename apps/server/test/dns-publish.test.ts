import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import {
  type AnyRoute,
  addLineNodes,
  createDomains,
  createMonitorGroup,
  createMonitorNode,
  type DnsSettingIn,
  deleteDomains,
  getCnameMeta,
  initializeNodes,
  listAuditLogs,
  listDnsCnames,
  listDnsUnprocessed,
  putCnameSetting,
  recoverDns,
  reportProbeResults,
  retryDnsUnprocessed,
  saveDnsSetting,
  setDnsCnames,
  setSitesForceBackup,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSet } from '../src/modules/dns/dns-provider.js';
import { addAccount, rootId, signInOtherOperator } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { nodeSend, sendAs, type Token } from './helpers/call.js';
import { dnsLookup } from './helpers/dns-provider-checks.js';
import { type DnsServer, startDnsServer, type TsigKeySpec } from './helpers/dns-server.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { operatorCalls } from './helpers/operators.js';
import { type PowerDnsServer, powerDnsSetting, startPowerDns } from './helpers/powerdns-server.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Publishing the operators' DNS records (modules/dns/dns-reconciler.ts) against a real PowerDNS (the
// operator `client`) and a real BIND taking RFC 2136 updates with TSIG (the operator `rival`), read
// back with node:dns from the servers' DNS ports. Passes run through the API (`dns/recovery`,
// `dns/unprocessed`) or the app's reconciler; the monitors' verdicts come from probe reports.
let t: TestApp;
let pdns: PowerDnsServer;
let bind: DnsServer;
let pdnsResolver: Resolver;
let bindResolver: Resolver;
const pdnsZone = 'cdn-pub.test';
const bindZone = 'cdn-bind.test';
const tsig: TsigKeySpec = { name: 'rampart-pub', algorithm: 'hmac-sha256', secret: randomBytes(32).toString('base64') };

let client: Token;
let rival: Token;
let user: Token;
let rivalId: number;

const as = <R extends AnyRoute>(who: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, who, route, ...args);

const powerdns = (over: Partial<Extract<DnsSettingIn, { type: 'powerdns' }>> = {}) =>
  powerDnsSetting(pdns, pdnsZone, over);

/** What the authoritative server behind `resolver` answers for `name` and `type` (sorted; [] when nothing). */
const lookup = async (resolver: Resolver, name: string, type: 'A' | 'AAAA' | 'CNAME') =>
  (await dnsLookup(resolver)(name, type)).values;

interface Operator {
  token: Token;
  zoneId: number;
  mainGroup: number;
  backupGroup: number;
  siteId: number;
  nodes: JoinedNode[];
  spare: JoinedNode;
  target: string;
  domainId: number;
}

/**
 * An operator's network: main group `web` with two nodes (an IPv4 and an IPv6 one), backup group
 * `spare` with one, a product on both, a customer's site with the domain `name`; the CNAME domain
 * `cname.<zone>`. Answers the domain's CNAME target.
 */
async function network(token: Token, customer: Token, customerId: number, zone: string, name: string, prefix: string) {
  const make = operatorCalls(t.app, token);
  const zoneId = await make.zone(`${prefix}-zone`);
  const mainGroup = await make.group(zoneId, 'web');
  const backupGroup = await make.group(zoneId, 'spare', 7, true);
  const productId = await make.product(`${prefix}-cdn`, 7, [mainGroup], [backupGroup]);
  const siteId = await make.site(`${prefix}-site`, customerId, productId);
  const place = async (hostname: string, ips: string[], groupId: number) => {
    const node = await joinNode(t.app, token, hostname, ips);
    const res = await as(token, initializeNodes, { body: { ids: [node.nodeId], zoneID: zoneId, groupID: groupId } });
    expect(res.statusCode, res.body).toBe(200);
    return node;
  };
  const nodes = [
    await place(`${prefix}-a`, ['192.0.2.11'], mainGroup),
    await place(`${prefix}-b`, ['2001:db8::12'], mainGroup),
  ];
  const spare = await place(`${prefix}-spare`, ['192.0.2.13'], backupGroup);
  expect((await as(token, putCnameSetting, { body: { domain: `cname.${zone}` } })).statusCode).toBe(200);
  const created = await as(
    token,
    createDomains,
    { params: { siteId }, body: { domains: [{ name, upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] } },
    customer,
  );
  expect(created.statusCode, created.body).toBe(200);
  const domain = created.json().data[0] as { id: number; cname: string };
  expect(domain.cname).toMatch(new RegExp(`^[0-9a-f]{16}\\.cname\\.${zone.replace(/\./g, '\\.')}$`));
  return { token, zoneId, mainGroup, backupGroup, siteId, nodes, spare, target: domain.cname, domainId: domain.id };
}

let mine: Operator;
let theirs: Operator;
let probe: JoinedNode;
let monitorGroupId: number;

beforeAll(async () => {
  // One after the other: started together they could pick the same free DNS port.
  pdns = await startPowerDns([pdnsZone]);
  bind = await startDnsServer({ [bindZone]: [] }, undefined, { updateKey: tsig });
  pdnsResolver = new Resolver({ timeout: 1000, tries: 2 });
  pdnsResolver.setServers([pdns.dnsAddress]);
  bindResolver = new Resolver({ timeout: 1000, tries: 2 });
  bindResolver.setServers([bind.address]);
  t = await createTestApp();
  client = await signIn(t.app, 'client');
  user = await signIn(t.app, 'user');
  rivalId = await addAccount(t.app, 'client', 'rival');
  rival = await signIn(t.app, 'client', 'rival');
  const rivalCustomerId = await addAccount(t.app, 'user', 'rival-customer', rivalId);
  const rivalCustomer = await signIn(t.app, 'user', 'rival-customer');

  mine = await network(client, user, await rootId(t.app, 'user'), pdnsZone, 'shop.example.com', 'p');
  theirs = await network(rival, rivalCustomer, rivalCustomerId, bindZone, 'shop.example.net', 'b');
  expect((await as(client, saveDnsSetting, { body: powerdns() })).statusCode).toBe(200);
  const rfc2136 = {
    type: 'rfc2136',
    server: bind.address,
    zone: bindZone,
    keyName: tsig.name,
    algorithm: tsig.algorithm,
    secret: tsig.secret,
    ttl: 120,
  } as const;
  expect((await as(rival, saveDnsSetting, { body: rfc2136 })).statusCode).toBe(200);

  // A monitor node probing the client's two main nodes (one failed probe is enough to go down).
  probe = await joinNode(t.app, client, 'probe');
  const monitor = (await as(client, createMonitorNode, { body: { nodeID: probe.nodeId } })).json().data.id;
  const created = await as(client, createMonitorGroup, {
    body: {
      name: 'edge',
      intervalSeconds: 10,
      timeoutSeconds: 2,
      failureThreshold: 1,
      monitorIDs: [monitor],
      nodeIDs: mine.nodes.map((n) => n.nodeId),
    },
  });
  expect(created.statusCode, created.body).toBe(200);
  monitorGroupId = created.json().data.id;
});
afterAll(async () => {
  await t?.close();
  await Promise.all([pdns?.stop(), bind?.stop()]);
});

const report = async (results: { node: JoinedNode; ok: boolean }[]) => {
  const res = await nodeSend(t.app, probe, reportProbeResults, {
    body: {
      results: results.map((r) => ({
        groupId: monitorGroupId,
        nodeId: r.node.nodeId,
        ok: r.ok,
        reason: r.ok ? '' : '80 ECONNREFUSED',
      })),
    },
  });
  expect(res.statusCode, res.body).toBe(200);
};
const pass = (who: Operator) => as(who.token, recoverDns);
const reconcile = (operatorId: number) => t.app.rampart.dnsReconciler.reconcile(operatorId);

describe('publishing to PowerDNS', () => {
  it("answers each domain's CNAME target with the main group's nodes, A and AAAA, at the operator's TTL", async () => {
    const res = await pass(mine);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ ran: true, written: 2, failed: 0 });
    expect(await lookup(pdnsResolver, mine.target, 'A')).toEqual(['192.0.2.11']);
    expect(await lookup(pdnsResolver, mine.target, 'AAAA')).toEqual(['2001:db8::12']);
    const held = await t.app.rampart.dnsSettings.providerOf(await rootId(t.app, 'client'));
    expect((await held.listRecords([mine.target])).map((s) => s.ttl)).toEqual([60, 60]);
    // Nothing changed: a normal pass writes nothing.
    expect(await reconcile(await rootId(t.app, 'client'))).toEqual({ ran: true, written: 0, failed: 0 });
    // The action is in the operation log.
    const log = await as(client, listAuditLogs, { params: { auth: 'client' }, query: { url: 'client.setting.dns' } });
    expect(log.json().data.map((e: { action: string }) => e.action)).toContain('client.setting.dns.recovery');
  });

  it('follows the monitors: a node down leaves, the backup group answers when no main node is up, forceBackup', async () => {
    const clientId = await rootId(t.app, 'client');
    const [a, b] = mine.nodes as [JoinedNode, JoinedNode];
    await report([
      { node: a, ok: false },
      { node: b, ok: true },
    ]);
    expect((await reconcile(clientId)).written).toBe(1);
    expect(await lookup(pdnsResolver, mine.target, 'A')).toEqual([]);
    expect(await lookup(pdnsResolver, mine.target, 'AAAA')).toEqual(['2001:db8::12']);

    await report([{ node: b, ok: false }]);
    await reconcile(clientId);
    expect(await lookup(pdnsResolver, mine.target, 'A')).toEqual(['192.0.2.13']);
    expect(await lookup(pdnsResolver, mine.target, 'AAAA')).toEqual([]);

    await report([
      { node: a, ok: true },
      { node: b, ok: true },
    ]);
    await reconcile(clientId);
    expect(await lookup(pdnsResolver, mine.target, 'A')).toEqual(['192.0.2.11']);
    expect(await lookup(pdnsResolver, mine.target, 'AAAA')).toEqual(['2001:db8::12']);

    expect(
      (await as(client, setSitesForceBackup, { body: { ids: [mine.siteId], forceBackup: true } })).statusCode,
    ).toBe(200);
    await reconcile(clientId);
    expect(await lookup(pdnsResolver, mine.target, 'A')).toEqual(['192.0.2.13']);
    expect(await lookup(pdnsResolver, mine.target, 'AAAA')).toEqual([]);
    await as(client, setSitesForceBackup, { body: { ids: [mine.siteId], forceBackup: false } });
    await reconcile(clientId);
    expect(await lookup(pdnsResolver, mine.target, 'A')).toEqual(['192.0.2.11']);
  });

  it('changes with the placements: a node added on the line appears', async () => {
    const extra = await joinNode(t.app, client, 'p-extra', ['192.0.2.14']);
    await as(client, initializeNodes, { body: { ids: [extra.nodeId], zoneID: mine.zoneId } });
    const added = await as(client, addLineNodes, {
      params: { zoneID: mine.zoneId, groupID: mine.mainGroup, lineID: 'default' },
      body: { nodeIDs: [extra.nodeId] },
    });
    expect(added.statusCode, added.body).toBe(200);
    await reconcile(await rootId(t.app, 'client'));
    expect(await lookup(pdnsResolver, mine.target, 'A')).toEqual(['192.0.2.11', '192.0.2.14']);
  });

  it('removes the records of a deleted domain and never touches a record Rampart did not create', async () => {
    const clientId = await rootId(t.app, 'client');
    const provider = await t.app.rampart.dnsSettings.providerOf(clientId);
    const foreign = `www.cname.${pdnsZone}`;
    await provider.applyChanges([{ kind: 'upsert', set: recordSet(foreign, 'A', 300, ['198.51.100.7']) }]);
    // A second domain, published, then deleted with the first one.
    const created = await as(
      client,
      createDomains,
      {
        params: { siteId: mine.siteId },
        body: { domains: [{ name: 'two.example.com', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] },
      },
      user,
    );
    const second = created.json().data[0] as { id: number; cname: string };
    await reconcile(clientId);
    expect(await lookup(pdnsResolver, second.cname, 'A')).toEqual(['192.0.2.11', '192.0.2.14']);

    const removed = await as(
      client,
      deleteDomains,
      { params: { siteId: mine.siteId }, body: { ids: [second.id] } },
      user,
    );
    expect(removed.statusCode, removed.body).toBe(200);
    const result = await reconcile(clientId);
    expect(result).toMatchObject({ ran: true, failed: 0 });
    expect(await lookup(pdnsResolver, second.cname, 'A')).toEqual([]);
    expect(await lookup(pdnsResolver, second.cname, 'AAAA')).toEqual([]);
    expect(await lookup(pdnsResolver, foreign, 'A')).toEqual(['198.51.100.7']);
    expect(await lookup(pdnsResolver, mine.target, 'A')).toEqual(['192.0.2.11', '192.0.2.14']);
  });

  it('puts a failed write in dns/unprocessed with the error, retries it with backoff, clears it once written', async () => {
    const clientId = await rootId(t.app, 'client');
    // The provider refuses every call (a wrong API key) while a node joins.
    expect((await as(client, saveDnsSetting, { body: powerdns({ apiKey: 'wrong-key' }) })).statusCode).toBe(200);
    const [a] = mine.nodes as [JoinedNode];
    await report([{ node: a, ok: false }]);
    // The provider cannot even list: every set it should hold waits, with the provider's words.
    expect(await reconcile(clientId)).toMatchObject({ ran: true, written: 0, failed: 2 });

    const listed = await as(client, listDnsUnprocessed, { query: { page: 1, pageSize: 10 } });
    expect(listed.statusCode, listed.body).toBe(200);
    const body = listed.json();
    expect(body.total).toBe(2);
    const row = body.data.find((r: { type: string }) => r.type === 'A');
    if (!row) throw new Error('no A row');
    expect(row).toMatchObject({ name: mine.target, type: 'A', line: 'default', action: 'upsert', attempts: 1 });
    expect(row.values).toEqual(['192.0.2.14']);
    expect(row.error).toMatch(/PowerDNS 401/);
    expect(Date.parse(row.nextAttemptAt)).toBeGreaterThan(Date.now());

    // Within the backoff a pass leaves it; a retry asked for tries at once and counts the attempt.
    expect(await reconcile(clientId)).toMatchObject({ written: 0, failed: 0 });
    const retried = await as(client, retryDnsUnprocessed, { body: { ids: [row.id] } });
    expect(retried.json()).toEqual({ data: { ran: true, written: 0, failed: 1 } });
    const again = (await as(client, listDnsUnprocessed, { query: {} }))
      .json()
      .data.find((r: { id: number }) => r.id === row.id);
    expect(again).toMatchObject({ id: row.id, attempts: 2 });
    expect(Date.parse(again?.nextAttemptAt ?? '') - Date.parse(row.nextAttemptAt)).toBeGreaterThan(0);

    // The key fixed, the retry writes it and the row goes.
    expect((await as(client, saveDnsSetting, { body: powerdns() })).statusCode).toBe(200);
    expect((await as(client, retryDnsUnprocessed, { body: { ids: [row.id] } })).json().data).toEqual({
      ran: true,
      written: 1,
      failed: 0,
    });
    expect((await as(client, listDnsUnprocessed, { query: {} })).json()).toEqual({ data: [], total: 0 });
    expect(await lookup(pdnsResolver, mine.target, 'A')).toEqual(['192.0.2.14']);
    await report([{ node: a, ok: true }]);
    expect(await reconcile(clientId)).toMatchObject({ written: 1, failed: 0 });
    expect(await lookup(pdnsResolver, mine.target, 'A')).toEqual(['192.0.2.11', '192.0.2.14']);
  });
});

describe('publishing with RFC 2136 to BIND', () => {
  it("publishes the rival's records in its own zone, apart from the client's", async () => {
    const res = await pass(theirs);
    expect(res.json().data).toEqual({ ran: true, written: 2, failed: 0 });
    expect(await lookup(bindResolver, theirs.target, 'A')).toEqual(['192.0.2.11']);
    expect(await lookup(bindResolver, theirs.target, 'AAAA')).toEqual(['2001:db8::12']);
    // The client's pass never wrote them (nor anything else of the rival's).
    expect(await reconcile(await rootId(t.app, 'client'))).toEqual({ ran: true, written: 0, failed: 0 });
    expect(await lookup(bindResolver, theirs.target, 'A')).toEqual(['192.0.2.11']);
  });

  it('changes and removes them, leaving a record it did not create', async () => {
    const provider = await t.app.rampart.dnsSettings.providerOf(rivalId);
    const foreign = `mail.cname.${bindZone}`;
    await provider.applyChanges([{ kind: 'upsert', set: recordSet(foreign, 'A', 300, ['198.51.100.9']) }]);
    expect(
      (await as(rival, setSitesForceBackup, { body: { ids: [theirs.siteId], forceBackup: true } })).statusCode,
    ).toBe(200);
    await reconcile(rivalId);
    expect(await lookup(bindResolver, theirs.target, 'A')).toEqual(['192.0.2.13']);
    expect(await lookup(bindResolver, theirs.target, 'AAAA')).toEqual([]);
    const customer = await signIn(t.app, 'user', 'rival-customer');
    await as(rival, deleteDomains, { params: { siteId: theirs.siteId }, body: { ids: [theirs.domainId] } }, customer);
    await reconcile(rivalId);
    expect(await lookup(bindResolver, theirs.target, 'A')).toEqual([]);
    expect(await lookup(bindResolver, foreign, 'A')).toEqual(['198.51.100.9']);
  });
});

describe('dns/unprocessed and dns/recovery', () => {
  it("keeps operators apart and refuses customers; 101006 without a provider, 101003 for another's ids", async () => {
    const clientId = await rootId(t.app, 'client');
    // A failure of the client's, which the rival neither sees nor retries.
    expect((await as(client, saveDnsSetting, { body: powerdns({ apiKey: 'wrong-key' }) })).statusCode).toBe(200);
    expect((await as(client, recoverDns)).json().data).toMatchObject({ ran: true, failed: 2 });
    const rows = (await as(client, listDnsUnprocessed, { query: {} })).json().data as { id: number }[];
    expect(rows.length).toBe(2);
    expect((await as(rival, listDnsUnprocessed, { query: {} })).json()).toEqual({ data: [], total: 0 });
    const foreign = await as(rival, retryDnsUnprocessed, { body: { ids: [rows[0]!.id] } });
    expect(foreign.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'ids' }] } });
    expect((await as(client, retryDnsUnprocessed, { body: { ids: [999_999] } })).json().code).toBe(101003);

    for (const route of [listDnsUnprocessed, recoverDns] as const) {
      expect((await as(user, route as typeof recoverDns)).json().code).toBe(101018);
    }
    expect((await as(user, retryDnsUnprocessed, { body: { ids: [rows[0]!.id] } })).json().code).toBe(101018);

    const third = await signInOtherOperator(t.app, 'operator-three');
    expect((await as(third, recoverDns)).json().code).toBe(101006);

    // Recovery with the provider back rewrites everything and empties the list.
    expect((await as(client, saveDnsSetting, { body: powerdns() })).statusCode).toBe(200);
    expect((await as(client, recoverDns)).json().data).toEqual({ ran: true, written: 2, failed: 0 });
    expect((await as(client, listDnsUnprocessed, { query: {} })).json().total).toBe(0);
    expect(await t.app.rampart.dnsReconciler.reconcile(clientId)).toMatchObject({ written: 0 });
  });
});

describe('dns/cnames, dns/cname and cname/meta', () => {
  it("lists the operator's CNAME records, turns one off (its records go) and on again (they come back)", async () => {
    const clientId = await rootId(t.app, 'client');
    const listed = await as(client, listDnsCnames, { query: {} });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data).toContainEqual({
      id: mine.domainId,
      domain: 'shop.example.com',
      target: mine.target,
      siteId: mine.siteId,
      siteName: 'p-site',
      enabled: true,
      disabled: false,
    });
    expect((await as(client, listDnsCnames, { query: { keyword: 'shop.example' } })).json().total).toBe(1);
    expect((await as(client, listDnsCnames, { query: { keyword: 'nothing-like-it' } })).json().total).toBe(0);

    expect((await as(client, setDnsCnames, { body: { ids: [mine.domainId], disabled: true } })).json()).toEqual({
      data: true,
    });
    await reconcile(clientId);
    expect(await lookup(pdnsResolver, mine.target, 'A')).toEqual([]);
    expect(await lookup(pdnsResolver, mine.target, 'AAAA')).toEqual([]);
    expect((await as(client, listDnsCnames, { query: {} })).json().data[0]).toMatchObject({ disabled: true });

    await as(client, setDnsCnames, { body: { ids: [mine.domainId], disabled: false } });
    await reconcile(clientId);
    expect(await lookup(pdnsResolver, mine.target, 'A')).toEqual(['192.0.2.11', '192.0.2.14']);
  });

  it("answers the publication's meta, keeps operators apart and refuses customers", async () => {
    expect((await as(client, getCnameMeta)).json().data).toEqual({
      cnameDomain: `cname.${pdnsZone}`,
      providerType: 'powerdns',
      zone: pdnsZone,
      ttl: 60,
      lines: ['default'],
    });
    const third = await signIn(t.app, 'client', 'operator-three');
    expect((await as(third, getCnameMeta)).json().data).toMatchObject({ providerType: null, zone: null, lines: [] });
    expect((await as(third, listDnsCnames, { query: {} })).json()).toEqual({ data: [], total: 0 });
    expect((await as(rival, listDnsCnames, { query: {} })).json().data.map((c: { id: number }) => c.id)).not.toContain(
      mine.domainId,
    );
    const foreign = await as(rival, setDnsCnames, { body: { ids: [mine.domainId], disabled: true } });
    expect(foreign.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'ids' }] } });
    expect((await as(client, listDnsCnames, { query: {} })).json().data[0]).toMatchObject({ disabled: false });
    expect((await as(user, listDnsCnames, { query: {} })).json().code).toBe(101018);
    expect((await as(user, getCnameMeta)).json().code).toBe(101018);
    expect((await as(user, setDnsCnames, { body: { ids: [mine.domainId], disabled: true } })).json().code).toBe(101018);
  });
});
