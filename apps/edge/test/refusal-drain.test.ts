import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { MinuteAggregator, type RefusalTally, ROLLUP_COUNTERS } from '@rampart/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { drainRefusals } from '../src/agent/events/refusal-drain.js';

// The drain client against a stand-in for nginx's admin endpoint on a unix socket (nginx's side,
// lua, is another branch's): pages popped while `more`, the secret sent, a broken page refused.

const T0 = Date.UTC(2026, 10, 28, 12, 0);
const SECRET = 'a'.repeat(64);
let dir: string;
let server: http.Server;
let pages: unknown[];
let asked: string[];

const tally = (ip: string, count: number): RefusalTally => ({
  minute: T0,
  domainId: 3,
  ip,
  fwKind: 'blacklist',
  fwRule: 4,
  fwAction: 'deny',
  status: 444,
  count,
  bytesIn: count * 300,
  bytesOut: 0,
  last: T0 + 59_000,
});

beforeEach(async () => {
  dir = await mkdtemp('/tmp/rampart-refusals-');
  pages = [];
  asked = [];
  server = http.createServer((req, res) => {
    asked.push(`${req.method} ${req.url} ${req.headers.authorization === `Bearer ${SECRET}` ? 'signed' : 'unsigned'}`);
    const page = pages.shift() ?? { tallies: [], more: false, dropped: 0 };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(typeof page === 'string' ? page : JSON.stringify(page));
  });
  await new Promise<void>((resolve) => server.listen(path.join(dir, 'admin.sock'), resolve));
});

afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

const endpoint = () => ({ socketPath: path.join(dir, 'admin.sock'), secret: SECRET });

describe('draining the refusal tallies', () => {
  it('folds every page nginx pops into the aggregates, while it says more wait', async () => {
    pages.push(
      { tallies: [tally('203.0.113.7', 12_399), tally('203.0.113.8', 5)], more: true, dropped: 2 },
      { tallies: [tally('203.0.113.9', 100)], more: false, dropped: 0 },
    );
    const aggregator = new MinuteAggregator();
    const result = await drainRefusals(endpoint(), (t) => aggregator.addRefusals(t));
    expect(result).toEqual({ tallies: 3, requests: 12_504, dropped: 2 });
    expect(asked).toEqual(['GET /refusals signed', 'GET /refusals signed']);
    aggregator.closeAll();
    const taken = aggregator.take();
    expect(
      taken.minutes.map((m) => [m.domainId, m.counters[0], m.counters[ROLLUP_COUNTERS.indexOf('dropped')]]),
    ).toEqual([[3, 12_504, 12_504]]);
    expect(taken.collapsed.map((c) => [c.ip, c.count])).toEqual([
      ['203.0.113.7', 12_399],
      ['203.0.113.8', 5],
      ['203.0.113.9', 100],
    ]);
  });

  it('refuses a page that is not a drain, folding none of it', async () => {
    pages.push({ tallies: [tally('203.0.113.7', 3), { ...tally('not an address', 1) }], more: false, dropped: 0 });
    const folded: RefusalTally[] = [];
    await expect(drainRefusals(endpoint(), (t) => folded.push(t))).rejects.toThrow(/no drain/);
    expect(folded).toEqual([]);
    pages.push('not json');
    await expect(drainRefusals(endpoint(), (t) => folded.push(t))).rejects.toThrow(/no JSON/);
  });
});
