import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AnyRoute } from '@rampart/contract';
import {
  createDomains,
  createLogExport,
  downloadLogExport,
  getNodeGeoDatabase,
  initializeNodes,
  uploadGeoDatabase,
  userStatisticsInfo,
} from '@rampart/contract';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import { type CallInput, geoRecord, requestFor, writeMmdb } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ClickHouseStore } from '../src/modules/analytics/clickhouse-store.js';
import { rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { sendAs, sendFile, type Token } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { edgeEvent, shipBatch } from './helpers/events.js';
import { operatorCalls, webProduct } from './helpers/operators.js';
import { type Running, start, startRefused, stop } from './helpers/server-process.js';
import { clickhouseRequest, testClickHouseOptions } from './helpers/test-analytics.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { TEST_DB_KIND } from './helpers/test-db.js';

// Several control planes serve alike: control plane A is the test's app, control plane B the real
// entry point in a process of its own, with its own DATA_DIR, on the same PostgreSQL and the same
// ClickHouse database. What a node or a customer reads must not depend on which one a load
// balancer picks: a geo database uploaded through A is served by B, a log export written by A
// downloads from B, a node's events shipped to A count in B's statistics, and A's tokens work on B.

const SECRET = 'test-secret-0123456789-0123456789-0123456789';
const CITY_DB = writeMmdb(
  [{ cidr: '198.51.100.0/24', data: geoRecord('DE', { geonameId: 2950159, names: { en: 'Berlin' } }) }],
  { databaseType: 'GeoLite2-City', buildEpoch: 1_700_000_000 },
);

let a: TestApp;
let b: Running | undefined;
let dataDirB: string;
let analyticsDb: string;
let client: Token;
let user: Token;
let node: JoinedNode;
let domainId: number;

/** A call to control plane B over HTTP, as a browser sends it, with a token control plane A issued. */
async function onB<R extends AnyRoute>(token: Token, route: R, input: CallInput<R>) {
  if (!b) throw new Error('control plane B is not running');
  const { method, url, body } = requestFor(route, input);
  return fetch(`${b.url}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token.accessToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe.skipIf(TEST_DB_KIND !== 'postgres')('several control planes serve nodes and statistics alike', () => {
  beforeAll(async () => {
    analyticsDb = `rampart_t_${randomBytes(6).toString('hex')}`;
    const clickhouseUrl = new URL(inject('clickhouseUrl'));
    clickhouseUrl.pathname = `/${analyticsDb}`;
    const store = new ClickHouseStore(clickhouseUrl.toString(), testClickHouseOptions());
    await store.open();
    a = await createTestApp({ analytics: store });
    client = await signIn(a.app, 'client');
    user = await signIn(a.app, 'user');
    const product = await webProduct(a.app, client);
    const siteId = await operatorCalls(a.app, client).site('alike', await rootId(a.app, 'user'), product.productId);
    node = await joinNode(a.app, client, 'edge-alike');
    const init = await sendAs(a.app, client, initializeNodes, {
      body: { ids: [node.nodeId], zoneID: product.zoneId, groupID: product.groupId },
    });
    expect(init.statusCode, init.body).toBe(200);
    const made = await sendAs(a.app, user, createDomains, {
      params: { siteId },
      body: { domains: [{ name: 'www.alike.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] },
    });
    expect(made.statusCode, made.body).toBe(200);
    domainId = made.json().data[0]?.id as number;
    dataDirB = mkdtempSync(path.join(tmpdir(), 'rampart-cp-b-'));
    b = await start({
      DATA_DIR: dataDirB,
      DATABASE_URL: a.db.url ?? '',
      CLICKHOUSE_URL: clickhouseUrl.toString(),
      ...(inject('clickhouseCluster')
        ? { CLICKHOUSE_CLUSTER: inject('clickhouseCluster'), CLICKHOUSE_SHARDS: inject('clickhouseShards').join(',') }
        : {}),
      RAMPART_SECRET: SECRET,
      RAMPART_DOMAIN_PROOF: 'off',
    });
  }, 200_000);
  afterAll(async () => {
    if (b) await stop(b);
    await a?.close();
    if (analyticsDb) await clickhouseRequest(`DROP DATABASE IF EXISTS ${analyticsDb}`);
    if (dataDirB) rmSync(dataDirB, { recursive: true, force: true });
  });

  it('serves a node polling B the geo database uploaded through A, by its hash', async () => {
    const uploaded = await sendFile(a.app, uploadGeoDatabase, CITY_DB, client);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const sha256 = uploaded.json().data.sha256 as string;
    if (!b) throw new Error('control plane B is not running');
    const { method, url } = requestFor(getNodeGeoDatabase, { query: { sha256 } });
    const res = await fetch(`${b.url}${url}`, {
      method,
      headers: signedNodeHeaders({ nodeId: node.nodeId, nodeSecret: node.secret }, method, url, ''),
    });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(CITY_DB)).toBe(true);
    // B holds it only in its cache, filled from the config store; nothing in the old per-slot folder.
    expect(readdirSync(path.join(dataDirB, 'blob-cache'))).toEqual([sha256]);
    expect(existsSync(path.join(dataDirB, 'geo'))).toBe(false);
  }, 60_000);

  it("counts a node's events shipped to A in B's statistics", async () => {
    const now = Date.now();
    const range = { startTime: new Date(now - 3_600_000).toISOString(), endTime: new Date(now + 60_000).toISOString() };
    const shipped = await shipBatch(a.app, node, {
      batchId: 'alike-1',
      dropped: 0,
      events: [
        edgeEvent({ id: 'alike-1', time: now - 60_000, domainId, bytesOut: 1234 }),
        edgeEvent({ id: 'alike-2', time: now - 30_000, domainId, bytesOut: 766 }),
      ],
    });
    expect(shipped.statusCode, shipped.body).toBe(200);
    const card = await onB(user, userStatisticsInfo, { body: { ...range, type: 3 } });
    expect(card.status).toBe(200);
    expect(((await card.json()) as { data: unknown }).data).toMatchObject({ requests: 2, bytesOut: 2000 });
    const onA = await sendAs(a.app, user, userStatisticsInfo, { body: { ...range, type: 3 } });
    expect(onA.json().data).toMatchObject({ requests: 2, bytesOut: 2000 });
  }, 60_000);

  it('downloads from B the log export A wrote, with the token A issued', async () => {
    const now = Date.now();
    const created = await sendAs(a.app, user, createLogExport, {
      body: {
        startTime: new Date(now - 3_600_000).toISOString(),
        endTime: new Date(now + 60_000).toISOString(),
        type: 'access',
        format: 'csv',
        gzip: false,
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id as number;
    await a.app.rampart.logExportJob.runOnce();
    const fromA = await sendAs(a.app, user, downloadLogExport, { params: { id } });
    expect(fromA.statusCode, fromA.body).toBe(200);
    const fromB = await onB(user, downloadLogExport, { params: { id } });
    expect(fromB.status).toBe(200);
    const text = await fromB.text();
    expect(text).toBe(fromA.body);
    expect(text).toContain('alike-1');
    expect(text).toContain('alike-2');
  }, 60_000);

  it('refuses to start a control plane with another secret on the same config store', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rampart-cp-c-'));
    try {
      // No RAMPART_SECRET: it would make its own DATA_DIR/secret.key.
      const refused = await startRefused({ DATA_DIR: dir, DATABASE_URL: a.db.url ?? '', RAMPART_DOMAIN_PROOF: 'off' });
      expect(refused.code).toBe(2);
      expect(refused.output).toContain('Give every control plane the same RAMPART_SECRET');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
