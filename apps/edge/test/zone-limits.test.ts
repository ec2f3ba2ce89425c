import net from 'node:net';
import tls from 'node:tls';
import type { EdgeZoneLimits, RefusalTally } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainRefusalPage } from '../src/agent/events/refusal-drain.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { sendStatus } from './helpers/send.js';

// Zone limits (docs/decisions.md "Zone limits", rampart.limits) through a real nginx. Counters are
// per client IP and node: every case connects from its own loopback address (127.0.0.x), so the
// cases do not share counters or bans.

let edge: Edge;
let origin: Origin;
const KNOWN = 'known.example.com';

async function pushLimits(version: string, limits: Omit<EdgeZoneLimits, 'challengeWorkBits'>) {
  await edge.push(
    document(version, [domain(1, KNOWN, [upstream(origin.port)])], [], [], {
      limits: { ...limits, challengeWorkBits: 21 },
    }),
  );
}

/** One HTTP request from `from` on a new connection: its status, or 'closed' when nothing came back. */
const get = (from: string, host: string) => sendStatus(from, edge.httpPort, host);

/** One full TLS handshake from `from` (new connection, no session to resume): true when it completed. */
function handshake(from: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const tcp = net.connect({ host: '127.0.0.1', port: edge.httpsPort, localAddress: from });
    const socket = tls.connect({ socket: tcp, servername: KNOWN, rejectUnauthorized: false }, () => {
      socket.end();
      resolve(true);
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error('handshake timed out')));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.message.includes('timed out')) reject(err);
      else resolve(false);
    });
  });
}

async function times<T>(n: number, fn: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(await fn());
  return out;
}

beforeAll(async () => {
  origin = await startOrigin('origin');
  edge = await startEdge({ refusalTallies: true });
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

describe('the unknown-host limit', () => {
  it('closes the request over the limit and then every request of that IP, to any host', async () => {
    await pushLimits('limits-invalid-3', { invalidDomainPerMinute: 3, tlsHandshakesPerMinute: 0 });
    const scanner = '127.0.0.11';
    expect(await get(scanner, KNOWN)).toBe(200);
    expect(await times(3, () => get(scanner, 'random-1.example.net'))).toEqual([404, 404, 404]);
    expect(await get(scanner, 'random-2.example.net')).toBe('closed');
    expect(await get(scanner, KNOWN)).toBe('closed');
    // Another address is neither counted with it nor banned.
    expect(await get('127.0.0.12', KNOWN)).toBe(200);
    expect(await get('127.0.0.12', 'random-3.example.net')).toBe(404);

    // The closed requests are accounted with nginx's 444, like the edge's other answers: the first
    // of the minute in the access log, the next in the refusal tallies (rampart.refusals), which
    // name no domain (the limit refuses before the host is looked at).
    let closed: { host: string; status: string }[] = [];
    const tallied: RefusalTally[] = [];
    for (let i = 0; i < 40 && closed.length + tallied.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 100)); // the access log is buffered with flush=1s
      tallied.push(...(await drainRefusalPage(edge.adminEndpoint)).tallies);
      closed = (await edge.accessLog())
        .split('\n')
        .filter((line) => line.includes(scanner))
        .map((line) => JSON.parse(line) as { remote_addr: string; host: string; status: string })
        .filter((entry) => entry.remote_addr === scanner && entry.status === '444');
    }
    expect(closed.map((e) => e.host)).toContain('random-2.example.net');
    expect(closed.length + tallied.reduce((sum, t) => sum + t.count, 0)).toBe(2);
    for (const t of tallied)
      expect(t).toMatchObject({ ip: scanner, domainId: 0, fwKind: '', fwAction: '', status: 444 });
    expect(await edge.errorLog()).toContain(`rampart limits: ${scanner} sent more than 3 requests for unknown hosts`);
  });

  it('answers every unknown host while the limit is 0', async () => {
    await pushLimits('limits-invalid-0', { invalidDomainPerMinute: 0, tlsHandshakesPerMinute: 0 });
    const from = '127.0.0.13';
    const answers = await times(20, () => get(from, 'random-4.example.net'));
    expect(answers).toEqual(Array(20).fill(404));
    expect(await get(from, KNOWN)).toBe(200);
  });
});

describe('the TLS handshake limit', () => {
  it('aborts the handshake over the limit, for that IP only', async () => {
    await pushLimits('limits-tls-3', { invalidDomainPerMinute: 0, tlsHandshakesPerMinute: 3 });
    const from = '127.0.0.21';
    expect(await times(4, () => handshake(from))).toEqual([true, true, true, false]);
    expect(await handshake(from)).toBe(false);
    expect(await handshake('127.0.0.22')).toBe(true);
    expect(await edge.errorLog()).toContain('rampart limits: 127.0.0.21 made more than 3 TLS handshakes');
  });

  it('lets every handshake through while the limit is 0', async () => {
    await pushLimits('limits-tls-0', { invalidDomainPerMinute: 0, tlsHandshakesPerMinute: 0 });
    expect(await times(10, () => handshake('127.0.0.23'))).toEqual(Array(10).fill(true));
  });
});

describe('the Lua check of the limits', () => {
  it.each([
    [{ invalidDomainPerMinute: -1, tlsHandshakesPerMinute: 0 }, 'limits.invalidDomainPerMinute'],
    [{ invalidDomainPerMinute: 1.5, tlsHandshakesPerMinute: 0 }, 'limits.invalidDomainPerMinute'],
    [{ invalidDomainPerMinute: 0, tlsHandshakesPerMinute: 100001 }, 'limits.tlsHandshakesPerMinute'],
    [{ invalidDomainPerMinute: 0, tlsHandshakesPerMinute: '3' }, 'limits.tlsHandshakesPerMinute'],
    [{ invalidDomainPerMinute: 0, tlsHandshakesPerMinute: 0, challengeWorkBits: 15 }, 'limits.challengeWorkBits'],
    [{ invalidDomainPerMinute: 0, tlsHandshakesPerMinute: 0, challengeWorkBits: 25 }, 'limits.challengeWorkBits'],
    [{ invalidDomainPerMinute: 0, tlsHandshakesPerMinute: 0, challengeWorkBits: 20.5 }, 'limits.challengeWorkBits'],
    [[1, 2], 'limits'],
    ['3', 'limits'],
  ])('refuses %j', async (limits, field) => {
    const body = { ...document('limits-bad', [domain(1, KNOWN, [upstream(origin.port)])]), limits };
    const res = await edge.putRaw(JSON.stringify(body));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  it('takes a document without limits as both off', async () => {
    const { limits: _omitted, ...older } = document('limits-absent', [domain(1, KNOWN, [upstream(origin.port)])]);
    expect((await edge.putRaw(JSON.stringify(older))).status).toBe(200);
    expect(await times(8, () => get('127.0.0.31', 'random-5.example.net'))).toEqual(Array(8).fill(404));
  });
});
