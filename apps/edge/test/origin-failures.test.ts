import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Domain } from '../src/data-plane/schema.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { freePort, request } from './helpers/net.js';

// Every way an origin can fail a request on a real nginx ends in the edge's own 502 page with the
// request id a customer can quote, and in an access-log line whose status and upstream status are
// both 502: what the log search's decision column reads as "origin failed". None ends in 500, the
// status of a fault of the edge itself: not the balancer finding no address (a host name that
// resolves to none an origin may have), not every upstream refusing, not an origin that answers
// garbage or hangs up.

let edge: Edge;
let closedPort: number;
let garbage: net.Server;
let hangUp: net.Server;

/** A TCP server on loopback that treats each connection with `onConnection`. */
async function tcpServer(onConnection: (socket: net.Socket) => void): Promise<net.Server> {
  const server = net.createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** The origin as the agent sends it when its host names resolved to no allowed address (lua-plane.ts). */
const UNRESOLVED: Partial<NonNullable<Domain['origin']>> & { unresolved: true } = { unresolved: true };

const portOf = (server: net.Server) => (server.address() as net.AddressInfo).port;

beforeAll(async () => {
  closedPort = await freePort();
  // A status line, then a header line without a colon (a response without a valid status line
  // would be passed on as HTTP/0.9 by nginx, not refused).
  garbage = await tcpServer((s) => s.end('HTTP/1.1 200 OK\r\nnot a header\r\n\r\n'));
  hangUp = await tcpServer((s) => s.once('data', () => s.destroy()));
  edge = await startEdge();
  await edge.push(
    document('origin-failures', [
      // A host name origin whose name resolved to no allowed address: the agent sends no upstream.
      domain(1, 'unresolved.example.com', [], { origin: UNRESOLVED }),
      domain(2, 'refused.example.com', [upstream(closedPort)]),
      domain(3, 'all-refused.example.com', [upstream(closedPort), upstream(closedPort, { ip: '127.0.0.2' })]),
      domain(4, 'backup-refused.example.com', [upstream(closedPort), upstream(closedPort, { backup: true })]),
      domain(5, 'hashed-refused.example.com', [upstream(closedPort), upstream(closedPort, { ip: '127.0.0.3' })], {
        origin: { balance: 'ip_hash' },
      }),
      domain(6, 'garbage.example.com', [upstream(portOf(garbage))]),
      domain(7, 'hang-up.example.com', [upstream(portOf(hangUp))]),
      // An HTTPS origin that speaks plain HTTP: the TLS handshake fails.
      domain(8, 'tls.example.com', [upstream(portOf(garbage))], { origin: { scheme: 'https' } }),
    ]),
  );
}, 30_000);

afterAll(async () => {
  await edge?.stop();
  garbage?.close();
  hangUp?.close();
});

/** The access-log line of the request to `path` (the log is flushed every second: wait for it). */
async function logLine(path: string): Promise<Record<string, string>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const line = (await edge.accessLog())
      .split('\n')
      .filter((l) => l.includes(path))
      .map((l) => JSON.parse(l) as Record<string, string>)[0];
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`no access-log line for ${path}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('an origin that fails the request', () => {
  it.each([
    ['its host name resolves to no address an origin may have', 'unresolved.example.com'],
    ['its one upstream refuses the connection', 'refused.example.com'],
    ['every upstream refuses the connection', 'all-refused.example.com'],
    ['the primary and the backup refuse the connection', 'backup-refused.example.com'],
    ['every upstream of an ip_hash origin refuses the connection', 'hashed-refused.example.com'],
    ['the origin answers an invalid header', 'garbage.example.com'],
    ['the origin closes the connection without an answer', 'hang-up.example.com'],
    ['the TLS handshake with the origin fails', 'tls.example.com'],
  ])('answers the edge 502 page with the request id, logged as the origin failing: %s', async (_label, host) => {
    const path = `/failing-${host}`;
    const answer = await request(edge.httpPort, host, path);
    expect(answer.status).toBe(502);
    expect(answer.body).toContain('Bad gateway');
    const line = await logLine(path);
    expect(line.status).toBe('502');
    // The last attempt's upstream status is what the log search keeps (event-line.ts lastOf).
    expect(line.upstream_status?.split(/[,:]/).at(-1)?.trim()).toBe('502');
    expect(line.request_id).toMatch(/^edge-\d+-[0-9a-f]+-\d+$/);
    expect(answer.body).toContain(line.request_id);
  });

  it('names the cause in the error log when no address is left', async () => {
    await request(edge.httpPort, 'unresolved.example.com', '/cause');
    expect(await edge.errorLog()).toContain(
      'domain 1 has no upstream (its host names resolve to no address an origin may have)',
    );
  });
});
