import { createHash, createHmac, randomBytes } from 'node:crypto';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  abuseIPFileOf,
  CHALLENGE_COOKIE,
  challengeKeyIds,
  type EdgeBlockReport,
  type EdgeChallenge,
  type EdgeFirewall,
  type EdgeReputation,
  edgeBlockReportSchema,
  emptyEdgeFirewall,
  ipListRanges,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataPlane } from '../src/data-plane/schema.js';
import { firewallLogLines } from './helpers/access-log.js';
import { document, domain, upstream } from './helpers/documents.js';
import { adminCall, type Edge, startEdge } from './helpers/edge.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { sendFrom, sendStatus } from './helpers/send.js';

// IP trust protection (routes/firewall-reputation.ts, rampart.firewall_reputation) through a real
// nginx with two workers: the operator's list is a file the test writes with the contract's encoder
// into the reputation directory (as the agent installs it), named by its hash in the data plane;
// requests come from loopback addresses the list scores (127.0.0.0/8 is all local on Linux), and
// from ::1 through a second nginx listening on IPv6.

const FIRST = Buffer.from(
  abuseIPFileOf([
    { ip: '127.0.0.2', score: 90 },
    { ip: '127.0.0.12', score: 90 },
    { ip: '127.0.0.3', score: 59 },
    { ip: '127.0.0.4', score: 60 },
    { ip: '127.0.1.0/24', score: 70 },
    // Overlapping entries: the highest score counts.
    { ip: '127.0.2.0/24', score: 30 },
    { ip: '127.0.2.7', score: 95 },
    { ip: '127.0.3.2', score: 90 },
    { ip: '127.0.4.2', score: 90 },
    { ip: '127.0.5.0/24', score: 90 },
    { ip: '::1', score: 90 },
  ]),
);
// The next list: 127.0.0.3 is now scored 99, 127.0.0.2 and 127.0.3.2 are gone.
const SECOND = Buffer.from(
  abuseIPFileOf([
    { ip: '127.0.0.3', score: 99 },
    { ip: '127.0.1.0/24', score: 70 },
  ]),
);
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const [, CURRENT] = challengeKeyIds(new Date());
const KEYS = challengeKeyIds(new Date()).map((id) => ({ id, secret: randomBytes(32).toString('hex') }));
const CHALLENGE: EdgeChallenge = { keys: KEYS, passSeconds: 1800 };
const ALL_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS'];

const site = (id: number, reputation: EdgeReputation | undefined, more: Partial<EdgeFirewall> = {}): EdgeFirewall => ({
  ...emptyEdgeFirewall(id),
  ...(reputation ? { reputation } : {}),
  ...more,
});

const FIREWALLS: EdgeFirewall[] = [
  site(1, { threshold: 60, action: 'deny' }),
  site(2, { threshold: 60, action: 'drop' }),
  site(3, { threshold: 60, action: 'shield' }),
  site(4, { threshold: 60, action: 'dropBlacklist' }),
  // No setting, but rules of its own (an entry of the site firewall).
  site(5, undefined, {
    blacklist: [{ id: 51, url: '.*', methods: ALL_METHODS, action: 'deny', ...ipListRanges(['127.0.9.9']) }],
  }),
  // The whitelist comes first.
  site(
    6,
    { threshold: 60, action: 'deny' },
    {
      whitelist: [{ id: 61, url: '.*', methods: ALL_METHODS, ...ipListRanges(['127.0.0.2']) }],
    },
  ),
  site(7, { threshold: 100, action: 'deny' }),
];

let edge: Edge;
let edge6: Edge;
let origin: Origin;
let dir: string;

function plane(version: string, abuseIPs: string | null): DataPlane {
  const to = [upstream(origin.port)];
  return {
    ...document(
      version,
      [
        domain(1, 'deny.example.com', to, { firewallId: 1 }),
        domain(2, 'drop.example.com', to, { firewallId: 2 }),
        domain(3, 'shield.example.com', to, { firewallId: 3 }),
        domain(4, 'block.example.com', to, { firewallId: 4 }),
        domain(5, 'plain.example.com', to, { firewallId: 5 }),
        domain(6, 'listed.example.com', to, { firewallId: 6 }),
        domain(7, 'strict.example.com', to, { firewallId: 7 }),
        domain(8, 'open.example.com', to),
      ],
      [],
      [],
      { firewalls: FIREWALLS, challenge: CHALLENGE },
    ),
    abuseIPs,
  };
}

const send = (from: string, host: string, options: Parameters<typeof sendFrom>[3] = {}) =>
  sendStatus(from, edge.httpPort, host, options);

const send6 = (host: string) => sendStatus('::1', edge6.httpPort, host, { to: '::1' });

async function install(bytes: Buffer): Promise<string> {
  const hash = sha(bytes);
  await writeFile(path.join(dir, `${hash}.bin`), bytes, { mode: 0o644 });
  return hash;
}

/** A pass as the node signs it (challenge.test.ts): site, key id, expiry and MAC over the client's address. */
function pass(siteId: number, from: string): string {
  const exp = Math.floor(Date.now() / 1000) + 600;
  const key = Buffer.from(KEYS.find((k) => k.id === CURRENT)?.secret ?? '', 'hex');
  const mac = createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(`p|${siteId}|${CURRENT}|${exp}|`), Buffer.from(from.split('.').map(Number))]))
    .digest()
    .subarray(0, 16)
    .toString('hex');
  return `${siteId}.${CURRENT}.${exp}.${mac}`;
}

async function events(): Promise<EdgeBlockReport[]> {
  const res = await adminCall(edge.adminEndpoint, 'GET', '/blocklist/events');
  expect(res.status).toBe(200);
  return (res.body.events as unknown[]).map((e) => edgeBlockReportSchema.parse(e));
}

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge();
  dir = path.join(edge.prefix, 'reputation');
  await mkdir(dir, { recursive: true });
  await chmod(dir, 0o755);
  // The reputation directory is fixed in nginx.conf (as the agent renders it).
  await edge.nginx.reload(edge.render({ reputationDir: dir }));
  await edge.push(plane('rep-1', await install(FIRST)));
  edge6 = await startEdge({ listenAddress: '::1', reputationDir: dir });
  await edge6.push(plane('rep-1', sha(FIRST)));
});

afterAll(async () => {
  await edge?.stop();
  await edge6?.stop();
  await origin?.close();
});

describe('IP trust protection', () => {
  it('denies an address scored at or above the threshold and lets lower and unlisted ones through', async () => {
    expect(await send('127.0.0.2', 'deny.example.com')).toBe(403);
    expect(await send('127.0.0.4', 'deny.example.com')).toBe(403);
    expect(await send('127.0.0.3', 'deny.example.com')).toBe(200);
    expect(await send('127.0.0.9', 'deny.example.com')).toBe(200);
    // A threshold of 100 catches none of them.
    expect(await send('127.0.0.2', 'strict.example.com')).toBe(200);
  });

  it('matches a range entry, and the highest score where entries overlap', async () => {
    expect(await send('127.0.1.1', 'deny.example.com')).toBe(403);
    expect(await send('127.0.1.254', 'deny.example.com')).toBe(403);
    expect(await send('127.0.2.7', 'deny.example.com')).toBe(403);
    expect(await send('127.0.2.8', 'deny.example.com')).toBe(200);
  });

  it('matches IPv6 clients', async () => {
    expect(await send6('deny.example.com')).toBe(403);
    expect(await send6('strict.example.com')).toBe(200);
  });

  it('drops with DROP; leaves sites without the setting, and whitelisted clients, alone', async () => {
    expect(await send('127.0.0.2', 'drop.example.com')).toBe('closed');
    expect(await send('127.0.0.2', 'plain.example.com')).toBe(200);
    expect(await send('127.0.0.2', 'open.example.com')).toBe(200);
    expect(await send('127.0.0.2', 'listed.example.com')).toBe(200);
    expect(await send('127.0.0.4', 'listed.example.com')).toBe(403);
  });

  it('challenges with a challenge mode, and lets a client with a pass through', async () => {
    const page = await sendFrom('127.0.4.2', edge.httpPort, 'shield.example.com');
    expect(page).not.toBe('closed');
    if (page === 'closed') return;
    expect(page.status).toBe(403);
    expect(page.body).toContain('/.rampart/challenge');
    const headers = { cookie: `${CHALLENGE_COOKIE}=${pass(3, '127.0.4.2')}` };
    expect(await send('127.0.4.2', 'shield.example.com', { headers })).toBe(200);
    // A pass is bound to its address.
    expect(await send('127.0.5.3', 'shield.example.com', { headers })).toBe(403);
    expect(await send('127.0.0.3', 'shield.example.com')).toBe(200);
  });

  it('puts the address on the block list with DROP + Blacklist, reported once with the site as its rule', async () => {
    expect(await events()).toEqual([]);
    expect(await send('127.0.3.2', 'block.example.com', { path: '/first' })).toBe('closed');
    expect(await send('127.0.3.2', 'block.example.com', { path: '/second' })).toBe('closed');
    const found = await events();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ siteId: 4, ip: '127.0.3.2', cause: 'reputation', ruleId: 4 });
    const log = await firewallLogLines(edge, ['/first', '/second']);
    expect(log.get('/first')).toMatchObject({ fw_kind: 'reputation', fw_rule: '4', fw_action: 'dropBlacklist' });
    expect(log.get('/second')).toMatchObject({ fw_kind: 'blockList', fw_action: 'drop' });
  });

  it('logs the decision with the kind, the site and the action', async () => {
    // From an address refused nowhere before: the first refusal of a minute is the one logged
    // (rampart.refusals tallies the rest).
    expect(await send('127.0.0.12', 'deny.example.com', { path: '/logged-reputation' })).toBe(403);
    expect(await send('127.0.0.12', 'drop.example.com', { path: '/logged-drop' })).toBe('closed');
    const log = await firewallLogLines(edge, ['/logged-reputation', '/logged-drop']);
    expect(log.get('/logged-reputation')).toMatchObject({
      remote_addr: '127.0.0.12',
      fw_kind: 'reputation',
      fw_rule: '1',
      fw_action: 'deny',
    });
    expect(log.get('/logged-drop')).toMatchObject({ fw_kind: 'reputation', fw_rule: '2', fw_action: 'drop' });
  });

  it('takes a new list from the data plane without a reload', async () => {
    const before = await edge.nginx.masterPid();
    await edge.push(plane('rep-2', await install(SECOND)));
    expect(await send('127.0.0.2', 'deny.example.com')).toBe(200);
    expect(await send('127.0.0.3', 'deny.example.com')).toBe(403);
    expect(await send('127.0.1.9', 'deny.example.com')).toBe(403);
    // The block the old list made still holds (the block list is checked first).
    expect(await send('127.0.3.2', 'block.example.com')).toBe('closed');
    expect(await edge.nginx.masterPid()).toBe(before);
  });

  it('without the list (or its file) no address has a score; only a site with the setting looks it up', async () => {
    await edge.push(plane('rep-3', null));
    expect(await send('127.0.0.3', 'deny.example.com')).toBe(200);
    const missing = 'b'.repeat(64);
    await rm(path.join(dir, `${missing}.bin`), { force: true });
    await edge.push(plane('rep-4', missing));
    expect(await send('127.0.0.3', 'plain.example.com')).toBe(200);
    expect(await edge.errorLog()).not.toContain(`${missing}.bin`);
    expect(await send('127.0.0.3', 'deny.example.com')).toBe(200);
    expect(await edge.errorLog()).toContain(`cannot read ${dir}/${missing}.bin`);
    // A file that is not an abuse IP file is refused too.
    const bad = Buffer.from('not a list');
    await edge.push(plane('rep-5', await install(bad)));
    expect(await send('127.0.0.3', 'deny.example.com')).toBe(200);
    expect(await edge.errorLog()).toContain('is not an abuse IP file');
    // A good file named next is read.
    await edge.push(plane('rep-6', await install(SECOND)));
    expect(await send('127.0.0.3', 'deny.example.com')).toBe(403);
  });

  it('refuses a document whose setting or list hash breaks the allowlists', async () => {
    const good = plane('rep-bad', sha(SECOND));
    const withSetting = (reputation: unknown) => ({
      ...good,
      firewalls: [{ ...emptyEdgeFirewall(1), reputation }, ...FIREWALLS.slice(1)],
    });
    for (const [doc, field] of [
      [withSetting({ threshold: 0, action: 'deny' }), 'firewalls[0].reputation.threshold'],
      [withSetting({ threshold: 60, action: 'allow' }), 'firewalls[0].reputation.action'],
      [withSetting('x'), 'firewalls[0].reputation'],
      [{ ...good, abuseIPs: '../etc/passwd' }, 'abuseIPs'],
    ] as const) {
      const res = await edge.putRaw(JSON.stringify(doc));
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.field).toBe(field);
    }
  });
});
