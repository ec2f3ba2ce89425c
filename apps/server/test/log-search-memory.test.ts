import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AnalyticsStore, Row } from '../src/modules/analytics/analytics-store.js';
import { ClickHouseStore } from '../src/modules/analytics/clickhouse-store.js';
import { countLogRows, logRowsAfter, searchLogRows } from '../src/modules/analytics/log-search-store.js';
import { LOG_COLUMNS } from '../src/modules/analytics/logs.service.js';
import {
  clickhouseRequest,
  createTestAnalyticsStore,
  TEST_ANALYTICS_KIND,
  testClickHouseOptions,
} from './helpers/test-analytics.js';

// The log search over a large flood's collapsed records within a small memory per query
// (log-search-store.ts): what a search holds per merged record does not grow with the sample's
// width, and no statement holds more than a window of minutes' groups. 120,000 records with wide
// samples (long URL, user agent, referer, WAF excerpt), two per (node, domain, decision, minute,
// address) — a logged request and a tally — over ten minutes, read through a store whose every
// query may use 100 MB: the merge with an aggregate state per sample column needed 370 MB, the
// two-pass merge of the whole range in one statement passed 95 MiB (ClickHouse's Code 241); walking
// a minute at a time, the search, its count and an export's chunk answer.

const T = Date.UTC(2026, 10, 29, 9, 0, 0) / 1000;
const MINUTE = T - (T % 60);
const MINUTES = 10;
const RECORDS = 120_000;
const GROUPS = RECORDS / 2;
const MEMORY = 100_000_000;

let store: AnalyticsStore;
let limited: AnalyticsStore;

const wide = (c: string) => `'${c.repeat(240)}'`;

const parts = {
  columns: LOG_COLUMNS,
  where: `site_id IN (2) AND ts >= ${MINUTE} AND ts < ${MINUTE + 60 * (MINUTES + 1)}`,
  collapsedMinutes: `site_id IN (2) AND minute >= ${MINUTE - 60} AND minute < ${MINUTE + 60 * (MINUTES + 1)}`,
  byAddress: false,
  // A minute's records (12,000) a window: no statement merges more than one minute's groups.
  windowRecords: RECORDS / MINUTES,
};

beforeAll(async () => {
  if (TEST_ANALYTICS_KIND !== 'clickhouse') return;
  store = await createTestAnalyticsStore();
  const [db] = await store.query('SELECT currentDatabase() AS db');
  const database = String(db?.db);
  // Record 2g: group g's logged request; 2g + 1: its tally, earlier but never the sample.
  const minute = `toInt64(${MINUTE} + 60 * (intDiv(number, 2) % ${MINUTES}))`;
  const tally = '(number % 2)';
  await clickhouseRequest(
    'INSERT INTO collapsed_blocks (minute, requests, first_ms, last_ms, ts, ms, node_id, zone_id, site_id, domain_id, ' +
      'request_id, batch_id, ip, host, uri, path, status, bytes_in, bytes_out, user_agent, referer, fw_kind, fw_rule, ' +
      'fw_action, waf_excerpt, blocked, blacklisted, counted) ' +
      `SELECT ${minute}, 10 + ${tally}, ${minute} * 1000 + 100 - 50 * ${tally}, ${minute} * 1000 + 1000 + 500 * ${tally}, ` +
      `${minute}, 0, 1, 10, 2, 201, if(${tally} = 1, 'tally', concat('req-', toString(number))), 'agg-1', ` +
      `IPv4NumToString(toUInt32(167772160 + intDiv(number, 2))), 'www.flood.example', concat('/', ${wide('u')}, toString(number)), ` +
      `'/', 403, 100, 200, ${wide('a')}, ${wide('r')}, 'blacklist', 4, 'deny', ${wide('x')}, 1, 1, 1 ` +
      `FROM system.numbers LIMIT ${RECORDS}`,
    { database },
  );
  const url = new URL(inject('clickhouseUrl'));
  url.pathname = `/${database}`;
  url.searchParams.set('max_memory_usage', String(MEMORY));
  limited = new ClickHouseStore(url.toString(), testClickHouseOptions());
  await limited.open();
}, 120_000);

afterAll(async () => {
  await limited?.close();
  await store?.close();
});

/** A merged record of the newest minute: its logged request, both records' counts, bytes and times. */
function expectMerged(r: Row) {
  const minute = MINUTE + 60 * (MINUTES - 1);
  expect(String(r.request_id)).toMatch(/^req-\d+$/);
  expect(String(r.uri)).toMatch(/^\/u{240}\d+$/);
  expect(Number(r.requests)).toBe(21);
  expect(Number(r.bytes_in)).toBe(200);
  expect(Number(r.bytes_out)).toBe(400);
  expect(Number(r.first_ms)).toBe(minute * 1000 + 50);
  expect(Number(r.last_ms)).toBe(minute * 1000 + 1500);
  expect([Number(r.ts), Number(r.ms)]).toEqual([minute + 1, 500]);
}

describe.runIf(TEST_ANALYTICS_KIND === 'clickhouse')('the log search within a small memory per query', () => {
  it("merges a large flood's collapsed records: a page, the total and an export's chunk", async () => {
    const { rows, total } = await searchLogRows(limited, { ...parts, limit: 50, offset: 100 });
    expect(total).toBe(GROUPS);
    expect(rows).toHaveLength(50);
    for (const r of rows) expectMerged(r);
    expect(new Set(rows.map((r) => r.ip)).size).toBe(50);
    expect(await countLogRows(limited, parts)).toBe(GROUPS);
    const chunk = await logRowsAfter(limited, parts, null, 500);
    expect(chunk).toHaveLength(500);
    for (const r of chunk) expectMerged(r);
  });
});
