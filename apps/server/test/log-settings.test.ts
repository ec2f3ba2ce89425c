import {
  type AnyRoute,
  clientStatisticsInfo,
  createDomains,
  deleteLogPart,
  deleteLogParts,
  getLogSetting,
  initializeNodes,
  type LogPart,
  type LogTable,
  listAuditLogs,
  listLogParts,
  putLogSetting,
} from '@rampart/contract';
import type { CallArgs } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, giveRole, rootId, signInOtherOperator } from './helpers/accounts.js';
import { manualClock, signIn } from './helpers/auth.js';
import { fieldNames, rawInput, sendAs, type Token } from './helpers/call.js';
import { type JoinedNode, joinNode } from './helpers/edge-node.js';
import { edgeEvent, shipBatch } from './helpers/events.js';
import { operatorCalls, webProduct } from './helpers/operators.js';
import { TEST_ANALYTICS_KIND } from './helpers/test-analytics.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The log setting (contract routes/log-settings.ts) on the project's analytics store: DuckDB beside
// PGlite, ClickHouse beside PostgreSQL. The retention the job prunes by, and the store's parts (a
// table's rows of one UTC day) listed and deleted.

// Two days of traffic: 2026-11-10 (three requests) and 2026-11-11 (two), seen from the second.
const DAY1 = Date.UTC(2026, 10, 10, 10, 0, 0);
const DAY2 = Date.UTC(2026, 10, 11, 10, 0, 0);
const clock = manualClock(DAY2 + 3600_000);
const TABLES: LogTable[] = [
  'events',
  'rollup_1m',
  'rollup_5m',
  'rollup_1h',
  'rollup_1d',
  'siterollup_5m',
  'lowdims_1h',
  'dims_1h',
  'dims_1d',
  'sitedims_1d',
];

let t: TestApp;
let client: Token;
let rival: Token;
let user: Token;
let reader: Token;
let noRole: Token;
let domainId: number;
let node: JoinedNode;

const as = <R extends AnyRoute>(who: Token, route: R, ...args: CallArgs<R, Token>) =>
  sendAs(t.app, who, route, ...args);
const hourOf = (start: number) => ({
  startTime: new Date(start).toISOString(),
  endTime: new Date(start + 3600_000).toISOString(),
});

async function ship(batchId: string, times: number[]) {
  const events = times.map((time) => edgeEvent({ time, domainId, bytesOut: 1000 }));
  const res = await shipBatch(t.app, node, { batchId, dropped: 0, events }, { nowMs: clock.now() });
  expect(res.statusCode, res.body).toBe(200);
}

/** Every part of the store, as the operator lists them (one page). */
async function parts(table?: LogTable): Promise<LogPart[]> {
  const res = await as(client, listLogParts, { query: { pageSize: 500, ...(table ? { table } : {}) } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}
const names = (list: LogPart[]) => list.map((p) => `${p.table}/${p.part}`);
const requestsIn = async (start: number) =>
  (await as(client, clientStatisticsInfo, { body: { ...hourOf(start), type: 3 } })).json().data.requests;

beforeAll(async () => {
  t = await createTestApp({ clock: clock.now });
  client = await signIn(t.app, 'client');
  rival = await signInOtherOperator(t.app);
  user = await signIn(t.app, 'user');
  const clientRoot = await rootId(t.app, 'client');
  await giveRole(t.app, client, 'client', await addAccount(t.app, 'client', 'settings-reader', clientRoot), [
    'client.settings.read',
  ]);
  reader = await signIn(t.app, 'client', 'settings-reader');
  await addAccount(t.app, 'client', 'no-role', clientRoot);
  noRole = await signIn(t.app, 'client', 'no-role');

  const chain = await webProduct(t.app, client);
  const siteId = await operatorCalls(t.app, client).site('shop', await rootId(t.app, 'user'), chain.productId);
  node = await joinNode(t.app, client, 'edge-a');
  await as(client, initializeNodes, { body: { ids: [node.nodeId], zoneID: chain.zoneId, groupID: chain.groupId } });
  const created = await as(user, createDomains, {
    params: { siteId },
    body: { domains: [{ name: 'www.shop.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] },
  });
  expect(created.statusCode, created.body).toBe(200);
  domainId = created.json().data[0]?.id as number;

  await ship('day-1', [DAY1 + 60_000, DAY1 + 120_000, DAY1 + 1800_000]);
  await ship('day-2', [DAY2 + 60_000, DAY2 + 600_000]);
  // The job builds the dimension tables of the hours that ended (DuckDB; ClickHouse's views already
  // have): just after the second day, so every table holds both days.
  clock.advance(Date.UTC(2026, 10, 12, 0, 20) - clock.now());
  await t.app.rampart.analyticsJob.runOnce();
  client = await signIn(t.app, 'client');
  rival = await signIn(t.app, 'client', 'rival');
  user = await signIn(t.app, 'user');
  reader = await signIn(t.app, 'client', 'settings-reader');
  noRole = await signIn(t.app, 'client', 'no-role');
});
afterAll(async () => t.close());

describe('the retention', () => {
  it('is 30 days of raw events and 400 of rollups until the operator sets it', async () => {
    const res = await as(client, getLogSetting);
    expect(res.json()).toEqual({ data: { rawRetentionDays: 30, rollupRetentionDays: 400 } });
  });

  it('is set by the operator, read back, and recorded in the operation log', async () => {
    const set = await as(client, putLogSetting, { body: { rawRetentionDays: 7, rollupRetentionDays: 90 } });
    expect(set.json()).toEqual({ data: { rawRetentionDays: 7, rollupRetentionDays: 90 } });
    expect((await as(reader, getLogSetting)).json()).toEqual({
      data: { rawRetentionDays: 7, rollupRetentionDays: 90 },
    });
    const log = await as(client, listAuditLogs, { params: { auth: 'client' }, query: { url: 'client.setting.log' } });
    expect(log.json().data[0]).toMatchObject({
      action: 'client.setting.log.update',
      changes: { rawRetentionDays: 7, rollupRetentionDays: 90 },
      rowChanges: [expect.objectContaining({ table: 'system_settings', op: 'insert' })],
    });
    // Back to the defaults for the tests below.
    await as(client, putLogSetting, { body: { rawRetentionDays: 30, rollupRetentionDays: 400 } });
  });

  it.each([
    [{ rawRetentionDays: 0, rollupRetentionDays: 400 }, 'rawRetentionDays', 'tooSmall', 'Must be at least 1'],
    [{ rawRetentionDays: 366, rollupRetentionDays: 400 }, 'rawRetentionDays', 'tooBig', 'Must be at most 365'],
    [{ rawRetentionDays: 30, rollupRetentionDays: 61 }, 'rollupRetentionDays', 'tooSmall', 'Must be at least 62'],
    [{ rawRetentionDays: 30, rollupRetentionDays: 1101 }, 'rollupRetentionDays', 'tooBig', 'Must be at most 1100'],
    [{ rawRetentionDays: 200, rollupRetentionDays: 100 }, 'rollupRetentionDays', 'tooSmall', 'Must be at least 200'],
    [{ rawRetentionDays: 2.5, rollupRetentionDays: 100 }, 'rawRetentionDays', 'wrongFormat', 'Wrong format'],
    [{ rawRetentionDays: 30 }, 'rollupRetentionDays', 'required', 'This field is required'],
  ])('refuses %j', async (body, field, key, message) => {
    const res = await as(client, putLogSetting, rawInput({ body }));
    expect(res.json()).toMatchObject({ code: 101003, extra: { fields: [{ in: 'body', field, key, message }] } });
    expect((await as(client, getLogSetting)).json().data).toEqual({ rawRetentionDays: 30, rollupRetentionDays: 400 });
  });
});

describe('who may', () => {
  it('refuses a customer, a sub-account without the keys, and writes by a read-only sub-account', async () => {
    expect((await as(user, getLogSetting)).json().code).toBe(101018);
    expect((await as(user, listLogParts)).json().code).toBe(101018);
    expect((await as(noRole, getLogSetting)).json().code).toBe(101018);
    expect((await as(noRole, listLogParts)).json().code).toBe(101018);
    expect((await as(reader, listLogParts)).statusCode).toBe(200);
    const item = { table: 'events' as const, part: '20261110' };
    expect(
      (await as(reader, putLogSetting, { body: { rawRetentionDays: 1, rollupRetentionDays: 62 } })).json().code,
    ).toBe(101018);
    expect((await as(reader, deleteLogPart, { body: item })).json().code).toBe(101018);
    expect((await as(reader, deleteLogParts, { body: { items: [item] } })).json().code).toBe(101018);
    expect((await as(user, deleteLogPart, { body: item })).json().code).toBe(101018);
    expect(names(await parts('events'))).toEqual(['events/20261111', 'events/20261110']);
  });

  it("refuses another operator: the store holds every operator's traffic", async () => {
    expect((await as(rival, getLogSetting)).json().code).toBe(101018);
    expect((await as(rival, listLogParts)).json().code).toBe(101018);
    const set = await as(rival, putLogSetting, { body: { rawRetentionDays: 1, rollupRetentionDays: 62 } });
    expect(set.json().code).toBe(101018);
    const drop = await as(rival, deleteLogPart, { body: { table: 'events', part: '20261110' } });
    expect(drop.json().code).toBe(101018);
    expect((await as(client, getLogSetting)).json().data).toEqual({ rawRetentionDays: 30, rollupRetentionDays: 400 });
    expect(names(await parts('events'))).toEqual(['events/20261111', 'events/20261110']);
  });
});

describe('the parts', () => {
  it('are one per table and UTC day, newest day first, with the rows of each', async () => {
    const all = await parts();
    expect(names(all)).toEqual([...TABLES.map((x) => `${x}/20261111`), ...TABLES.map((x) => `${x}/20261110`)]);
    const events = all.filter((p) => p.table === 'events');
    expect(events.map((p) => p.rows)).toEqual([2, 3]);
    for (const p of all) {
      expect(p.rows, `${p.table}/${p.part}`).toBeGreaterThan(0);
      // ClickHouse says the bytes of its parts; DuckDB cannot say them per day.
      if (TEST_ANALYTICS_KIND === 'clickhouse') expect(p.bytes).toBeGreaterThan(0);
      else expect(p.bytes).toBeNull();
    }
  });

  it('are paged and filtered by table on the server', async () => {
    const page = await as(client, listLogParts, { query: { page: 2, pageSize: 3 } });
    expect(page.json().total).toBe(20);
    expect(names(page.json().data)).toEqual(['rollup_1h/20261111', 'rollup_1d/20261111', 'siterollup_5m/20261111']);
    const rollups = await as(client, listLogParts, { query: { table: 'rollup_5m' } });
    expect(rollups.json().total).toBe(2);
    expect(names(rollups.json().data)).toEqual(['rollup_5m/20261111', 'rollup_5m/20261110']);
  });

  it.each([
    [{ table: 'batches', part: '20261110' }, 'table', 'invalidValue'],
    [{ table: 'events; DROP TABLE events', part: '20261110' }, 'table', 'invalidValue'],
    [{ table: 'events', part: '20261131' }, 'part', 'wrongFormat'],
    [{ table: 'events', part: '20261110 OR 1=1' }, 'part', 'wrongFormat'],
    [{ table: 'events', part: 20261110 }, 'part', 'wrongFormat'],
    [{ table: 'events' }, 'part', 'required'],
  ])('refuses to delete %j', async (body, field, key) => {
    const res = await as(client, deleteLogPart, rawInput({ body }));
    expect(res.json()).toMatchObject({ code: 101003, extra: { fields: [{ field, key }] } });
  });

  it('refuses more than 500 parts, none, or a bad one among them, and a list filter of no table', async () => {
    const item = { table: 'events', part: '20261110' };
    const many = await as(client, deleteLogParts, rawInput({ body: { items: Array(501).fill(item) } }));
    expect(many.json()).toMatchObject({ code: 101003, extra: { fields: [{ field: 'items', key: 'tooMany' }] } });
    const none = await as(client, deleteLogParts, rawInput({ body: { items: [] } }));
    expect(fieldNames(none)).toEqual(['items']);
    const bad = await as(client, deleteLogParts, rawInput({ body: { items: [item, { table: 'x', part: '1' }] } }));
    expect(fieldNames(bad)).toEqual(['items.1.table', 'items.1.part']);
    const filter = await as(client, listLogParts, rawInput({ query: { table: 'batches' } }));
    expect(fieldNames(filter)).toEqual(['table']);
    expect(names(await parts('events'))).toEqual(['events/20261111', 'events/20261110']);
  });

  it('deleting the raw events of a day removes exactly those rows; the statistics stay as they were', async () => {
    const res = await as(client, deleteLogPart, { body: { table: 'events', part: '20261110' } });
    expect(res.json()).toEqual({ data: true });
    expect((await parts('events')).map((p) => [p.part, p.rows])).toEqual([['20261111', 2]]);
    expect(names(await parts('rollup_1m'))).toEqual(['rollup_1m/20261111', 'rollup_1m/20261110']);
    // Cards read the rollups: both days still count.
    expect(await requestsIn(DAY1)).toBe(3);
    expect(await requestsIn(DAY2)).toBe(2);
  });

  it("deleting a day of the per-minute rollup takes that day out of the statistics, the other day's unchanged", async () => {
    expect((await as(client, deleteLogPart, { body: { table: 'rollup_1m', part: '20261110' } })).statusCode).toBe(200);
    expect(names(await parts('rollup_1m'))).toEqual(['rollup_1m/20261111']);
    expect(await requestsIn(DAY1)).toBe(0);
    expect(await requestsIn(DAY2)).toBe(2);
  });

  it('deleting a day of the daily rollup takes that day out of cards over more than a day, not out of shorter ones', async () => {
    // 2026-11-10 00:00 to now (2026-11-11 11:00): the whole day from the daily rollup, the hours after from the hourly one.
    const twoDays = async () =>
      (
        await as(client, clientStatisticsInfo, {
          body: {
            startTime: new Date(Date.UTC(2026, 10, 10)).toISOString(),
            endTime: new Date(clock.now()).toISOString(),
            type: 3,
          },
        })
      ).json().data.requests;
    expect(await twoDays()).toBe(5);
    expect((await as(client, deleteLogPart, { body: { table: 'rollup_1d', part: '20261110' } })).statusCode).toBe(200);
    expect(await twoDays()).toBe(2);
    expect(await requestsIn(DAY2)).toBe(2);
  });

  it('answers 101018 for a part the store does not hold, and then deletes nothing of the others named', async () => {
    const gone = await as(client, deleteLogPart, { body: { table: 'events', part: '20261110' } });
    expect(gone.json()).toMatchObject({ code: 101018, extra: { reason: 'not every part is stored' } });
    const mixed = await as(client, deleteLogParts, {
      body: {
        items: [
          { table: 'rollup_5m', part: '20261110' },
          { table: 'lowdims_1h', part: '20200101' },
        ],
      },
    });
    expect(mixed.json().code).toBe(101018);
    expect(names(await parts('rollup_5m'))).toEqual(['rollup_5m/20261111', 'rollup_5m/20261110']);
  });

  it('deletes several parts at once, recorded in the operation log', async () => {
    const items = [
      { table: 'rollup_5m', part: '20261110' },
      { table: 'rollup_1h', part: '20261110' },
      { table: 'siterollup_5m', part: '20261110' },
      { table: 'lowdims_1h', part: '20261110' },
      { table: 'dims_1h', part: '20261110' },
      { table: 'dims_1h', part: '20261110' },
      { table: 'dims_1d', part: '20261110' },
      { table: 'sitedims_1d', part: '20261110' },
    ] as const;
    const res = await as(client, deleteLogParts, { body: { items: [...items] } });
    expect(res.json()).toEqual({ data: true });
    expect(names(await parts())).toEqual(TABLES.map((x) => `${x}/20261111`));
    const log = await as(client, listAuditLogs, {
      params: { auth: 'client' },
      query: { url: 'client.setting.log.parts.delete' },
    });
    expect(log.json().data[0]).toMatchObject({ action: 'client.setting.log.parts.delete', status: 200 });
  });
});

describe('the analytics job', () => {
  it('prunes by the retention in force at each run', async () => {
    // 2026-09-01 (72 days before the 12th) and 2026-11-09; the job runs on 2026-11-12 at 00:30.
    const SEPT = Date.UTC(2026, 8, 1, 10, 0, 0);
    const NOV9 = Date.UTC(2026, 10, 9, 10, 0, 0);
    await ship('older-1', [SEPT, NOV9]);
    clock.advance(Date.UTC(2026, 10, 12, 0, 30) - clock.now());
    client = await signIn(t.app, 'client');
    const job = t.app.rampart.analyticsJob;

    // The defaults: raw events of 30 days (September's go), rollups of 400 days (all stay).
    await job.runOnce();
    expect(names(await parts('events'))).toEqual(['events/20261111', 'events/20261109']);
    expect(names(await parts('rollup_5m'))).toEqual(['rollup_5m/20261111', 'rollup_5m/20261109', 'rollup_5m/20260901']);

    // A day of raw events and 62 of rollups: November 9's events go, and September's rollups.
    await as(client, putLogSetting, { body: { rawRetentionDays: 1, rollupRetentionDays: 62 } });
    await job.runOnce();
    expect(names(await parts('events'))).toEqual(['events/20261111']);
    for (const table of TABLES.slice(1)) {
      expect(names(await parts(table))).toEqual([`${table}/20261111`, `${table}/20261109`]);
    }
    expect(await requestsIn(DAY2)).toBe(2);
  });
});
