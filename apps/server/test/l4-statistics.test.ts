import { gzipSync } from 'node:zlib';
import type { AnyRoute, L4CounterBatch, L4CounterRecord } from '@rampart/contract';
import {
  deleteAsnDatabase,
  EVENT_BATCH_CONTENT_TYPE,
  networkStatisticsRoutes as n,
  routeUrl,
  shipNodeL4Counters,
  uploadAsnDatabase,
  uploadGeoDatabase,
} from '@rampart/contract';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import { asnRecord, type CallArgs, geoRecord, writeMmdb } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sitePorts } from '../src/platform/db/schema.js';
import { analyticsTenants } from './helpers/analytics-tenants.js';
import { manualClock } from './helpers/auth.js';
import { sendAs, sendFile, type Token } from './helpers/call.js';
import type { JoinedNode } from './helpers/edge-node.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The network-attack statistics end to end on the control plane: nodes ship layer-4 counter
// batches (routes/l4-counters.ts), customers read the twelve calls (routes/network-statistics.ts)
// of their own ports only. Runs on both config stores and both analytics stores. The operator and
// the rival each have an ASN database (client/setting/asnDatabase) that knows the other's sources:
// each labels its own operator's counters only.

const HOUR = Date.UTC(2026, 10, 10, 10, 0, 0);
const MINUTE = (m: number) => HOUR / 1000 + m * 60;
const clock = manualClock(HOUR + 3600_000);
const ASN_DB = writeMmdb(
  [
    { cidr: '203.0.113.0/24', data: asnRecord(13335, 'Cloudflare, Inc.') },
    { cidr: '2001:db8::/32', data: asnRecord(64500, 'Example Net') },
  ],
  { databaseType: 'GeoLite2-ASN' },
);
const RIVAL_ASN_DB = writeMmdb([{ cidr: '198.51.100.0/24', data: asnRecord(64999, 'Rival Net') }], {
  databaseType: 'GeoLite2-ASN',
});
let t: TestApp;
let client: Token;
let user: Token;
let neighbour: Token;
let rivalCustomer: Token;
let a: JoinedNode;
let rivalNode: JoinedNode;
let siteId: number;
let neighbourSiteId: number;
let shopPort: number;
let neighbourPort: number;
let rivalPort: number;

const as = <R extends AnyRoute>(who: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, who, route, ...args);
const range = { startTime: new Date(HOUR).toISOString(), endTime: new Date(HOUR + 3600_000).toISOString() };
const rec = (over: Partial<L4CounterRecord> & Pick<L4CounterRecord, 'portId'>): L4CounterRecord => ({
  minute: MINUTE(1),
  outcome: 'drop',
  dimension: 'protocol',
  key: 'tcp',
  packets: 1,
  bytes: 100,
  ...over,
});

async function ship(node: JoinedNode, batch: L4CounterBatch) {
  const url = routeUrl(shipNodeL4Counters);
  const body = gzipSync(JSON.stringify(batch));
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload: body,
    headers: {
      'content-type': EVENT_BATCH_CONTENT_TYPE,
      ...signedNodeHeaders({ nodeId: node.nodeId, nodeSecret: node.secret }, 'POST', url, body, {
        nowMs: clock.now(),
      }),
    },
  });
  return res;
}
const data = async (who: Token, route: AnyRoute, body: Record<string, unknown>) => {
  const res = await (as as (w: Token, r: AnyRoute, a: unknown) => ReturnType<typeof as>)(who, route, { body });
  expect(res.statusCode, res.body).toBe(200);
  // The twelve answer three shapes; the tests read them as the contract declares them.
  // biome-ignore lint/suspicious/noExplicitAny: a test reads several answer shapes through one helper
  return (res.json() as unknown as { data: any }).data;
};

beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  let rivalSiteId: number;
  let rival: Token;
  ({ client, rival, user, neighbour, rivalCustomer, a, rivalNode, siteId, neighbourSiteId, rivalSiteId } =
    await analyticsTenants(t, {
      shop: 'www.shop.example',
      neighbour: 'www.next.example',
      rival: 'www.elsewhere.example',
    }));
  for (const [who, db] of [
    [client, ASN_DB],
    [rival, RIVAL_ASN_DB],
  ] as const) {
    const installed = await sendFile(t.app, uploadAsnDatabase, db, who);
    expect(installed.statusCode, installed.body).toBe(200);
  }
  const db = t.db.database.db;
  const port = async (site: number, number: number) =>
    (
      await db
        .insert(sitePorts)
        .values({ siteId: site, port: number, protocol: 'both' })
        .returning({ id: sitePorts.id })
    )[0]?.id as number;
  shopPort = await port(siteId, 7000);
  neighbourPort = await port(neighbourSiteId, 7001);
  rivalPort = await port(rivalSiteId, 7002);

  const batch: L4CounterBatch = {
    batchId: 'spool-1',
    records: [
      rec({ portId: shopPort, packets: 100, bytes: 6000 }),
      rec({ portId: shopPort, outcome: 'pass', packets: 10, bytes: 600 }),
      rec({ portId: shopPort, dimension: 'tcpFlags', key: 'SYN', packets: 100, bytes: 6000 }),
      rec({ portId: shopPort, outcome: 'pass', dimension: 'tcpFlags', key: 'ACK', packets: 10, bytes: 600 }),
      rec({ portId: shopPort, dimension: 'source', key: '203.0.113.9', packets: 80, bytes: 4800 }),
      rec({ portId: shopPort, dimension: 'source', key: '198.51.100.7', packets: 20, bytes: 1200 }),
      rec({ portId: shopPort, outcome: 'pass', dimension: 'source', key: '2001:db8::1', packets: 10, bytes: 600 }),
      rec({ portId: shopPort, minute: MINUTE(6), key: 'udp', packets: 10, bytes: 1000 }),
      rec({ portId: neighbourPort, packets: 50, bytes: 50_000 }),
      rec({ portId: neighbourPort, dimension: 'source', key: '198.51.100.99', packets: 50, bytes: 50_000 }),
      // The rival's port named by this operator's node, and the node's own ICMP: no site.
      rec({ portId: rivalPort, packets: 999, bytes: 99_900 }),
      rec({ portId: 0, outcome: 'pass', key: 'icmp', packets: 5, bytes: 500 }),
    ],
  };
  const first = await ship(a, batch);
  expect(first.statusCode, first.body).toBe(200);
  expect(first.json().data).toEqual({ stored: 12, duplicate: false });
});
afterAll(async () => t?.close());

describe('shipping the layer-4 counters', () => {
  it('counts a batch sent again once', async () => {
    const again = await ship(a, { batchId: 'spool-1', records: [rec({ portId: shopPort, packets: 7, bytes: 700 })] });
    expect(again.json().data).toEqual({ stored: 0, duplicate: true });
    expect((await data(user, n.userNetworkOutcomesSumBits, range)).dropPackets).toBe(110);
  });

  it("leaves out what another operator's node says about a port it does not serve", async () => {
    const res = await ship(rivalNode, { batchId: 'r-1', records: [rec({ portId: shopPort, packets: 7, bytes: 700 })] });
    expect(res.statusCode, res.body).toBe(200);
    expect(await data(user, n.userNetworkOutcomesSumBits, range)).toEqual({
      passBits: 600 * 8,
      dropBits: 7000 * 8,
      passPackets: 10,
      dropPackets: 110,
    });
  });

  it('refuses a record the contract refuses (a key outside its dimension), and an unsigned batch', async () => {
    const bad = await ship(a, { batchId: 'x-1', records: [rec({ portId: shopPort, key: 'sctp' })] });
    expect(bad.statusCode).toBe(400);
    const unsigned = await ship({ ...a, secret: 'x'.repeat(64) }, { batchId: 'x-2', records: [] });
    expect(unsigned.json().code).toBe(101013);
  });
});

describe('the twelve network-attack calls', () => {
  it('sums bits (bytes × 8) and packets per outcome', async () => {
    expect(await data(user, n.userNetworkOutcomesSumBits, { ...range, siteIDs: [siteId] })).toMatchObject({
      passBits: 4800,
      dropBits: 56_000,
    });
  });

  it('answers bits per second per outcome, one point per step', async () => {
    const rate = await data(user, n.userNetworkOutcomesAvgBitRate, { ...range, minutesStep: 5 });
    expect(rate.keys).toEqual(['pass', 'drop']);
    expect(rate.points).toHaveLength(12);
    expect(rate.points[0]).toEqual({ time: new Date(HOUR).toISOString(), values: [4800 / 300, 48_000 / 300] });
    expect(rate.points[1].values).toEqual([0, 8000 / 300]);
    expect(rate.points[2].values).toEqual([0, 0]);
  });

  it('breaks the bits down by IP protocol (every protocol) and by TCP flags', async () => {
    const protocols = await data(user, n.userNetworkIpProtocolsBits, range);
    expect(protocols).toEqual([
      { key: 'tcp', passBits: 4800, dropBits: 48_000, passPackets: 10, dropPackets: 100 },
      { key: 'udp', passBits: 0, dropBits: 8000, passPackets: 0, dropPackets: 10 },
      { key: 'icmp', passBits: 0, dropBits: 0, passPackets: 0, dropPackets: 0 },
      { key: 'gre', passBits: 0, dropBits: 0, passPackets: 0, dropPackets: 0 },
    ]);
    const rate = await data(user, n.userNetworkIpProtocolsAvgBitRate, { ...range, minutesStep: 60 });
    expect(rate.keys).toEqual(['tcp', 'udp', 'icmp', 'gre']);
    expect(rate.points).toEqual([{ time: new Date(HOUR).toISOString(), values: [52_800 / 3600, 8000 / 3600, 0, 0] }]);
    const flags = await data(user, n.userNetworkTcpFlagsTops, { ...range, top: 5 });
    expect(flags.map((r: { key: string }) => r.key)).toEqual(['SYN', 'ACK']);
    const dropped = await data(user, n.userNetworkTcpFlagsAvgBitRate, { ...range, minutesStep: 60, outcome: 'drop' });
    expect(dropped).toMatchObject({ keys: ['SYN', 'ACK'], points: [{ values: [48_000 / 3600, 0] }] });
  });

  it("tops the sources, their countries and ASNs from the operator's ASN database (0: not in it)", async () => {
    const ips = await data(user, n.userNetworkIpsTops, { ...range, top: 2 });
    expect(ips).toEqual([
      { key: '203.0.113.9', passBits: 0, dropBits: 38_400, passPackets: 0, dropPackets: 80 },
      { key: '198.51.100.7', passBits: 0, dropBits: 9600, passPackets: 0, dropPackets: 20 },
    ]);
    const ipRate = await data(user, n.userNetworkIpsAvgBitRate, { ...range, minutesStep: 60, top: 5 });
    expect(ipRate.keys).toEqual(['203.0.113.9', '198.51.100.7', '2001:db8::1']);
    // The test operator has no geo database: every source's country is unknown ("").
    const countries = await data(user, n.userNetworkCountriesTops, { ...range, top: 5 });
    expect(countries).toEqual([{ key: '', passBits: 4800, dropBits: 48_000, passPackets: 10, dropPackets: 100 }]);
    expect((await data(user, n.userNetworkCountriesAvgBitRate, { ...range, minutesStep: 60 })).keys).toEqual(['']);
    // 198.51.100.7 is in the rival's ASN database only: unknown here.
    const asns = await data(user, n.userNetworkAsnsTops, { ...range, top: 5 });
    expect(asns).toEqual([
      { key: '13335', name: 'Cloudflare, Inc.', passBits: 0, dropBits: 38_400, passPackets: 0, dropPackets: 80 },
      { key: '0', passBits: 0, dropBits: 9600, passPackets: 0, dropPackets: 20 },
      { key: '64500', name: 'Example Net', passBits: 4800, dropBits: 0, passPackets: 10, dropPackets: 0 },
    ]);
    const asnRate = await data(user, n.userNetworkAsnsAvgBitRate, { ...range, minutesStep: 60 });
    expect(asnRate).toMatchObject({
      keys: ['13335', '0', '64500'],
      points: [{ values: [38_400 / 3600, 9600 / 3600, 4800 / 3600] }],
    });
    expect((await data(neighbour, n.userNetworkAsnsTops, range)).map((r: { key: string }) => r.key)).toEqual(['0']);
  });

  it("shows each tenant its own ports only: never another's, nor the node's own or unplaced counts", async () => {
    expect(await data(neighbour, n.userNetworkOutcomesSumBits, range)).toEqual({
      passBits: 0,
      dropBits: 400_000,
      passPackets: 0,
      dropPackets: 50,
    });
    expect((await data(neighbour, n.userNetworkIpsTops, range)).map((r: { key: string }) => r.key)).toEqual([
      '198.51.100.99',
    ]);
    // Naming the shop's site changes nothing for the neighbour.
    expect((await data(neighbour, n.userNetworkOutcomesSumBits, { ...range, siteIDs: [siteId] })).dropBits).toBe(0);
    // The rival's customer: its port's counts came from another operator's node.
    expect(await data(rivalCustomer, n.userNetworkOutcomesSumBits, range)).toEqual({
      passBits: 0,
      dropBits: 0,
      passPackets: 0,
      dropPackets: 0,
    });
    expect(await data(rivalCustomer, n.userNetworkIpsTops, range)).toEqual([]);
    const icmp = (await data(user, n.userNetworkIpProtocolsBits, range)).find((r: { key: string }) => r.key === 'icmp');
    expect(icmp.passPackets).toBe(0);
    expect((await data(user, n.userNetworkOutcomesSumBits, { ...range, siteIDs: [neighbourSiteId] })).dropBits).toBe(0);
  });

  it('refuses a range the statistics refuse and too fine a step', async () => {
    const res = await as(user, n.userNetworkOutcomesAvgBitRate, {
      body: { startTime: range.endTime, endTime: range.startTime },
    } as never);
    expect(res.statusCode).toBe(400);
    const fine = await as(user, n.userNetworkIpsAvgBitRate, {
      body: { startTime: new Date(HOUR - 30 * 86_400_000).toISOString(), endTime: range.endTime, minutesStep: 1 },
    } as never);
    expect(fine.statusCode).toBe(400);
  });
});

describe("the operators' ASN databases at ingest", () => {
  it("labels the rival's sources from the rival's database only", async () => {
    const res = await ship(rivalNode, {
      batchId: 'r-2',
      records: [
        rec({ portId: rivalPort, dimension: 'source', key: '198.51.100.5', packets: 3, bytes: 300 }),
        rec({ portId: rivalPort, dimension: 'source', key: '203.0.113.9', packets: 1, bytes: 100 }),
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await data(rivalCustomer, n.userNetworkAsnsTops, range)).toEqual([
      { key: '64999', name: 'Rival Net', passBits: 0, dropBits: 2400, passPackets: 0, dropPackets: 3 },
      { key: '0', passBits: 0, dropBits: 800, passPackets: 0, dropPackets: 1 },
    ]);
  });

  it("places sources in countries with the operator's geo database, beside their ASN", async () => {
    const geo = writeMmdb([{ cidr: '203.0.113.0/24', data: geoRecord('JP') }], { databaseType: 'GeoLite2-Country' });
    expect((await sendFile(t.app, uploadGeoDatabase, geo, client)).statusCode).toBe(200);
    const res = await ship(a, {
      batchId: 'spool-3',
      records: [rec({ portId: shopPort, minute: MINUTE(40), dimension: 'source', key: '203.0.113.77' })],
    });
    expect(res.statusCode, res.body).toBe(200);
    const window = { startTime: new Date(HOUR + 40 * 60_000).toISOString(), endTime: range.endTime };
    expect((await data(user, n.userNetworkCountriesTops, window)).map((r: { key: string }) => r.key)).toEqual(['JP']);
    expect((await data(user, n.userNetworkAsnsTops, window)).map((r: { key: string }) => r.key)).toEqual(['13335']);
  });

  it('counts sources as ASN 0 once the operator removes its database', async () => {
    expect((await sendAs(t.app, client, deleteAsnDatabase)).statusCode).toBe(200);
    const later = {
      startTime: new Date(HOUR + 30 * 60_000).toISOString(),
      endTime: new Date(HOUR + 31 * 60_000).toISOString(),
    };
    const res = await ship(a, {
      batchId: 'spool-2',
      records: [rec({ portId: shopPort, minute: MINUTE(30), dimension: 'source', key: '203.0.113.9' })],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await data(user, n.userNetworkAsnsTops, later)).map((r: { key: string }) => r.key)).toEqual(['0']);
    // What was counted before keeps its ASN; no name is looked up without a database.
    expect((await data(user, n.userNetworkAsnsTops, range))[0]).toEqual({
      key: '13335',
      passBits: 0,
      dropBits: 39_200,
      passPackets: 0,
      dropPackets: 81,
    });
  });
});
