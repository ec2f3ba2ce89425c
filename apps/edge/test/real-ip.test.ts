import net from 'node:net';
import { type EdgeFirewall, ipListRanges } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { type Origin, startOrigin } from './helpers/origins.js';

// The visitor's address behind proxies (the zone's trust setting, routes/zone-trust.ts, rendered by
// render.ts realIpLines): a trusted proxy's X-Forwarded-For or PROXY protocol address is the client
// every IP rule sees; anyone else's is ignored. Requests come from distinct loopback addresses.

const VISITOR = '10.9.9.9';
const TRUSTED = '127.0.0.2';
const UNTRUSTED = '127.0.0.3';

const firewall: EdgeFirewall = {
  id: 1,
  whitelist: [],
  blacklist: [{ id: 11, url: '.*', methods: ['GET'], action: 'deny', ...ipListRanges([VISITOR]) }],
  userAgents: [],
  headers: [],
  intervals: [],
  rates: [],
  antiCC: [],
};

let origin: Origin;

/** Sends raw bytes from `from` and returns the status line's code, or 'closed' without an answer. */
function raw(port: number, from: string, bytes: string): Promise<number | 'closed'> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress: from });
    let answer = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('timed out')));
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' ? resolve('closed') : reject(err)));
    socket.on('close', () => {
      const match = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      resolve(match ? Number(match[1]) : 'closed');
    });
  });
}

const get = (headers: Record<string, string> = {}) =>
  `GET / HTTP/1.1\r\nHost: www.example.com\r\nConnection: close\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;

async function edgeWith(realIp: {
  trusted: string[];
  header?: 'X-Forwarded-For' | 'X-Real-IP';
  proxyProtocol?: boolean;
}) {
  const edge = await startEdge({
    workerProcesses: 1,
    realIp: { header: 'X-Forwarded-For', proxyProtocol: false, ...realIp },
  });
  await edge.push(
    document('real-ip-1', [domain(1, 'www.example.com', [upstream(origin.port)], { firewallId: 1 })], [], [], {
      firewalls: [firewall],
    }),
  );
  return edge;
}

beforeAll(async () => {
  origin = await startOrigin('origin');
});
afterAll(async () => {
  await origin?.close();
});

describe('X-Forwarded-For from trusted proxies', () => {
  let edge: Edge;
  beforeAll(async () => {
    edge = await edgeWith({ trusted: [TRUSTED, '192.0.2.0/24'] });
  });
  afterAll(async () => edge?.stop());

  it("takes a trusted proxy's X-Forwarded-For as the client, for the firewall and the access log", async () => {
    expect(await raw(edge.httpPort, TRUSTED, get({ 'X-Forwarded-For': VISITOR }))).toBe(403);
    expect(await raw(edge.httpPort, TRUSTED, get({ 'X-Forwarded-For': '10.9.9.10' }))).toBe(200);
    await new Promise((r) => setTimeout(r, 1300)); // the access log is flushed every second
    const lines = (await edge.accessLog())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { remote_addr: string; status: string });
    expect(lines.map((l) => [l.remote_addr, l.status])).toEqual([
      [VISITOR, '403'],
      ['10.9.9.10', '200'],
    ]);
  });

  it('ignores the header from anyone else', async () => {
    expect(await raw(edge.httpPort, UNTRUSTED, get({ 'X-Forwarded-For': VISITOR }))).toBe(200);
    expect(await raw(edge.httpPort, UNTRUSTED, get({ 'X-Real-IP': VISITOR }))).toBe(200);
  });

  it('takes the right-most address no trusted proxy added: a forged first entry does not pass as the visitor', async () => {
    // The visitor claims to be 198.51.100.7; the proxy appended the address it saw.
    expect(await raw(edge.httpPort, TRUSTED, get({ 'X-Forwarded-For': `198.51.100.7, ${VISITOR}` }))).toBe(403);
    expect(await raw(edge.httpPort, TRUSTED, get({ 'X-Forwarded-For': `${VISITOR}, 198.51.100.7` }))).toBe(200);
    // Hops through trusted proxies are skipped.
    expect(await raw(edge.httpPort, TRUSTED, get({ 'X-Forwarded-For': `${VISITOR}, 192.0.2.10` }))).toBe(403);
  });
});

describe('X-Real-IP', () => {
  let edge: Edge;
  beforeAll(async () => {
    edge = await edgeWith({ trusted: [TRUSTED], header: 'X-Real-IP' });
  });
  afterAll(async () => edge?.stop());

  it('reads the chosen header only', async () => {
    expect(await raw(edge.httpPort, TRUSTED, get({ 'X-Real-IP': VISITOR }))).toBe(403);
    expect(await raw(edge.httpPort, TRUSTED, get({ 'X-Forwarded-For': VISITOR }))).toBe(200);
  });
});

describe('the PROXY protocol', () => {
  let edge: Edge;
  beforeAll(async () => {
    edge = await edgeWith({ trusted: [TRUSTED], proxyProtocol: true });
  });
  afterAll(async () => edge?.stop());

  const proxied = (address: string) => `PROXY TCP4 ${address} 127.0.0.1 40000 80\r\n${get()}`;

  it("takes a trusted proxy's PROXY address as the client", async () => {
    expect(await raw(edge.httpPort, TRUSTED, proxied(VISITOR))).toBe(403);
    expect(await raw(edge.httpPort, TRUSTED, proxied('10.9.9.10'))).toBe(200);
  });

  it('keeps the connection address when the sender is not trusted, and ignores headers', async () => {
    expect(await raw(edge.httpPort, UNTRUSTED, proxied(VISITOR))).toBe(200);
    const withHeader = `PROXY TCP4 10.9.9.10 127.0.0.1 40000 80\r\n${get({ 'X-Forwarded-For': VISITOR })}`;
    expect(await raw(edge.httpPort, TRUSTED, withHeader)).toBe(200);
  });

  it('refuses a connection that does not start with a PROXY header', async () => {
    expect(await raw(edge.httpPort, TRUSTED, get())).not.toBe(200);
  });
});
