import http from 'node:http';
import { type EdgeFirewall, ipListRanges } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainAllRefusals } from '../src/agent/events/refusal-drain.js';
import type { DataPlane } from '../src/data-plane/schema.js';
import { firewallLogLines } from './helpers/access-log.js';
import { cacheRule, document, domain, siteFirewall, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';

// The site firewall's frequency limits (packages/contract/src/routes/firewall-frequency.ts,
// rampart.firewall_frequency) through a real nginx with two workers (the counters live in a shared
// dict both use). Every test sends from its own loopback addresses (127.0.0.0/8 is all local on
// Linux), so no test sees another's counters. Windows and rates are small: the tests wait in real
// time, never in loops without a bound.

type Interval = EdgeFirewall['intervals'][number];
type Rate = EdgeFirewall['rates'][number];

const interval = (id: number, seconds: number, times: number, extra: Partial<Interval> = {}): Interval => ({
  id,
  url: '.*',
  seconds,
  times,
  action: 'deny',
  ...extra,
});
const rate = (id: number, perSecond: number, burst: number, extra: Partial<Rate> = {}): Rate => ({
  id,
  url: '.*',
  rate: perSecond,
  burst,
  blockSeconds: 0,
  action: 'deny',
  ...extra,
});

const FIREWALLS: EdgeFirewall[] = [
  siteFirewall(1, { intervals: [interval(101, 2, 3)] }),
  siteFirewall(2, { intervals: [interval(201, 60, 2, { action: 'drop' })] }),
  // The edge's port is not the scheme's default here, so the URL reads http://scoped.example.com:<port>/…
  siteFirewall(3, { intervals: [interval(301, 60, 2, { url: 'scoped\\.example\\.com:[0-9]+\\/api\\/' })] }),
  // Tried in the order of the list (the control plane sorts by priority, then age): 402 first.
  siteFirewall(4, { intervals: [interval(402, 60, 2), interval(401, 60, 2, { action: 'drop' })] }),
  siteFirewall(5, { rates: [rate(501, 4, 3)] }),
  siteFirewall(6, { rates: [rate(601, 2, 0, { blockSeconds: 2 })] }),
  siteFirewall(7, {
    whitelist: [{ id: 71, url: '.*', methods: ['GET'], ...ipListRanges(['127.0.0.50']) }],
    intervals: [interval(72, 60, 1)],
  }),
  // Both kinds on one site: an interval limit that a burst stays under, and a rate that slows it.
  siteFirewall(8, { intervals: [interval(81, 60, 100)], rates: [rate(82, 5, 10, { action: 'drop' })] }),
  siteFirewall(9, { intervals: [interval(91, 60, 20)] }),
];

let edge: Edge;
let origin: Origin;

function plane(version: string, firewalls: EdgeFirewall[] = FIREWALLS): DataPlane {
  const to = [upstream(origin.port)];
  return document(
    version,
    [
      domain(1, 'interval.example.com', to, { firewallId: 1 }),
      domain(2, 'drop.example.com', to, { firewallId: 2 }),
      domain(3, 'scoped.example.com', to, { firewallId: 3 }),
      domain(4, 'priority.example.com', to, { firewallId: 4 }),
      domain(5, 'rate.example.com', to, { firewallId: 5 }),
      domain(6, 'block.example.com', to, { firewallId: 6 }),
      domain(7, 'white.example.com', to, { firewallId: 7 }),
      domain(8, 'both.example.com', to, { firewallId: 8 }),
      // A site's own 929 page replaces the edge's "Too many requests".
      domain(9, 'own-page.example.com', to, { firewallId: 1, settingsId: 9 }),
      // A delayed request still takes its domain's route: here the cache location.
      domain(10, 'cached.example.com', to, { firewallId: 5, cacheId: 10 }),
      domain(11, 'plain.example.com', to),
      domain(12, 'many.example.com', to, { firewallId: 9 }),
    ],
    [],
    [{ id: 10, generation: 1, rules: [cacheRule({})] }],
    {
      firewalls,
      settings: [
        { id: 9, gzip: null, rates: [], language: 'en_US', pages: [{ status: 929, body: '<h1>Slow down</h1>' }] },
      ],
    },
  );
}

interface Reply {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
  /** Milliseconds from sending to the end of the answer. */
  ms: number;
}

/** One request on a new connection from `from`; 'closed' when it closed without an answer (444). */
function send(
  from: string,
  host: string,
  options: { path?: string; headers?: Record<string, string> } = {},
): Promise<Reply | 'closed'> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: edge.httpPort,
        path: options.path ?? '/',
        localAddress: from,
        headers: { ...options.headers, host },
        agent: false,
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString('utf8');
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers, ms: performance.now() - started }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`request for ${host} timed out`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET' || err.message === 'socket hang up') resolve('closed');
      else reject(err);
    });
    req.end();
  });
}

const statusOf = (reply: Reply | 'closed') => (reply === 'closed' ? 'closed' : reply.status);

/** `count` requests one after another; their statuses. */
async function statuses(from: string, host: string, count: number, path = '/'): Promise<(number | 'closed')[]> {
  const out: (number | 'closed')[] = [];
  for (let i = 0; i < count; i++) out.push(statusOf(await send(from, host, { path })));
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge({ refusalTallies: true });
  await edge.push(plane('frequency-1'));
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

describe('interval limits', () => {
  it("refuse request times + 1 with 929 in the visitor's language, and free the address after the window", async () => {
    const started = performance.now();
    expect(await statuses('127.0.0.10', 'interval.example.com', 3)).toEqual([200, 200, 200]);
    const fourth = await send('127.0.0.10', 'interval.example.com');
    expect(fourth).toMatchObject({ status: 929, body: expect.stringContaining('<h1>929 Too many requests</h1>') });
    const chinese = await send('127.0.0.10', 'interval.example.com', { headers: { 'accept-language': 'zh-CN' } });
    expect(chinese).toMatchObject({ status: 929, body: expect.stringContaining('<h1>929 请求过多</h1>') });
    // Another address is counted on its own.
    expect(await statuses('127.0.0.11', 'interval.example.com', 3)).toEqual([200, 200, 200]);
    // The window (2 s) started with the first request: after it, three more pass.
    await sleep(Math.max(0, started + 2300 - performance.now()));
    expect(await statuses('127.0.0.10', 'interval.example.com', 4)).toEqual([200, 200, 200, 929]);
  });

  it('count exactly across workers: of 40 requests at once, 20 pass', async () => {
    const replies = await Promise.all(Array.from({ length: 40 }, () => send('127.0.0.16', 'many.example.com')));
    const counts = { passed: 0, refused: 0 };
    for (const r of replies) {
      if (statusOf(r) === 200) counts.passed++;
      if (statusOf(r) === 929) counts.refused++;
    }
    expect(counts).toEqual({ passed: 20, refused: 20 });
  });

  it("answer with the site's own 929 page when it has one", async () => {
    expect(await statuses('127.0.0.14', 'own-page.example.com', 3)).toEqual([200, 200, 200]);
    expect(await send('127.0.0.14', 'own-page.example.com')).toMatchObject({ status: 929, body: '<h1>Slow down</h1>' });
  });

  it('close the connection unanswered for a drop rule, and leave the other sites alone', async () => {
    expect(await statuses('127.0.0.12', 'drop.example.com', 4)).toEqual([200, 200, 'closed', 'closed']);
    expect(statusOf(await send('127.0.0.12', 'plain.example.com'))).toBe(200);
    expect(statusOf(await send('127.0.0.12', 'interval.example.com'))).toBe(200);
  });

  it('count only the URLs their pattern covers', async () => {
    expect(await statuses('127.0.0.13', 'scoped.example.com', 4, '/home')).toEqual([200, 200, 200, 200]);
    expect(await statuses('127.0.0.13', 'scoped.example.com', 3, '/api/items?x=1')).toEqual([200, 200, 929]);
    expect(statusOf(await send('127.0.0.13', 'scoped.example.com', { path: '/home' }))).toBe(200);
  });

  it('let the first rule in priority order decide when several are over their limits', async () => {
    expect(await statuses('127.0.0.15', 'priority.example.com', 2)).toEqual([200, 200]);
    await send('127.0.0.15', 'priority.example.com', { path: '/priority-third' });
    const line = (await firewallLogLines(edge, ['/priority-third'])).get('/priority-third');
    expect(line).toMatchObject({ status: '929', fw_kind: 'intervalLimit', fw_rule: '402', fw_action: 'deny' });
  });

  it('never count a whitelisted address', async () => {
    expect(await statuses('127.0.0.50', 'white.example.com', 5)).toEqual([200, 200, 200, 200, 200]);
    expect(await statuses('127.0.0.51', 'white.example.com', 2)).toEqual([200, 929]);
  });
});

describe('per-second limits', () => {
  it('let rate + burst at once through, slowed down to the rate, and refuse the next', async () => {
    // rate 4/s, burst 3: of five requests at once, four pass (after 0, 250, 500 and 750 ms: nginx's
    // limit_req without nodelay) and one is refused at once.
    const replies = await Promise.all(
      Array.from({ length: 5 }, (_, i) => send('127.0.0.20', 'rate.example.com', { path: `/burst-${i}` })),
    );
    const passed = replies.filter((r) => r !== 'closed' && r.status === 200) as Reply[];
    const refused = replies.filter((r) => r !== 'closed' && r.status === 929) as Reply[];
    expect(passed.length).toBe(4);
    expect(refused.length).toBe(1);
    for (const r of passed) expect(servedBy(r.body)).toBe('origin');
    const times = passed.map((r) => r.ms).sort((a, b) => a - b);
    // The first is not held: it answers at least two rate intervals (250 ms) before the fourth, which
    // is held to the rate (not before 750 ms, not a whole second's window more).
    const [first = 0, fourth = 0] = [times[0], times[3]];
    expect(fourth - first).toBeGreaterThan(500);
    expect(fourth).toBeGreaterThan(650);
    expect(fourth - first).toBeLessThan(1750);
    expect(refused[0]?.ms).toBeLessThan(times[3] ?? 0);
    // The slots drain at the rate: after the queue's 750 ms, one more request passes without waiting.
    await sleep(1000);
    const next = await send('127.0.0.20', 'rate.example.com');
    expect(statusOf(next)).toBe(200);
    // Not held: a held one waits at least a rate interval (250 ms).
    if (next !== 'closed') expect(next.ms).toBeLessThan(250);
  });

  it('let requests at the rate through one after another, each on time', async () => {
    // Sequential requests wait for their answers: each is delayed to the rate, none is refused.
    const started = performance.now();
    expect(await statuses('127.0.0.21', 'rate.example.com', 8)).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
    // Each on time: at 4/s the eight take about 2 s (each held a 250 ms slot); a rate read as 1/s
    // would take 7 s or more. 5 s leaves 3 s for a busy machine and still tells the two apart.
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('delay a request without changing its route (here the cache location)', async () => {
    const replies = await Promise.all(
      Array.from({ length: 3 }, () => send('127.0.0.22', 'cached.example.com', { path: '/cached-delay' })),
    );
    for (const r of replies) {
      expect(statusOf(r)).toBe(200);
      if (r !== 'closed') expect(r.headers['x-cache-status']).toBeDefined();
    }
    const slowest = Math.max(...replies.map((r) => (r === 'closed' ? 0 : r.ms)));
    expect(slowest).toBeGreaterThan(400);
  });

  it('keep an address refused for blockSeconds after it went over, then let it through again', async () => {
    // rate 2/s, no burst, blocked for 2 s: of two requests at once one passes, one is refused.
    const pair = await Promise.all([send('127.0.0.23', 'block.example.com'), send('127.0.0.23', 'block.example.com')]);
    expect(pair.map(statusOf).sort()).toEqual([200, 929]);
    const refusedAt = performance.now();
    // The bucket is empty again after 0.5 s; the ban holds.
    await sleep(800);
    expect(statusOf(await send('127.0.0.23', 'block.example.com'))).toBe(929);
    expect(statusOf(await send('127.0.0.24', 'block.example.com'))).toBe(200);
    await sleep(Math.max(0, refusedAt + 2300 - performance.now()));
    expect(statusOf(await send('127.0.0.23', 'block.example.com'))).toBe(200);
  });
});

describe('the access log', () => {
  it('names the kind, rule and action of a frequency decision', async () => {
    await statuses('127.0.0.30', 'drop.example.com', 2);
    await send('127.0.0.30', 'drop.example.com', { path: '/log-interval-drop' });
    const burst = Array.from({ length: 13 }, (_, i) => `/log-both-${i}`);
    await Promise.all(burst.map((path) => send('127.0.0.31', 'both.example.com', { path })));
    await send('127.0.0.32', 'rate.example.com', { path: '/log-undecided' });
    const uris = ['/log-interval-drop', '/log-undecided', ...burst];
    const lines = await firewallLogLines(edge, uris);
    expect(lines.get('/log-interval-drop')).toMatchObject({
      status: '444',
      fw_kind: 'intervalLimit',
      fw_rule: '201',
      fw_action: 'drop',
    });
    expect(lines.get('/log-undecided')).toMatchObject({ status: '200', fw_kind: '', fw_rule: '', fw_action: '' });
    // 13 at once, rate 5/s with a burst of 10: 11 pass (slowed down, undecided), two are dropped by
    // the per-second rule (the interval rule of the site counts them all and stays under its 100).
    // Of the two drops the first of the minute is logged, the other tallied (rampart.refusals).
    const both = burst.map((uri) => lines.get(uri));
    const dropped = both.filter((l) => l?.status === '444');
    for (const l of dropped) expect(l).toMatchObject({ fw_kind: 'secondLimit', fw_rule: '82', fw_action: 'drop' });
    const tallied = (await drainAllRefusals(edge.adminEndpoint)).tallies.filter((t) => t.ip === '127.0.0.31');
    for (const t of tallied)
      expect(t).toMatchObject({ fwKind: 'secondLimit', fwRule: 82, fwAction: 'drop', status: 444 });
    expect(dropped.length).toBeGreaterThanOrEqual(1);
    expect(dropped.length + tallied.reduce((sum, t) => sum + t.count, 0)).toBe(2);
    const passed = both.filter((l) => l?.status === '200');
    expect(passed.length).toBe(11);
    for (const l of passed) expect(l).toMatchObject({ fw_kind: '', fw_rule: '', fw_action: '' });
  });
});

describe('a change of rules', () => {
  it('takes effect on the next request after the push, without a reload', async () => {
    const workers = await edge.nginx.workerPids();
    const master = await edge.nginx.masterPid();
    expect(await statuses('127.0.0.40', 'plain.example.com', 3)).toEqual([200, 200, 200]);

    const limited = FIREWALLS.map((f) => (f.id === 1 ? siteFirewall(1, { intervals: [interval(101, 60, 1)] }) : f));
    const doc = plane('frequency-2', limited);
    doc.domains = doc.domains.map((d) => (d.name === 'plain.example.com' ? { ...d, firewallId: 1 } : d));
    await edge.push(doc);
    expect(await statuses('127.0.0.40', 'plain.example.com', 2)).toEqual([200, 929]);

    // Without the rule the address passes again.
    await edge.push(
      plane(
        'frequency-3',
        FIREWALLS.map((f) => (f.id === 1 ? siteFirewall(1, {}) : f)),
      ),
    );
    expect(await statuses('127.0.0.40', 'interval.example.com', 5)).toEqual([200, 200, 200, 200, 200]);

    expect(await edge.nginx.workerPids()).toEqual(workers);
    expect(await edge.nginx.masterPid()).toBe(master);
    await edge.push(plane('frequency-4'));
  });
});

describe('the Lua check of the frequency limits', () => {
  const base = FIREWALLS[0] as EdgeFirewall;
  const badInterval = (fields: Record<string, unknown>) => [
    { ...base, intervals: [{ ...interval(1, 2, 3), ...fields }] },
  ];
  const badRate = (fields: Record<string, unknown>) => [{ ...base, rates: [{ ...rate(1, 2, 3), ...fields }] }];

  it.each([
    ['an interval of 0 seconds', badInterval({ seconds: 0 }), 'firewalls[0].intervals[0].seconds'],
    ['an interval of 86,401 seconds', badInterval({ seconds: 86_401 }), 'firewalls[0].intervals[0].seconds'],
    ['a fractional number of seconds', badInterval({ seconds: 1.5 }), 'firewalls[0].intervals[0].seconds'],
    ['times of 1,000,001', badInterval({ times: 1_000_001 }), 'firewalls[0].intervals[0].times'],
    ['times as text', badInterval({ times: '3' }), 'firewalls[0].intervals[0].times'],
    ['an interval without an id', badInterval({ id: 0 }), 'firewalls[0].intervals[0].id'],
    ['an interval with a bad URL', badInterval({ url: 'a b' }), 'firewalls[0].intervals[0].url'],
    ['an interval that allows', badInterval({ action: 'allow' }), 'firewalls[0].intervals[0].action'],
    ['a rate of 0', badRate({ rate: 0 }), 'firewalls[0].rates[0].rate'],
    ['a rate of 100,001', badRate({ rate: 100_001 }), 'firewalls[0].rates[0].rate'],
    ['a negative burst', badRate({ burst: -1 }), 'firewalls[0].rates[0].burst'],
    ['blockSeconds of 86,401', badRate({ blockSeconds: 86_401 }), 'firewalls[0].rates[0].blockSeconds'],
    ['a rate without blockSeconds', badRate({ blockSeconds: undefined }), 'firewalls[0].rates[0].blockSeconds'],
    ['a rate whose regex does not compile', badRate({ url: '(a' }), 'firewalls[0].rates[0].url'],
    ['a rate that challenges', badRate({ action: 'captcha' }), 'firewalls[0].rates[0].action'],
    ['intervals that are not a list', [{ ...base, intervals: 'all' }], 'firewalls[0].intervals'],
    ['rates that are not a list', [{ ...base, rates: { 0: rate(1, 2, 3) } }], 'firewalls[0].rates'],
  ])('refuses %s with the field', async (_label, firewalls, field) => {
    const doc = { ...plane('frequency-bad'), firewalls } as unknown as DataPlane;
    doc.domains = doc.domains.filter((d) => d.firewallId === null || d.firewallId === 1);
    const res = await edge.putRaw(JSON.stringify(doc));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  it('reads a firewall without the lists (a document from before them) as one without limits', async () => {
    const {
      intervals: _i,
      rates: _r,
      ...older
    } = siteFirewall(1, {
      blacklist: [{ id: 1, url: '.*', methods: ['POST'], action: 'deny', ...ipListRanges(['0.0.0.0/0']) }],
    });
    const doc = plane('frequency-older');
    doc.domains = doc.domains.filter((d) => d.firewallId === null || d.firewallId === 1);
    const res = await edge.putRaw(JSON.stringify({ ...doc, firewalls: [older] }));
    expect(res.status).toBe(200);
    expect(await statuses('127.0.0.41', 'interval.example.com', 5)).toEqual([200, 200, 200, 200, 200]);
    await edge.push(plane('frequency-5'));
  });
});
