import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CHALLENGE_COOKIE,
  CHALLENGE_PATH,
  challengeKeyIds,
  type EdgeFirewall,
  type EdgeGeoRule,
} from '@rampart/contract';
import { geoRecord, writeMmdb } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataPlane } from '../src/data-plane/schema.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import { type FullReply, sendFrom, sendStatus } from './helpers/send.js';

// The site firewall's geo rules (routes/firewall-geos.ts, rampart.firewall_geo) through a real
// nginx and libmaxminddb, with a small MaxMind DB the test writes (the product ships none).
// Requests come from loopback addresses the database places: 127.0.0.2 (and 127.0.0.12) in CN, 127.0.0.3 in US
// (city 5391959, San Francisco), 127.0.0.4 in US without a city; 127.0.0.9 is in no country. 127.0.0.5 is a
// trusted proxy whose X-Forwarded-For names IPv6 visitors: 2001:db8::2 in CN, 2001:db8::3 in no country.
const PROXY = '127.0.0.5';

const FIRST = writeMmdb(
  [
    { cidr: '127.0.0.2/32', data: geoRecord('CN') },
    { cidr: '127.0.0.12/32', data: geoRecord('CN') },
    { cidr: '127.0.0.3/32', data: geoRecord('US', { geonameId: 5391959, names: { en: 'San Francisco' } }) },
    { cidr: '127.0.0.4/32', data: geoRecord('US') },
    { cidr: '2001:db8::2/128', data: geoRecord('CN') },
  ],
  { databaseType: 'Rampart-Test-City' },
);
// The same addresses moved: 127.0.0.2 now in JP.
const SECOND = writeMmdb(
  [
    { cidr: '127.0.0.2/32', data: geoRecord('JP') },
    { cidr: '127.0.0.3/32', data: geoRecord('US', { geonameId: 5391959, names: { en: 'San Francisco' } }) },
  ],
  { databaseType: 'Rampart-Test-City' },
);
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function geoRule(
  id: number,
  white: boolean,
  ids: { countries?: string[]; cities?: number[] },
  more: Partial<EdgeGeoRule> = {},
): EdgeGeoRule {
  return { id, url: '.*', white, countries: ids.countries ?? [], cities: ids.cities ?? [], action: 'deny', ...more };
}

function firewall(id: number, geos: EdgeGeoRule[], whitelist: EdgeFirewall['whitelist'] = []): EdgeFirewall {
  return { id, whitelist, blacklist: [], userAgents: [], headers: [], intervals: [], rates: [], antiCC: [], geos };
}

const FIREWALLS: EdgeFirewall[] = [
  firewall(1, [geoRule(11, false, { countries: ['CN'] })]),
  firewall(2, [geoRule(21, true, { countries: ['US'] })]),
  firewall(3, [geoRule(31, false, { cities: [5391959] }, { action: 'drop' })]),
  firewall(4, [geoRule(41, false, { countries: ['CN', 'US'] }, { url: 'example\\.com(:[0-9]+)?\\/admin' })]),
  // A whitelisted address skips the geo rules.
  firewall(
    5,
    [geoRule(51, false, { countries: ['CN'] })],
    [{ id: 52, url: '.*', methods: ['GET'], v4: [['7f000002', '7f000002']], v6: [] }],
  ),
  // A geo rule that challenges (redirect verification) rather than blocks.
  firewall(6, [geoRule(61, false, { countries: ['CN'] }, { action: 'redirect' })]),
];
const KEYS = challengeKeyIds(new Date()).map((id) => ({ id, secret: randomBytes(32).toString('hex') }));

let edge: Edge;
let origin: Origin;
let geoDir: string;

function plane(version: string, geoDatabase: string | null): DataPlane {
  const to = [upstream(origin.port)];
  return {
    ...document(
      version,
      [
        domain(1, 'black.example.com', to, { firewallId: 1 }),
        domain(2, 'white.example.com', to, { firewallId: 2 }),
        domain(3, 'city.example.com', to, { firewallId: 3 }),
        domain(4, 'url.example.com', to, { firewallId: 4 }),
        domain(5, 'listed.example.com', to, { firewallId: 5 }),
        domain(6, 'challenged.example.com', to, { firewallId: 6 }),
      ],
      [],
      [],
      { firewalls: FIREWALLS, challenge: { keys: KEYS, passSeconds: 1800 } },
    ),
    geoDatabase,
  };
}

const send = (from: string, host: string, urlPath = '/') => sendStatus(from, edge.httpPort, host, { path: urlPath });

async function install(bytes: Buffer): Promise<string> {
  const hash = sha(bytes);
  await writeFile(path.join(geoDir, `${hash}.mmdb`), bytes, { mode: 0o644 });
  return hash;
}

interface LogLine {
  remote_addr: string;
  uri: string;
  fw_kind: string;
  fw_rule: string;
  fw_action: string;
}

async function logLine(uri: string): Promise<LogLine | undefined> {
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const found = (await edge.accessLog())
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as LogLine)
      .find((entry) => entry.uri === uri);
    if (found) return found;
  }
  return undefined;
}

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge({ realIp: { trusted: [PROXY], header: 'X-Forwarded-For', proxyProtocol: false } });
  geoDir = path.join(edge.prefix, 'geo');
  await mkdir(geoDir, { recursive: true });
  await chmod(geoDir, 0o755);
  // The geo directory is fixed in nginx.conf (as the agent renders it): a restart with it.
  await edge.nginx.reload(edge.render({ geoDir }));
  await edge.push(plane('geo-1', await install(FIRST)));
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

describe('geo rules', () => {
  it('a black rule denies the listed country and lets other and unknown addresses through', async () => {
    expect(await send('127.0.0.2', 'black.example.com')).toBe(403);
    expect(await send('127.0.0.3', 'black.example.com')).toBe(200);
    expect(await send('127.0.0.9', 'black.example.com')).toBe(200);
  });

  it('looks up an IPv6 visitor, and an IPv4-mapped one as its IPv4 address', async () => {
    const via = async (visitor: string) => {
      const reply = await sendFrom(PROXY, edge.httpPort, 'black.example.com', {
        headers: { 'x-forwarded-for': visitor },
      });
      return reply === 'closed' ? reply : reply.status;
    };
    expect(await via('2001:db8::2')).toBe(403);
    expect(await via('2001:db8::3')).toBe(200);
    expect(await via('::ffff:127.0.0.2')).toBe(403);
    expect(await via('::ffff:127.0.0.3')).toBe(200);
  });

  it('a white rule lets only the listed country through; an unknown address is not listed', async () => {
    expect(await send('127.0.0.3', 'white.example.com')).toBe(200);
    expect(await send('127.0.0.4', 'white.example.com')).toBe(200);
    expect(await send('127.0.0.2', 'white.example.com')).toBe(403);
    expect(await send('127.0.0.9', 'white.example.com')).toBe(403);
  });

  it("matches a city by its GeoNames id (drop closes the connection), not the city's country", async () => {
    expect(await send('127.0.0.3', 'city.example.com')).toBe('closed');
    expect(await send('127.0.0.4', 'city.example.com')).toBe(200);
  });

  it('covers only the URLs of its pattern; the whitelist skips it', async () => {
    expect(await send('127.0.0.2', 'url.example.com', '/admin/x')).toBe(403);
    expect(await send('127.0.0.2', 'url.example.com', '/public')).toBe(200);
    expect(await send('127.0.0.2', 'listed.example.com')).toBe(200);
  });

  it('a challenging rule challenges the listed country, and its pass lets the client through', async () => {
    const fullReply = async (from: string, options: Parameters<typeof sendFrom>[3]) => {
      const reply = await sendFrom(from, edge.httpPort, 'challenged.example.com', options);
      if (reply === 'closed') throw new Error('closed');
      return reply as FullReply;
    };
    expect(await send('127.0.0.3', 'challenged.example.com')).toBe(200);
    const challenged = await fullReply('127.0.0.2', { path: '/news' });
    expect(challenged.status).toBe(302);
    const location = challenged.headers.location as string;
    expect(location.startsWith(`${CHALLENGE_PATH}?t=r.6.`)).toBe(true);
    const probe = (challenged.headers['set-cookie'] ?? [])[0]?.split(';')[0] as string;
    const verified = await fullReply('127.0.0.2', { path: location, headers: { cookie: probe } });
    expect(verified.status).toBe(302);
    expect(verified.headers.location).toBe('/news');
    const pass = (verified.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${CHALLENGE_COOKIE}=`));
    const through = await fullReply('127.0.0.2', {
      path: '/news',
      headers: { cookie: (pass as string).split(';')[0] as string },
    });
    expect(through.status).toBe(200);
    expect(servedBy(through.body)).toBe('origin');
  });

  it('logs the decision with the rule kind, id and action', async () => {
    // From an address refused nowhere before: the first refusal of a minute is the one logged
    // (rampart.refusals tallies the rest).
    expect(await send('127.0.0.12', 'black.example.com', '/logged-geo')).toBe(403);
    expect(await logLine('/logged-geo')).toMatchObject({
      remote_addr: '127.0.0.12',
      fw_kind: 'geo',
      fw_rule: '11',
      fw_action: 'deny',
    });
  });

  it('takes a new database from the data plane without a reload', async () => {
    const before = await edge.nginx.masterPid();
    await edge.push(plane('geo-2', await install(SECOND)));
    expect(await send('127.0.0.2', 'black.example.com')).toBe(200);
    expect(await send('127.0.0.2', 'white.example.com')).toBe(403);
    expect(await send('127.0.0.4', 'white.example.com')).toBe(403);
    expect(await edge.nginx.masterPid()).toBe(before);
  });

  it('without a database (or its file) no region matches: black rules pass, white rules block, the log says why', async () => {
    await edge.push(plane('geo-3', null));
    expect(await send('127.0.0.2', 'black.example.com')).toBe(200);
    expect(await send('127.0.0.3', 'white.example.com')).toBe(403);
    const missing = 'a'.repeat(64);
    await rm(path.join(geoDir, `${missing}.mmdb`), { force: true });
    await edge.push(plane('geo-4', missing));
    expect(await send('127.0.0.2', 'black.example.com')).toBe(200);
    expect(await edge.errorLog()).toContain(`cannot open ${geoDir}/${missing}.mmdb`);
    await edge.push(plane('geo-5', sha(FIRST)));
    expect(await send('127.0.0.2', 'black.example.com')).toBe(403);
  });

  it('refuses a document with a bad geo rule or database hash, naming the field', async () => {
    const bad = plane('geo-bad', 'not-a-hash') as unknown as Record<string, unknown>;
    const refused = await edge.putRaw(JSON.stringify(bad));
    expect(refused.status).toBe(400);
    expect(refused.body.field).toBe('geoDatabase');
    const doc = plane('geo-bad2', null);
    const rules = doc.firewalls[0]?.geos as unknown as Record<string, unknown>[];
    rules[0] = { ...rules[0], countries: ['cn'] };
    const again = await edge.putRaw(JSON.stringify(doc));
    expect(again.status).toBe(400);
    expect(again.body.field).toBe('firewalls[0].geos[0].countries[0]');
  });
});
