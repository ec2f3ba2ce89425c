import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  type AggregateBatch,
  aggregateBatchSchema,
  decodeAggregateBatch,
  type EdgeEvent,
  eventCounters,
  eventFlags,
  ROLLUP_COUNTERS,
} from '@rampart/contract';
import { generateTraffic } from '@rampart/contract/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AggregateFeed } from '../src/agent/events/aggregate-feed.js';
import { EventCollector } from '../src/agent/events/event-collector.js';
import { parseEventLine } from '../src/agent/events/event-line.js';
import { EventShipper } from '../src/agent/events/event-shipper.js';
import { EventSpool } from '../src/agent/events/event-spool.js';
import type { LogEntry } from '../src/agent/log.js';
import { NodeClient } from '../src/agent/node-api/node-client.js';
import { AGENT_VERSION } from '../src/agent/version.js';
import { eventLine, spooledBatches } from './helpers/event-log.js';
import { type FakeControlPlane, startFakeControlPlane } from './helpers/fake-control-plane.js';

// The agent's aggregates without nginx: generated traffic written to a log file in nginx's format
// (out of time order, as nginx's workers write it), the collector driven round by round on a clock
// the test moves, the aggregate spool on disk, shipped to a stand-in for the control plane. The
// proof is in the totals: per minute and domain, the counters of every record taken equal those of
// the generated requests, once each — also when the worker dies mid-minute, at any line.

const T0 = Date.UTC(2026, 10, 28, 12, 0);
let dir: string;
let logFile: string;
let spoolDir: string;
let clock: number;
let logs: LogEntry[];
let made: EventCollector[];
let cp: FakeControlPlane;
let client: NodeClient;

beforeAll(async () => {
  cp = await startFakeControlPlane();
  client = new NodeClient(cp.url);
  client.setCredentials(
    await client.register({ joinToken: cp.joinToken, hostname: 'aggs', ips: ['127.0.0.1'], version: AGENT_VERSION }),
  );
});

afterAll(async () => {
  await cp?.close();
});

beforeEach(async () => {
  dir = await mkdtemp('/tmp/rampart-aggregates-');
  await mkdir(path.join(dir, 'logs'));
  logFile = path.join(dir, 'logs/access.log');
  spoolDir = path.join(dir, 'events');
  clock = T0;
  logs = [];
  made = [];
  await writeFile(logFile, '');
});

afterEach(async () => {
  for (const c of made) await c.close();
  await rm(dir, { recursive: true, force: true });
});

const aggregatesDir = () => path.join(spoolDir, 'aggregates');

/** A collector with its aggregates as the event worker makes them at start (a restart: a new one). */
async function collector(maxEvents = 200) {
  const feed = new AggregateFeed({ dir: aggregatesDir(), aggregator: { graceMs: 3000 } });
  const events = new EventCollector({
    logFile,
    spool: new EventSpool(spoolDir),
    log: (level, event, fields = {}) => logs.push({ time: '', level, event, ...fields }),
    signal: new AbortController().signal,
    cutMs: 1000,
    graceMs: 3000,
    maxEvents,
    now: () => clock,
    aggregates: feed,
  });
  made.push(events);
  expect(await events.prepare()).toBe(true);
  return { events, feed };
}

/** Generated traffic, in the order nginx writes it, as the agent reads it back. */
function traffic(seconds: number): EdgeEvent[] {
  const generated = generateTraffic({
    seed: 59,
    start: T0 + 500,
    seconds,
    rps: 25,
    domains: 4,
    jitterMs: 1500,
    flood: { domains: [2], addresses: 3, rps: 15 },
  });
  return generated.map((e) => {
    const parsed = parseEventLine(eventLine(e), () => 'none');
    if (!parsed.ok) throw new Error(parsed.reason);
    return parsed.event;
  });
}

/** Writes `events` to the log and reads until the collector has all of them (the clock at the last). */
async function feedLines(events: { events: EventCollector }, lines: EdgeEvent[]): Promise<void> {
  await appendFile(logFile, lines.map(eventLine).join(''));
  clock = Math.max(clock, ...lines.map((e) => e.time + 1000));
  while (await events.events.tick()) {}
}

/** Per minute and domain: the rollup counters (and blocked requests per address and decision). */
function totals(records: { minutes: AggregateBatch['minutes']; collapsed: AggregateBatch['collapsed'] }[]) {
  const counters = new Map<string, number[]>();
  const collapsed = new Map<string, number>();
  for (const r of records) {
    for (const m of r.minutes) {
      const key = `${m.minute}|${m.domainId}`;
      const sums = counters.get(key) ?? ROLLUP_COUNTERS.map(() => 0);
      m.counters.forEach((v, i) => {
        sums[i]! += v;
      });
      counters.set(key, sums);
    }
    for (const c of r.collapsed) {
      const key = `${c.minute}|${c.domainId}|${c.ip}|${c.fwKind}|${c.fwRule}|${c.fwAction}`;
      collapsed.set(key, (collapsed.get(key) ?? 0) + c.count);
    }
  }
  return { counters, collapsed };
}

/** The same of the requests themselves. */
function truth(events: EdgeEvent[]) {
  const counters = new Map<string, number[]>();
  const collapsed = new Map<string, number>();
  for (const e of events) {
    const minute = e.time - (e.time % 60_000);
    const key = `${minute}|${e.domainId}`;
    const sums = counters.get(key) ?? ROLLUP_COUNTERS.map(() => 0);
    const one = eventCounters({ ...eventFlags(e.cacheStatus, e.fwKind, e.fwAction), ...e });
    ROLLUP_COUNTERS.forEach((c, i) => {
      sums[i]! += one[c];
    });
    counters.set(key, sums);
    if (eventFlags(e.cacheStatus, e.fwKind, e.fwAction).blocked) {
      const k = `${minute}|${e.domainId}|${e.ip}|${e.fwKind}|${e.fwRule}|${e.fwAction}`;
      collapsed.set(k, (collapsed.get(k) ?? 0) + 1);
    }
  }
  return { counters, collapsed };
}

/** The aggregate batches in the spool directory, oldest first, checked with the contract's schema. */
async function spooledAggregates(): Promise<AggregateBatch[]> {
  const names = (await readdir(aggregatesDir())).filter((n) => n.endsWith('.gz')).sort();
  const out: AggregateBatch[] = [];
  for (const name of names) {
    const json = gunzipSync(await readFile(path.join(aggregatesDir(), name))).toString('utf8');
    // Compact as the agent ships it: decoded to the object form the schema checks.
    out.push(aggregateBatchSchema.parse(decodeAggregateBatch(JSON.parse(json))));
  }
  return out;
}

/** Closes every minute: the log's clock far past the last request, one more round. */
async function closeEverything(c: { events: EventCollector }): Promise<void> {
  clock += 10 * 60_000;
  await c.events.tick();
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`not reached within 10 s: ${what}`);
}

describe('the agent aggregates what it reads', () => {
  it('spools the closed minutes, ships them (again after a failure) and removes each once acknowledged', async () => {
    const lines = traffic(150);
    const c = await collector();
    await feedLines(c, lines.slice(0, 2000));
    await feedLines(c, lines.slice(2000));
    await closeEverything(c);
    const spooled = await spooledAggregates();
    expect(spooled.length).toBeGreaterThan(0);
    expect(totals(spooled)).toEqual(truth(lines));
    // The events went on, for the logs only.
    const eventBatches = await spooledBatches(spoolDir);
    expect(eventBatches.flatMap((b) => b.events.map((e) => e.id)).sort()).toEqual(lines.map((e) => e.id).sort());
    expect(eventBatches.every((b) => b.statistics === false)).toBe(true);

    cp.aggregateBatches.length = 0;
    cp.aggregateAttempts.length = 0;
    cp.failAggregates(1);
    const controller = new AbortController();
    const shipper = new EventShipper({
      spool: c.feed.spool,
      name: 'aggregates',
      ship: (nodeClient, bytes, signal) => nodeClient.shipAggregates(bytes, signal),
      client: () => client,
      log: (level, event, fields = {}) => logs.push({ time: '', level, event, ...fields }),
      signal: controller.signal,
      idleMs: 20,
      backoffMinMs: 50,
      backoffMaxMs: 200,
    });
    const running = shipper.run();
    try {
      await until(() => cp.aggregateBatches.length === spooled.length, 'every batch taken');
      await until(() => c.feed.spool.waiting === 0, 'every batch removed');
    } finally {
      controller.abort();
      await running;
    }
    expect(cp.aggregateBatches.map((b) => b.batchId)).toEqual(spooled.map((b) => b.batchId));
    expect(totals(cp.aggregateBatches)).toEqual(truth(lines));
    // The failed one was sent again, the same bytes.
    const [failed, retried] = cp.aggregateAttempts;
    expect(failed?.status).toBe(500);
    expect(retried).toMatchObject({ status: 200, sha256: failed?.sha256 });
    expect(logs.some((l) => l.event === 'aggregates.ship_failed')).toBe(true);
    expect((await readdir(aggregatesDir())).filter((n) => n.endsWith('.gz'))).toEqual([]);
  });

  it('counts every request once when the worker dies mid-minute, at any point, and starts again', async () => {
    const lines = traffic(200);
    // Dies after each of these many lines (mid-minute, at minute ends, twice within one minute).
    const deaths = [700, 1500, 1510, 2600, 4100, 5200, 6800];
    let from = 0;
    for (const at of [...deaths, lines.length]) {
      const c = await collector(150);
      await feedLines(c, lines.slice(from, at));
      from = at;
      if (at === lines.length) await closeEverything(c);
      // No stop, no last cut: what was in memory is gone, as with kill -9.
    }
    expect(totals(await spooledAggregates())).toEqual(truth(lines));
    const ids = (await spooledBatches(spoolDir)).flatMap((b) => b.events.map((e) => e.id));
    expect(ids.length).toBe(lines.length);
    expect(new Set(ids).size).toBe(lines.length);
    const batchIds = (await spooledAggregates()).map((b) => b.batchId);
    expect(new Set(batchIds).size).toBe(batchIds.length);
  });

  it('ships partials of the open minute, and counts once when the worker dies between two partials of a minute', async () => {
    const lines = traffic(150);
    const at = (ms: number) => lines.findIndex((e) => e.time >= T0 + ms);
    const first = await collector();
    await feedLines(first, lines.slice(0, at(20_000)));
    // A partial of the first minute is spooled while the minute is open (nothing closed yet).
    const early = await spooledAggregates();
    expect(early.some((b) => b.minutes.some((m) => m.minute === T0 && !m.late))).toBe(true);
    expect(Math.max(...early.map((b) => b.closedThrough))).toBeLessThanOrEqual(T0);
    // More of the same minute, short of the next partial; then kill -9 (no stop, no last cut).
    await feedLines(first, lines.slice(at(20_000), at(27_000)));
    expect((await spooledAggregates()).length).toBe(early.length);

    const second = await collector();
    await feedLines(second, lines.slice(at(27_000)));
    await closeEverything(second);
    const spooled = await spooledAggregates();
    expect(totals(spooled)).toEqual(truth(lines));
    // The first minute took several records of one domain (partials, the close), none a correction.
    const records = spooled.flatMap((b) => b.minutes).filter((m) => m.minute === T0 && m.domainId === 1);
    expect(records.length).toBeGreaterThanOrEqual(3);
    expect(records.every((m) => !m.late)).toBe(true);
    // Its sketches went once, with the close, counting every line of it: those the first worker's
    // partial shipped the counters of were read again into the sketches alone.
    const sketched = records.filter((m) => m.top);
    expect(sketched.length).toBe(1);
    const mine = lines.filter((e) => e.time >= T0 && e.time < T0 + 60_000 && e.domainId === 1).length;
    expect(sketched[0]?.top?.ip.n).toBe(mine);
    expect(sketched[0]?.top?.url.n).toBe(mine);
  });

  it('a crash between a group of batch files and the state that names them counts their lines again, once', async () => {
    const lines = traffic(150);
    const first = await collector();
    await feedLines(first, lines.slice(0, 2200));
    const stateFile = path.join(aggregatesDir(), 'spool.json');
    const before = await readFile(stateFile);
    const filesBefore = (await readdir(aggregatesDir())).filter((n) => n.endsWith('.gz')).length;
    await feedLines(first, lines.slice(2200, 4000));
    expect((await readdir(aggregatesDir())).filter((n) => n.endsWith('.gz')).length).toBeGreaterThan(filesBefore);
    // spool.json as if the last group's state never landed: its files are no batches.
    await writeFile(stateFile, before);

    const second = await collector();
    await feedLines(second, lines.slice(4000));
    await closeEverything(second);
    expect(totals(await spooledAggregates())).toEqual(truth(lines));
  });
});
