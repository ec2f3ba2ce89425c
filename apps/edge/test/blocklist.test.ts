import { randomBytes } from 'node:crypto';
import {
  BLOCK_LIST_DEFAULT_SECONDS,
  challengeKeyIds,
  type EdgeBlockReport,
  type EdgeFirewall,
  edgeBlockReportSchema,
  emptyEdgeFirewall,
  ipListRanges,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommandLoop } from '../src/agent/commands/command-loop.js';
import { type CommandHost, executeCommand } from '../src/agent/commands/commands.js';
import { BlockReporter } from '../src/agent/events/block-list.js';
import type { LogEntry, Logger } from '../src/agent/log.js';
import { NodeClient } from '../src/agent/node-api/node-client.js';
import { AGENT_VERSION } from '../src/agent/version.js';
import { adminRequest } from '../src/data-plane/admin-client.js';
import type { DataPlane } from '../src/data-plane/schema.js';
import { firewallLogLines } from './helpers/access-log.js';
import { document, domain, upstream } from './helpers/documents.js';
import { adminCall, type Edge, startEdge } from './helpers/edge.js';
import { startFakeControlPlane } from './helpers/fake-control-plane.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { sendFrom } from './helpers/send.js';

// The block list (DROP + Blacklist, rampart.blocklist) through a real nginx with two workers: a
// rule with the action dropBlacklist drops the request and blocks the address for the site, every
// later request of that address to the site is dropped (whatever URL), the block is reported once
// through the admin endpoint, and /blocklist/unblock ends it. Every test uses its own loopback
// addresses (127.0.0.0/8 is all local on Linux).

const ALL_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS'];
const site = (id: number, rules: Partial<EdgeFirewall>): EdgeFirewall => ({ ...emptyEdgeFirewall(id), ...rules });

const FIREWALLS: EdgeFirewall[] = [
  site(1, {
    // 127.0.0.4 is whitelisted for /open only: the block list wins over it once the blacklist blocked it.
    whitelist: [{ id: 10, url: '\\/open', methods: ALL_METHODS, ...ipListRanges(['127.0.0.4']) }],
    blacklist: [
      {
        id: 11,
        url: '\\/admin',
        methods: ['GET'],
        action: 'dropBlacklist',
        ...ipListRanges(['127.0.0.2', '127.0.0.4', '127.0.0.8', '127.0.0.10']),
      },
    ],
  }),
  site(2, {
    rates: [{ id: 21, url: '.*', rate: 1, burst: 0, blockSeconds: 2, action: 'dropBlacklist' }],
  }),
  site(3, { intervals: [{ id: 31, url: '.*', seconds: 60, times: 1, action: 'dropBlacklist' }] }),
  site(4, { userAgents: [{ id: 41, url: '.*', userAgent: 'badbot', action: 'dropBlacklist' }] }),
  // Anti-CC full verification (every request challenged), one unpassed challenge tolerated.
  site(5, {
    antiCC: [
      {
        id: 51,
        url: '.*',
        seconds: 60,
        times: 0,
        challenge: 'click',
        errorSeconds: 60,
        errorTimes: 1,
        errorAction: 'dropBlacklist',
      },
    ],
  }),
  // A white geo rule on a node without a geo database: every address is in no region, so /zone is blocked.
  site(6, { geos: [{ id: 61, url: '\\/zone', white: true, countries: ['US'], cities: [], action: 'dropBlacklist' }] }),
];
const CHALLENGE = {
  keys: challengeKeyIds(new Date()).map((id) => ({ id, secret: randomBytes(32).toString('hex') })),
  passSeconds: 1800,
};

let edge: Edge;
let origin: Origin;

function plane(version: string, firewalls: EdgeFirewall[] = FIREWALLS): DataPlane {
  const to = [upstream(origin.port)];
  return document(
    version,
    [
      domain(1, 'list.example.com', to, { firewallId: 1 }),
      domain(2, 'rate.example.com', to, { firewallId: 2 }),
      domain(3, 'interval.example.com', to, { firewallId: 3 }),
      domain(4, 'agent.example.com', to, { firewallId: 4 }),
      // Another domain of site 1: a block holds for the whole site.
      domain(5, 'other.example.com', to, { firewallId: 1 }),
      domain(6, 'plain.example.com', to),
      domain(7, 'cc.example.com', to, { firewallId: 5 }),
      domain(8, 'geo.example.com', to, { firewallId: 6 }),
    ],
    [],
    [],
    { firewalls, challenge: CHALLENGE },
  );
}

const send = (from: string, host: string, options: Parameters<typeof sendFrom>[3] = {}) =>
  sendFrom(from, edge.httpPort, host, options).then((r) => (r === 'closed' ? 'closed' : r.status));

/** Every event popped from the admin endpoint so far (popping empties the queue). */
const seen: EdgeBlockReport[] = [];
async function pop(): Promise<{ events: EdgeBlockReport[]; dropped: number; full: number }> {
  const res = await adminCall(edge.adminEndpoint, 'GET', '/blocklist/events');
  expect(res.status).toBe(200);
  const events = (res.body.events as unknown[]).map((e) => edgeBlockReportSchema.parse(e));
  seen.push(...events);
  return { events, dropped: res.body.dropped as number, full: res.body.full as number };
}
/** The events of `ip` popped so far, after one more pop. */
async function eventsOf(ip: string): Promise<EdgeBlockReport[]> {
  await pop();
  return seen.filter((e) => e.ip === ip);
}

const unblock = (entries: unknown) =>
  adminCall(edge.adminEndpoint, 'POST', '/blocklist/unblock', JSON.stringify({ entries }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge();
  await edge.push(plane('blocklist-1'));
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

describe('a blacklist rule with DROP + Blacklist', () => {
  it('drops the request, blocks the address for the whole site, reports it once, and unblock ends it', async () => {
    expect(await pop()).toEqual({ events: [], dropped: 0, full: 0 });
    const before = Math.floor(Date.now() / 1000);
    expect(await send('127.0.0.2', 'list.example.com', { path: '/admin/first' })).toBe('closed');
    // Not covered by the rule (another method and path), but blocked: dropped too, on every domain of the site.
    expect(await send('127.0.0.2', 'list.example.com', { path: '/other', method: 'POST' })).toBe('closed');
    expect(await send('127.0.0.2', 'other.example.com', { path: '/plain' })).toBe('closed');
    // Other addresses, and other sites, are not affected.
    expect(await send('127.0.0.3', 'list.example.com', { path: '/admin/third' })).toBe(200);
    expect(await send('127.0.0.2', 'plain.example.com', { path: '/plain-site' })).toBe(200);
    expect(await send('127.0.0.2', 'interval.example.com', { path: '/x' })).toBe(200);

    const events = await eventsOf('127.0.0.2');
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({ siteId: 1, ip: '127.0.0.2', cause: 'blacklist', ruleId: 11 });
    expect(event?.blockedAt).toBeGreaterThanOrEqual(before);
    expect(event?.blockedAt).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect((event?.expiresAt ?? 0) - (event?.blockedAt ?? 0)).toBe(BLOCK_LIST_DEFAULT_SECONDS);

    const log = await firewallLogLines(edge, ['/admin/first', '/other']);
    expect(log.get('/admin/first')).toMatchObject({ fw_kind: 'blacklist', fw_rule: '11', fw_action: 'dropBlacklist' });
    expect(log.get('/other')).toMatchObject({
      remote_addr: '127.0.0.2',
      fw_kind: 'blockList',
      fw_rule: '',
      fw_action: 'drop',
    });

    // The unblock names the address as the control plane has it (an IPv4-mapped form is the same address).
    expect(await unblock([{ siteId: 1, ip: '::ffff:127.0.0.2' }])).toEqual({ status: 200, body: { removed: 1 } });
    expect(await send('127.0.0.2', 'list.example.com', { path: '/other' })).toBe(200);
    // The rule itself still applies, and blocks again (reported again).
    expect(await send('127.0.0.2', 'list.example.com', { path: '/admin' })).toBe('closed');
    expect(await eventsOf('127.0.0.2')).toHaveLength(2);
    expect(await unblock([{ siteId: 1, ip: '127.0.0.2' }])).toEqual({ status: 200, body: { removed: 1 } });
    expect(await unblock([{ siteId: 1, ip: '127.0.0.2' }])).toEqual({ status: 200, body: { removed: 0 } });
  });

  it('wins over the whitelist: a blocked address is dropped on the URLs the whitelist lets through', async () => {
    expect(await send('127.0.0.4', 'list.example.com', { path: '/open' })).toBe(200);
    expect(await send('127.0.0.4', 'list.example.com', { path: '/admin' })).toBe('closed');
    expect(await send('127.0.0.4', 'list.example.com', { path: '/open' })).toBe('closed');
    expect(await eventsOf('127.0.0.4')).toMatchObject([{ cause: 'blacklist', ruleId: 11 }]);
  });

  it('reports a block once when many requests of the address hit the rule at once', async () => {
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => send('127.0.0.8', 'list.example.com', { path: '/admin' })),
    );
    expect(replies).toEqual(Array.from({ length: 20 }, () => 'closed'));
    expect(await eventsOf('127.0.0.8')).toHaveLength(1);
  });
  it('keeps dropping a blocked address once the rules are gone (an entry without rules)', async () => {
    expect(await send('127.0.0.10', 'list.example.com', { path: '/admin' })).toBe('closed');
    // The customer deleted the site's rules: the control plane still sends the site's entry,
    // without rules, while the site has a block that has not ended.
    await edge.push(plane('blocklist-no-rules', [site(1, {}), ...FIREWALLS.slice(1)]));
    expect(await send('127.0.0.10', 'list.example.com', { path: '/plain' })).toBe('closed');
    expect(await send('127.0.0.11', 'list.example.com', { path: '/admin' })).toBe(200);
    expect(await unblock([{ siteId: 1, ip: '127.0.0.10' }])).toEqual({ status: 200, body: { removed: 1 } });
    expect(await send('127.0.0.10', 'list.example.com', { path: '/admin' })).toBe(200);
    await edge.push(plane('blocklist-rules-again'));
  });
});

describe('frequency limits and user-agent rules with DROP + Blacklist', () => {
  it('a per-second limit blocks for its blockSeconds (2 s), then the address passes', async () => {
    expect(await send('127.0.0.5', 'rate.example.com', { path: '/r1' })).toBe(200);
    expect(await send('127.0.0.5', 'rate.example.com', { path: '/r2' })).toBe('closed');
    const blocked = performance.now();
    const [event] = await eventsOf('127.0.0.5');
    expect(event).toMatchObject({ siteId: 2, cause: 'secondLimit', ruleId: 21 });
    expect((event?.expiresAt ?? 0) - (event?.blockedAt ?? 0)).toBe(2);
    // Still blocked a second later (the bucket alone would have let this one through).
    await sleep(Math.max(0, blocked + 1100 - performance.now()));
    expect(await send('127.0.0.5', 'rate.example.com', { path: '/r3' })).toBe('closed');
    const log = await firewallLogLines(edge, ['/r3']);
    expect(log.get('/r3')).toMatchObject({ fw_kind: 'blockList', fw_action: 'drop' });
    // Expired after its 2 s, not kept (tries 200 ms apart from 2.2 s on, for up to 30 s).
    await sleep(Math.max(0, blocked + 2200 - performance.now()));
    let status: number | 'closed' = 'closed';
    while (status !== 200 && performance.now() - blocked < 30_000) {
      status = await send('127.0.0.5', 'rate.example.com', { path: '/r4' });
      if (status !== 200) await sleep(200);
    }
    expect(status).toBe(200);
    // Passed within a few seconds of its 2 s, not after a block several times as long (the slack is
    // for a busy machine).
    expect(performance.now() - blocked).toBeLessThan(8000);
    expect(await eventsOf('127.0.0.5')).toHaveLength(1);
  }, 60_000);

  it('an interval limit blocks with the cause intervalLimit for the default duration', async () => {
    expect(await send('127.0.0.6', 'interval.example.com')).toBe(200);
    expect(await send('127.0.0.6', 'interval.example.com')).toBe('closed');
    expect(await send('127.0.0.6', 'interval.example.com', { path: '/i3' })).toBe('closed');
    expect((await firewallLogLines(edge, ['/i3'])).get('/i3')).toMatchObject({ fw_kind: 'blockList' });
    const events = await eventsOf('127.0.0.6');
    expect(events).toMatchObject([{ siteId: 3, cause: 'intervalLimit', ruleId: 31 }]);
    expect((events[0]?.expiresAt ?? 0) - (events[0]?.blockedAt ?? 0)).toBe(BLOCK_LIST_DEFAULT_SECONDS);
  });

  it('a geo rule blocks the address with the cause geo', async () => {
    expect(await send('127.0.0.17', 'geo.example.com', { path: '/elsewhere' })).toBe(200);
    expect(await send('127.0.0.17', 'geo.example.com', { path: '/zone' })).toBe('closed');
    expect(await send('127.0.0.17', 'geo.example.com', { path: '/elsewhere' })).toBe('closed');
    expect(await eventsOf('127.0.0.17')).toMatchObject([{ siteId: 6, cause: 'geo', ruleId: 61 }]);
  });

  it('a user-agent rule blocks the address: later requests with another User-Agent are dropped too', async () => {
    expect(await send('127.0.0.7', 'agent.example.com', { headers: { 'user-agent': 'BadBot/1.0' } })).toBe('closed');
    expect(await send('127.0.0.7', 'agent.example.com', { headers: { 'user-agent': 'Mozilla/5.0' } })).toBe('closed');
    expect(await send('127.0.0.9', 'agent.example.com', { headers: { 'user-agent': 'Mozilla/5.0' } })).toBe(200);
    expect(await eventsOf('127.0.0.7')).toMatchObject([{ siteId: 4, cause: 'userAgent', ruleId: 41 }]);
  });
});

describe('anti-CC with DROP + Blacklist as its error action', () => {
  it('blocks the address once it leaves too many challenges unpassed (cause antiCc), the challenge path included', async () => {
    expect(await send('127.0.0.15', 'cc.example.com', { path: '/c1' })).toBe(403);
    expect(await send('127.0.0.15', 'cc.example.com', { path: '/c2' })).toBe(403);
    expect(await send('127.0.0.15', 'cc.example.com', { path: '/c3' })).toBe('closed');
    expect(await send('127.0.0.15', 'cc.example.com', { path: '/.rampart/challenge' })).toBe('closed');
    expect(await send('127.0.0.16', 'cc.example.com', { path: '/.rampart/challenge' })).not.toBe('closed');
    expect(await eventsOf('127.0.0.15')).toMatchObject([{ siteId: 5, cause: 'antiCc', ruleId: 51 }]);
    const log = await firewallLogLines(edge, ['/c3']);
    expect(log.get('/c3')).toMatchObject({ fw_kind: 'antiCC', fw_rule: '51', fw_action: 'dropBlacklist' });
  });
});

describe('the admin endpoint and the data-plane check', () => {
  it('answers the block-list calls only with the admin secret (401)', async () => {
    const wrong = { ...edge.adminEndpoint, secret: 'f'.repeat(64) };
    expect((await adminRequest(wrong, 'GET', '/blocklist/events')).status).toBe(401);
    const body = JSON.stringify({ entries: [{ siteId: 1, ip: '127.0.0.2' }] });
    expect((await adminRequest(wrong, 'POST', '/blocklist/unblock', body)).status).toBe(401);
  });

  it.each([
    ['no entries', []],
    ['entries that are not a list', { siteId: 1, ip: '127.0.0.2' }],
    ['a bad address', [{ siteId: 1, ip: '127.0.0.300' }]],
    ['a host name', [{ siteId: 1, ip: 'example.com' }]],
    ['a site id of 0', [{ siteId: 0, ip: '127.0.0.2' }]],
    ['a fractional site id', [{ siteId: 1.5, ip: '127.0.0.2' }]],
  ])('refuses an unblock with %s (400)', async (_label, entries) => {
    expect((await unblock(entries)).status).toBe(400);
  });

  it('accepts IPv6 addresses in an unblock', async () => {
    expect(
      await unblock([
        { siteId: 1, ip: '2001:db8::1' },
        { siteId: 2, ip: '::1' },
      ]),
    ).toEqual({
      status: 200,
      body: { removed: 0 },
    });
  });

  it('refuses dropBlacklist on a header rule, accepts it on a geo rule', async () => {
    const header = site(1, { headers: [{ id: 5, url: '.*', name: 'x-token', value: null, action: 'drop' }] });
    const bad = [{ ...header, headers: [{ ...header.headers[0], action: 'dropBlacklist' }] }];
    const doc = { ...plane('blocklist-bad'), firewalls: bad } as unknown as DataPlane;
    doc.domains = doc.domains.filter((d) => d.firewallId === null || d.firewallId === 1);
    const refused = await edge.putRaw(JSON.stringify(doc));
    expect(refused).toMatchObject({ status: 400, body: { field: 'firewalls[0].headers[0].action' } });

    const geo = site(1, {
      geos: [{ id: 6, url: '.*', white: false, countries: ['FR'], cities: [], action: 'dropBlacklist' }],
    });
    const accepted = await edge.putRaw(JSON.stringify({ ...doc, version: 'blocklist-geo', firewalls: [geo] }));
    expect(accepted.status).toBe(200);
    await edge.push(plane('blocklist-2'));
  });
});

describe('the agent', () => {
  it('reports blocks to the node API (again after failures) and runs the unblock command', async () => {
    const cp = await startFakeControlPlane();
    const controller = new AbortController();
    const logged: LogEntry[] = [];
    const log: Logger = (level, event, fields = {}) => logged.push({ time: '', level, event, ...fields });
    try {
      const client = new NodeClient(cp.url);
      client.setCredentials(
        await client.register({
          joinToken: cp.joinToken,
          hostname: 'edge-1',
          ips: ['127.0.0.1'],
          version: AGENT_VERSION,
        }),
      );
      const reporter = new BlockReporter({
        admin: edge.adminEndpoint,
        client: () => client,
        log,
        signal: controller.signal,
        intervalMs: 100,
        backoffMinMs: 50,
        backoffMaxMs: 200,
      });
      // The control plane refuses the first two reports: the agent keeps the blocks and sends them again.
      cp.failBlockReports(2);
      const reporting = reporter.run();
      const lifted: string[] = [];
      const host = {
        admin: edge.adminEndpoint,
        kernelUnblock: async (ips: readonly string[]) => {
          lifted.push(...ips);
        },
      } as unknown as CommandHost;
      const commands = runCommandLoop({
        client,
        execute: (command) => executeCommand(host, command),
        log,
        signal: controller.signal,
        waitSeconds: 1,
        backoffMinMs: 50,
        backoffMaxMs: 200,
      });

      expect(await send('127.0.0.10', 'list.example.com', { path: '/admin' })).toBe('closed');
      // The fake records the report when it takes it, before its answer reaches the agent: wait for
      // the agent to have the answer too (under load the two are not the same moment).
      for (let i = 0; i < 100 && (cp.blocks.length === 0 || reporter.waiting > 0); i++) await sleep(100);
      expect(cp.blocks).toMatchObject([{ siteId: 1, ip: '127.0.0.10', cause: 'blacklist', ruleId: 11 }]);
      expect(cp.blockCalls).toBe(1);
      expect(logged.filter((e) => e.event === 'blocks.report_failed')).toHaveLength(2);
      expect(reporter.waiting).toBe(0);

      cp.queueCommand({ id: 7, type: 'unblock', payload: { entries: [{ siteId: 1, ip: '127.0.0.10' }] } });
      expect(await cp.waitForResult(7, 10_000)).toMatchObject({ ok: true, message: '1 of 1 block(s) removed' });
      // The kernel's blocked set is told too (a pushed-down block is lifted there).
      expect(lifted).toEqual(['127.0.0.10']);
      expect(await send('127.0.0.10', 'list.example.com', { path: '/open' })).toBe(200);

      controller.abort();
      await Promise.all([reporting, commands]);
      // Nothing more was reported (one block, one report).
      expect(cp.blocks).toHaveLength(1);
    } finally {
      controller.abort();
      await cp.close();
    }
  });

  it('keeps at most maxKept reports while the control plane is away, the oldest dropped with a warning', async () => {
    const logged: LogEntry[] = [];
    const log: Logger = (level, event, fields = {}) => logged.push({ time: '', level, event, ...fields });
    const reporter = new BlockReporter({
      admin: edge.adminEndpoint,
      client: () => null,
      log,
      signal: new AbortController().signal,
      maxKept: 2,
    });
    for (const ip of ['127.0.0.11', '127.0.0.12', '127.0.0.13']) {
      expect(await send(ip, 'interval.example.com')).toBe(200);
      expect(await send(ip, 'interval.example.com')).toBe('closed');
    }
    await reporter.collect();
    expect(reporter.waiting).toBe(2);
    expect(reporter.droppedKept).toBe(1);
    expect(logged).toMatchObject([{ level: 'warn', event: 'blocks.reports_dropped', dropped: 1, kept: 2 }]);
    await expect(reporter.send()).rejects.toThrow('not registered');
    expect(reporter.waiting).toBe(2);
  });
});
