import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRequest } from '../src/data-plane/admin-client.js';
import type { DataPlane } from '../src/data-plane/schema.js';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import { listeningTcpPorts } from './helpers/sockets.js';

// A customer's origin can be any IP and port the control plane lets through (with
// RAMPART_ALLOW_PRIVATE_ORIGINS=1, loopback too). Whatever it is, it must not reach the node's admin
// endpoint (which would let a customer replace every tenant's data plane) nor the node's own
// listening sockets (a request loop through nginx). The balancer refuses such an upstream: the
// request fails like every origin the balancer will not use, with the edge's 502 page, and reaches
// no origin.

let edge: Edge;
let victim: Origin;
let attacker: Origin;

/** The node's data plane: the victim's domain and the customer's, whose origin is `ip`:`port`. */
function plane(version: string, ip: string, port: number, portMap = false): DataPlane {
  return document(version, [
    domain(1, 'victim.example.com', [upstream(victim.port)]),
    domain(2, 'evil.example.com', [upstream(port, { ip })], { origin: { portMap } }),
  ]);
}

/** What an attacker would PUT: the victim's domain sent to the attacker's origin. */
function hijack(): string {
  return JSON.stringify(document('hijacked', [domain(1, 'victim.example.com', [upstream(attacker.port)])]));
}

async function activeVersion(): Promise<unknown> {
  return (await edge.admin('/config/version')).body.version;
}

beforeAll(async () => {
  [victim, attacker] = await Promise.all([startOrigin('victim'), startOrigin('attacker')]);
  edge = await startEdge();
});

afterAll(async () => {
  await edge?.stop();
  await victim?.close();
  await attacker?.close();
});

describe("the node's admin endpoint", () => {
  it('is a unix socket in a directory only its owner may enter: nginx listens on no TCP port but the public ones', async () => {
    const master = await edge.nginx.masterPid();
    expect(await listeningTcpPorts(master ?? 0)).toEqual([edge.httpPort, edge.httpsPort].sort((a, b) => a - b));
    const dir = await stat(path.dirname(edge.adminEndpoint.socketPath));
    expect(dir.mode & 0o777).toBe(0o700);
    expect((await stat(edge.adminEndpoint.socketPath)).isSocket()).toBe(true);
  });

  it("refuses a request without the node's secret, or with another", async () => {
    await edge.push(plane('guarded', '127.0.0.1', victim.port));
    for (const secret of ['', 'a'.repeat(64), edge.adminEndpoint.secret.slice(1)]) {
      const endpoint = { ...edge.adminEndpoint, secret };
      const put = await adminRequest(endpoint, 'PUT', '/config', hijack());
      expect(put.status).toBe(401);
      expect((await adminRequest(endpoint, 'GET', '/config/version')).status).toBe(401);
      expect((await adminRequest(endpoint, 'POST', '/cache/purge', '{"urls":[]}')).status).toBe(401);
    }
    expect(await activeVersion()).toBe('guarded');
  });

  it('cannot be reached through a customer origin on any TCP socket nginx listens on', async () => {
    const master = await edge.nginx.masterPid();
    const ports = await listeningTcpPorts(master ?? 0);
    expect(ports.length).toBeGreaterThan(0);
    for (const port of ports) {
      const version = `through-${port}`;
      await edge.push(plane(version, '127.0.0.1', port));
      const answer = await request(edge.httpPort, 'evil.example.com', '/config', {
        method: 'PUT',
        body: hijack(),
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status).toBe(502);
      expect(await activeVersion()).toBe(version);
      expect(servedBy((await request(edge.httpPort, 'victim.example.com')).body)).toBe('victim');
    }
    expect(attacker.seen).toEqual([]);
  });
});

describe("a customer origin that is the node's own listening socket", () => {
  it.each([
    ['the HTTP listen port', '127.0.0.1', () => edge.httpPort, false],
    ['the HTTPS listen port', '127.0.0.1', () => edge.httpsPort, false],
    ['the listen port in IPv4-mapped form', '::ffff:127.0.0.1', () => edge.httpPort, false],
    ['the listen port in IPv4-mapped hex form', '::ffff:7f00:1', () => edge.httpPort, false],
    ['the listen port on the unspecified address', '0.0.0.0', () => edge.httpPort, false],
    ['the port map on the listen address', '127.0.0.1', () => 1, true],
  ])('is refused: %s', async (_label, ip, port, portMap) => {
    const version = `self-${ip}-${port()}-${portMap}`;
    await edge.push(plane(version, ip, port(), portMap));
    const before = victim.seen.length;
    const answer = await request(edge.httpPort, 'evil.example.com', '/loop');
    expect(answer.status).toBe(502);
    // One request in, none looped back through nginx to the victim or anywhere.
    expect(victim.seen.length).toBe(before);
    expect(await edge.errorLog()).toMatch(/upstream .* of domain 2 is this node's own listening socket: refused/);
    expect(servedBy((await request(edge.httpPort, 'victim.example.com')).body)).toBe('victim');
  });

  it('keeps loopback origins on other ports (test rigs) and other loopback addresses working', async () => {
    await edge.push(plane('other-port', '127.0.0.1', attacker.port));
    expect(servedBy((await request(edge.httpPort, 'evil.example.com')).body)).toBe('attacker');
  });
});
