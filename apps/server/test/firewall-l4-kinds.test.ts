import {
  type AnyRoute,
  addSitePorts,
  buildOpenApiDocument,
  type EdgeStreamPort,
  L4_RULE_KINDS,
  firewallL4Routes as r,
  type SiteL4RuleKind,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeL4 } from '../src/modules/firewall/firewall-l4.edge.js';
import { FirewallL4Repository } from '../src/modules/firewall/firewall-l4.repository.js';
import { rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { sendAs, type Token } from './helpers/call.js';
import { operatorCalls } from './helpers/operators.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// What the site firewall's layer-4 kinds answer, store and send to the edge, and how the OpenAPI
// document declares their calls, recorded in __snapshots__/firewall-l4-kinds.txt: the record was
// written by the hand-written kinds (the server's KINDS table, presenter and per-kind edge code)
// before they moved onto their declarations (contract rule-kinds/site-firewall-l4.ts), and every
// byte of it must stay. Row ids are replaced by names so the record holds on either database.

let t: TestApp;
let user: Token;
let site: number;
const ports: Record<string, { id: number; port: number; protocol: 'tcp' | 'udp' }> = {};
/** Names of the rows by the key that holds their id. */
const names = { rule: new Map<number, string>(), port: new Map<number, string>(), site: new Map<number, string>() };

const as = <R extends AnyRoute>(route: R, ...args: CallArgs<R, Token>) => sendAs(t.app, user, route, ...args);

/**
 * A body with row ids replaced by names (`id` is a rule's, or a port's in the edge document; the
 * site's id in the edge's texts too), the times by a mark (they differ on every run).
 */
function named(body: string, id: 'rule' | 'port' = 'rule'): string {
  const of = { id: names[id], siteID: names.site, portID: names.port };
  return body
    .replace(/"(id|siteID|portID|siteId)":(\d+)/g, (_, key: string, n: string) => {
      const map = key === 'siteId' ? names.site : of[key as keyof typeof of];
      return `"${key}":"${map.get(Number(n)) ?? n}"`;
    })
    .replace(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"<time>"');
}

beforeAll(async () => {
  t = await createTestApp();
  const client = await signIn(t.app, 'client');
  user = await signIn(t.app, 'user');
  const make = operatorCalls(t.app, client);
  const zone = await make.zone('L4 kinds zone');
  const group = await make.group(zone, 'tcp', 4);
  const product = await make.product('L4 kinds', 4, [group]);
  site = await make.site('l4-kinds', await rootId(t.app, 'user'), product);
  names.site.set(site, 'site');
  for (const [name, port, protocol] of [
    ['tcp', 25565, 'tcp'],
    ['udp', 5000, 'udp'],
    ['third', 7000, 'tcp'],
  ] as const) {
    const res = await sendAs(t.app, user, addSitePorts, {
      params: { siteId: site },
      body: { ports: [{ port, protocol, upstreams: [{ ip: '198.51.100.7', port }] }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    ports[name] = { id: res.json().data[0].id, port, protocol };
    names.port.set(ports[name].id, name);
  }
});
afterAll(async () => t.close());

/** Per kind: two rules added (one with what may be left out left out, one with repeats), one replaced. */
const KINDS = {
  l4Whitelist: {
    add: r.addL4WhitelistRules,
    update: r.updateL4WhitelistRule,
    list: r.listL4WhitelistRules,
    data: (p: typeof ports) => [
      { portID: p.tcp?.id, ips: ['203.0.113.7', '198.51.100.0/24', '203.0.113.7'] },
      { portID: p.udp?.id, ips: ['2001:db8::/32'], memo: 'voice' },
    ],
    replace: (p: typeof ports) => ({ portID: p.third?.id, ips: ['192.0.2.9', '192.0.2.9', '2001:db8::1'], memo: 'x' }),
  },
  l4Blacklist: {
    add: r.addL4BlacklistRules,
    update: r.updateL4BlacklistRule,
    list: r.listL4BlacklistRules,
    data: (p: typeof ports) => [
      { portID: p.tcp?.id, ips: ['203.0.113.8', '203.0.113.8', '198.51.100.0/25'] },
      { portID: p.tcp?.id, ips: ['203.0.113.7', '2001:db8:1::/48'], memo: 'second' },
    ],
    replace: (p: typeof ports) => ({ portID: p.udp?.id, ips: ['192.0.2.10'] }),
  },
  position: {
    add: r.addL4PositionRules,
    update: r.updateL4PositionRule,
    list: r.listL4PositionRules,
    data: (p: typeof ports) => [
      { portID: p.tcp?.id, isBlack: true, positions: ['CN', 'RU', 'CN'] },
      { portID: p.udp?.id, isBlack: false, positions: ['US'], enabled: false, memo: 'off' },
      { portID: p.third?.id, isBlack: false, positions: ['US', 'DE'] },
    ],
    replace: (p: typeof ports) => ({ portID: p.tcp?.id, isBlack: true, positions: ['RU', 'CN', 'RU'], memo: 'on' }),
  },
  limitConn: {
    add: r.addL4LimitConnRules,
    update: r.updateL4LimitConnRule,
    list: r.listL4LimitConnRules,
    data: (p: typeof ports) => [
      { portID: p.tcp?.id, max: 20 },
      { portID: p.udp?.id, max: 5, rate: 10, burst: 3, delay: 60, enabled: false, memo: 'later' },
    ],
    replace: (p: typeof ports) => ({ portID: p.third?.id, max: 7, rate: null, burst: 1, delay: 0, enabled: true }),
  },
} as const;

describe('the layer-4 kinds, byte for byte', () => {
  it('answer, store, project to the edge and document as recorded', async () => {
    const lines: string[] = [];
    for (const [kind, k] of Object.entries(KINDS)) {
      const params = { siteId: site };
      const added = await as(k.add as AnyRoute, { params, body: { data: k.data(ports) } } as never);
      expect(added.statusCode, added.body).toBe(200);
      const ids = (added.json() as unknown as { data: { id: number }[] }).data.map((rule) => rule.id);
      for (const [i, id] of ids.entries()) names.rule.set(id, `${kind}-${i}`);
      lines.push(`${kind} add: ${named(added.body)}`);
      const [first] = ids;
      const updated = await as(k.update as AnyRoute, { params, body: { id: first, ...k.replace(ports) } } as never);
      expect(updated.statusCode, updated.body).toBe(200);
      lines.push(`${kind} update: ${named(updated.body)}`);
      const listed = await as(k.list as AnyRoute, { params, query: { page: 1, pageSize: 10 } } as never);
      expect(listed.statusCode, listed.body).toBe(200);
      lines.push(`${kind} list: ${named(listed.body)}`);
    }
    type Row = { id: number; kind: string; port_id: number; rule: string; memo: string };
    const stored = (await t.db.database.db.execute(
      sql`SELECT id, kind, port_id, rule::text AS rule, memo FROM site_l4_rules ORDER BY id`,
    )) as unknown as { rows: Row[] };
    for (const row of stored.rows) {
      lines.push(
        `stored ${names.rule.get(Number(row.id))} ${row.kind} ${names.port.get(Number(row.port_id))} ${row.rule} ${row.memo}`,
      );
    }

    const repo = new FirewallL4Repository(t.db.database.db);
    const streamPorts = Object.values(ports).map((p) => p as unknown as EdgeStreamPort);
    const networks = new Map([
      ['CN', { v4: ['1.0.1.0/24'], v6: ['2400:da00::/32'] }],
      ['RU', { v4: ['2.60.0.0/14'], v6: [] }],
      ['US', { v4: ['3.0.0.0/9'], v6: ['2600::/12'] }],
      ['DE', { v4: ['2.160.0.0/12'], v6: [] }],
    ]);
    const zone = {
      guardedPorts: [443, 80, 443],
      synFlood: null,
      newConnections: { rate: 5, burst: 1 },
      kernelBlocks: true,
    };
    const edge = await edgeL4(repo, streamPorts, zone, async () => networks);
    lines.push(`edge: ${named(JSON.stringify(edge), 'port')}`);
    const withoutGeo = await edgeL4(repo, streamPorts, zone, async () => null);
    lines.push(`edge without a geo database: ${named(JSON.stringify(withoutGeo), 'port')}`);

    const openApi = buildOpenApiDocument(Object.values(r), { title: 'l4', version: '1' });
    lines.push(`openapi: ${JSON.stringify(openApi)}`);

    await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot('./__snapshots__/firewall-l4-kinds.txt');
  });
});

// A row whose `rule` column breaks its kind's stored schema (written around the API) is never
// answered as a rule (101002, nothing of it in the reply), and the node's layer-4 document leaves
// the ports' rules out, naming the site, while the zone's rates stay; deleting it brings them back.
describe('a layer-4 rule whose stored form breaks its kind', () => {
  it.each(Object.keys(L4_RULE_KINDS) as SiteL4RuleKind[])(
    '%s: answers 101002 and its ports go without rules',
    async (kind) => {
      const { routes } = L4_RULE_KINDS[kind];
      const params = { siteId: site };
      const send = (route: AnyRoute, input: object) => sendAs(t.app, user, route, input as never);
      // On the UDP port, left disabled: the ports' other rules stay as they are.
      const rule = { ...KINDS[kind].data(ports)[1], portID: ports.udp?.id, enabled: false };
      const added = await send(routes.add, { params, body: { data: [rule] } });
      expect(added.statusCode, added.body).toBe(200);
      const id = (added.json() as unknown as { data: { id: number }[] }).data[0]?.id ?? 0;
      const repo = new FirewallL4Repository(t.db.database.db);
      const streamPorts = Object.values(ports).map((p) => p as unknown as EdgeStreamPort);
      const zone = { guardedPorts: [443], synFlood: { rate: 9, burst: 0 }, newConnections: null, kernelBlocks: false };
      const edge = () => edgeL4(repo, streamPorts, zone, async () => new Map());
      expect((await edge()).l4?.ports).toHaveLength(3);

      await t.db.database.db.execute(
        sql`UPDATE site_l4_rules SET rule = '{"ips": 7, "isBlack": 1, "max": "x", "enabled": "yes"}'::jsonb WHERE id = ${id}`,
      );
      const listed = await send(routes.list, { params, query: { page: 1, pageSize: 10 } });
      expect(listed.statusCode).toBe(500);
      expect(listed.json()).toMatchObject({ code: 101002 });
      expect(listed.body).not.toContain('yes');
      const broken = await edge();
      expect(broken.l4).toEqual({
        zone: { guardedPorts: [443], synFlood: { rate: 9, burst: 0 }, newConnections: null },
        regions: [],
        ports: [],
      });
      expect(broken.leftOut).toEqual([{ siteId: site, reason: expect.stringContaining(`layer-4 rule ${id}`) }]);

      expect((await send(routes.delete, { params, body: { ids: [id] } })).statusCode).toBe(200);
      expect((await edge()).l4?.ports).toHaveLength(3);
    },
  );
});
