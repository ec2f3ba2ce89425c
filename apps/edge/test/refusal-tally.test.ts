import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type EdgeFirewall, ipListRanges, type RefusalTally } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainAllRefusals, drainRefusalPage } from '../src/agent/events/refusal-drain.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { sendFrom, sendStatus } from './helpers/send.js';

// A flood of refusals costs one access-log line: of the refusals one address gets from one domain
// for one decision in one minute, nginx logs the first whole and counts the rest in a shared dict
// (lua/rampart/refusals.lua), which the agent drains (GET /refusals, agent/refusal-drain.ts).

const ALL_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS'];

function firewall(id: number, rules: [number, 'deny' | 'drop', string[]][]): EdgeFirewall {
  return {
    id,
    whitelist: [],
    blacklist: rules.map(([ruleId, action, ips]) => ({
      id: ruleId,
      url: '.*',
      methods: ALL_METHODS,
      action,
      ...ipListRanges(ips),
    })),
    userAgents: [],
    headers: [],
    intervals: [],
    rates: [],
    antiCC: [],
  };
}

interface LogLine {
  msec: string;
  remote_addr: string;
  uri: string;
  status: string;
  domain_id: string;
  fw_kind: string;
  fw_rule: string;
  fw_action: string;
  request_length: string;
  bytes_sent: string;
}

/** One flood: `count` requests from `from` for `host`, paths of one length (`/<tag>-0000`, ...). */
interface Flood {
  from: string;
  host: string;
  tag: string;
  count: number;
  domainId: number;
  rule: number;
  action: 'deny' | 'drop';
  /** The body's length of each answer the flood got (0 for a dropped connection), by request. */
  bodies?: number[];
}

let origin: http.Server;
let originPort: number;

async function logLines(edge: Edge): Promise<LogLine[]> {
  return (await edge.accessLog())
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LogLine);
}

const pathOf = (tag: string, i: number) => `/${tag}-${String(i).padStart(4, '0')}`;

async function flood(port: number, f: Flood): Promise<void> {
  f.bodies = [];
  for (let i = 0; i < f.count; i++) {
    const answer = await sendFrom(f.from, port, f.host, { path: pathOf(f.tag, i) });
    expect(answer === 'closed' ? 444 : answer.status).toBe(f.action === 'drop' ? 444 : 403);
    f.bodies.push(answer === 'closed' ? 0 : answer.bytes.length);
  }
}

/**
 * The bytes nginx sent for request `i` of a flood, from its logged first request: every answer has
 * the same headers and page but for the page's request id (its serial's digits), so it differs from
 * the sample's by its body's length, and by that length's digits in Content-Length.
 */
function bytesSentOf(f: Flood, i: number, sample: LogLine, sampleIndex: number): number {
  const body = f.bodies?.[i] ?? 0;
  const sampleBody = f.bodies?.[sampleIndex] ?? 0;
  const digits = (n: number) => (n === 0 ? 0 : String(n).length);
  return Number(sample.bytes_sent) + (body - sampleBody) + (digits(body) - digits(sampleBody));
}

/**
 * Drains the tallies and reads the log until every flood's requests are all accounted for (logged
 * or tallied; the log is flushed every second per worker), then checks each flood: the first
 * request of each minute logged whole, the rest tallied under the flood's key with its bytes.
 */
async function expectAccounted(edge: Edge, floods: Flood[], passed: string[]): Promise<void> {
  const tallies: RefusalTally[] = [];
  let lines: LogLine[] = [];
  const linesOf = (f: Flood) => lines.filter((l) => l.uri.startsWith(`/${f.tag}-`));
  const talliesOf = (f: Flood) =>
    tallies.filter(
      (t) => t.ip === f.from && t.domainId === f.domainId && t.fwRule === f.rule && t.fwAction === f.action,
    );
  const counted = (f: Flood) => linesOf(f).length + talliesOf(f).reduce((sum, t) => sum + t.count, 0);
  for (let i = 0; i < 100; i++) {
    const drained = await drainAllRefusals(edge.adminEndpoint);
    expect(drained.dropped).toBe(0);
    tallies.push(...drained.tallies);
    lines = await logLines(edge);
    const passedSeen = passed.every((uri) => lines.some((l) => l.uri === uri));
    if (passedSeen && floods.every((f) => counted(f) >= f.count)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const uri of passed)
    expect(
      lines.filter((l) => l.uri === uri),
      uri,
    ).toHaveLength(1);
  for (const f of floods) {
    const logged = linesOf(f);
    const minutes = new Set(logged.map((l) => Math.floor(Number(l.msec) / 60) * 60_000));
    // One line per minute the flood ran in (one, unless it crossed a minute's end): its first request.
    expect(logged.length, f.tag).toBe(minutes.size);
    expect(logged[0]?.uri).toBe(pathOf(f.tag, 0));
    for (const line of logged) {
      expect(line).toMatchObject({
        remote_addr: f.from,
        domain_id: String(f.domainId),
        fw_rule: String(f.rule),
        fw_action: f.action,
        fw_kind: 'blacklist',
        status: f.action === 'drop' ? '444' : '403',
      });
    }
    const mine = talliesOf(f);
    expect(
      mine.reduce((sum, t) => sum + t.count, 0),
      f.tag,
    ).toBe(f.count - logged.length);
    const sample = logged[0] as LogLine;
    for (const t of mine) {
      expect(minutes.has(t.minute), `${f.tag} minute`).toBe(true);
      expect(t).toMatchObject({ fwKind: 'blacklist', status: f.action === 'drop' ? 444 : 403 });
      // Every request of a flood has the same length.
      expect(t.bytesIn).toBe(t.count * Number(sample.request_length));
      expect(t.last).toBeGreaterThanOrEqual(Number(sample.msec) * 1000 - 1);
    }
    // The answers' bytes: each tallied request's own (its page's request id varies in length).
    const loggedIndexes = new Set(logged.map((l) => Number(l.uri.slice(l.uri.lastIndexOf('-') + 1))));
    let tallied = 0;
    for (let i = 0; i < f.count; i++) if (!loggedIndexes.has(i)) tallied += bytesSentOf(f, i, sample, 0);
    expect(
      mine.reduce((sum, t) => sum + t.bytesOut, 0),
      `${f.tag} bytes sent`,
    ).toBe(tallied);
  }
  // Nothing but these floods was tallied.
  const known = tallies.filter((t) => floods.some((f) => t.ip === f.from && t.fwRule === f.rule));
  expect(known).toHaveLength(tallies.length);
}

beforeAll(async () => {
  origin = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('origin'));
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => origin?.close(resolve));
});

describe('refusal tallies (IPv4)', () => {
  let edge: Edge;
  beforeAll(async () => {
    edge = await startEdge({ refusalTallies: true });
    const to = [upstream(originPort)];
    await edge.push(
      document(
        'tally-v4',
        [domain(1, 'deny.example.com', to, { firewallId: 1 }), domain(2, 'other.example.com', to, { firewallId: 2 })],
        [],
        [],
        {
          firewalls: [
            firewall(1, [
              [11, 'deny', ['127.0.0.2']],
              [12, 'drop', ['127.0.0.3']],
            ]),
            firewall(2, [[21, 'deny', ['127.0.0.2', '127.0.0.4']]]),
          ],
        },
      ),
    );
  });
  afterAll(async () => {
    await edge?.stop();
  });

  it('logs the first refusal of each address, domain and rule, tallies the rest, and logs every passed request', async () => {
    const floods: Flood[] = [
      { from: '127.0.0.2', host: 'deny.example.com', tag: 'a', count: 40, domainId: 1, rule: 11, action: 'deny' },
      { from: '127.0.0.3', host: 'deny.example.com', tag: 'b', count: 25, domainId: 1, rule: 12, action: 'drop' },
      { from: '127.0.0.2', host: 'other.example.com', tag: 'c', count: 15, domainId: 2, rule: 21, action: 'deny' },
      { from: '127.0.0.4', host: 'other.example.com', tag: 'd', count: 1, domainId: 2, rule: 21, action: 'deny' },
    ];
    for (const f of floods) await flood(edge.httpPort, f);
    const passed: string[] = [];
    for (let i = 0; i < 20; i++) {
      const uri = pathOf('pass', i);
      const answer = await sendFrom('127.0.0.1', edge.httpPort, i % 2 ? 'deny.example.com' : 'other.example.com', {
        path: uri,
      });
      expect(answer === 'closed' ? 'closed' : answer.status).toBe(200);
      passed.push(uri);
    }
    await expectAccounted(edge, floods, passed);
    // A drain pops: nothing is left for the next one.
    expect(await drainRefusalPage(edge.adminEndpoint)).toEqual({ tallies: [], more: false, dropped: 0 });
  });

  it('refuses a drain without the admin secret', async () => {
    const wrong = { ...edge.adminEndpoint, secret: '0'.repeat(64) };
    await expect(drainRefusalPage(wrong)).rejects.toThrow(/401/);
  });
});

describe('refusal tallies (IPv6)', () => {
  let edge6: Edge;
  beforeAll(async () => {
    edge6 = await startEdge({ listenAddress: '::1', workerProcesses: 1, refusalTallies: true });
    await edge6.push(
      document('tally-v6', [domain(1, 'deny.example.com', [upstream(originPort)], { firewallId: 1 })], [], [], {
        firewalls: [firewall(1, [[31, 'drop', ['::1']]])],
      }),
    );
  });
  afterAll(async () => {
    await edge6?.stop();
  });

  it('tallies an IPv6 address the same way', async () => {
    const f: Flood = {
      from: '::1',
      host: 'deny.example.com',
      tag: 'v6',
      count: 30,
      domainId: 1,
      rule: 31,
      action: 'drop',
    };
    for (let i = 0; i < f.count; i++) {
      const answer = await sendV6(edge6.httpPort, f.host, pathOf(f.tag, i));
      expect(answer).toBe('closed');
    }
    await expectAccounted(edge6, [f], []);
  });
});

/** sendFrom for an edge listening on ::1. */
const sendV6 = (port: number, host: string, path: string) => sendStatus('::1', port, host, { path, to: '::1' });
