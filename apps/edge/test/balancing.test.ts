import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { freePort, request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';

let edge: Edge;
let p1: Origin;
let p2: Origin;
let backup: Origin;
let v6: Origin;
let hanging: Origin;
let closedPort: number;

beforeAll(async () => {
  [p1, p2, backup, hanging] = await Promise.all([
    startOrigin('p1'),
    startOrigin('p2'),
    startOrigin('backup'),
    startOrigin('hanging', { hang: true }),
  ]);
  v6 = await startOrigin('v6', { address: '::1' });
  closedPort = await freePort();
  // A connect timeout far beyond the read timeout: a refusal answers before either, a hanging origin at the read timeout.
  edge = await startEdge({ proxyReadTimeoutSeconds: 1, proxyConnectTimeoutSeconds: 30 });
});

afterAll(async () => {
  await edge?.stop();
  await Promise.all([p1, p2, backup, v6, hanging].map((o) => o?.close()));
});

async function tally(host: string, count: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const answer = await request(edge.httpPort, host);
    const key = answer.status === 200 ? (servedBy(answer.body) ?? 'unknown') : `status ${answer.status}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

describe('weighted round robin', () => {
  it('splits 400 requests 3:1 by weight within ±10%', async () => {
    await edge.push(
      document('weights', [
        domain(1, 'weighted.example.com', [upstream(p1.port, { weight: 3 }), upstream(p2.port, { weight: 1 })]),
      ]),
    );
    const counts = await tally('weighted.example.com', 400);
    expect(Math.abs((counts.p1 ?? 0) - 300)).toBeLessThanOrEqual(30);
    expect(Math.abs((counts.p2 ?? 0) - 100)).toBeLessThanOrEqual(10);
    expect((counts.p1 ?? 0) + (counts.p2 ?? 0)).toBe(400);
  });

  it('reaches an IPv6 literal upstream', async () => {
    await edge.push(document('ipv6', [domain(2, 'v6.example.com', [upstream(v6.port, { ip: '::1' })])]));
    const answer = await request(edge.httpPort, 'v6.example.com');
    expect(answer.status).toBe(200);
    expect(servedBy(answer.body)).toBe('v6');
  });

  it('keeps one client on one upstream with ip_hash', async () => {
    await edge.push(
      document('hash', [
        domain(3, 'hash.example.com', [upstream(p1.port), upstream(p2.port)], { origin: { balance: 'ip_hash' } }),
      ]),
    );
    const counts = await tally('hash.example.com', 20);
    expect(Object.values(counts)).toEqual([20]);
  });
});

describe('backups and failures', () => {
  it('never uses a backup while a primary is up', async () => {
    await edge.push(
      document('backup-idle', [
        domain(4, 'backup.example.com', [
          upstream(p1.port),
          upstream(p2.port),
          upstream(backup.port, { backup: true }),
        ]),
      ]),
    );
    const counts = await tally('backup.example.com', 40);
    expect(counts.backup).toBeUndefined();
    expect((counts.p1 ?? 0) + (counts.p2 ?? 0)).toBe(40);
  });

  it('retries the next primary when one is down, still without the backup', async () => {
    await edge.push(
      document('one-primary-down', [
        domain(5, 'backup.example.com', [
          upstream(closedPort),
          upstream(p2.port),
          upstream(backup.port, { backup: true }),
        ]),
      ]),
    );
    expect(await tally('backup.example.com', 20)).toEqual({ p2: 20 });
  });

  it('uses the backup once every primary has failed in the request', async () => {
    const otherClosed = await freePort();
    await edge.push(
      document('all-primaries-down', [
        domain(6, 'backup.example.com', [
          upstream(closedPort),
          upstream(otherClosed),
          upstream(backup.port, { backup: true }),
        ]),
      ]),
    );
    expect(await tally('backup.example.com', 20)).toEqual({ backup: 20 });
  });

  it('answers the 502 page fast when the only upstream refuses connections', async () => {
    await edge.push(document('closed', [domain(7, 'closed.example.com', [upstream(closedPort)])]));
    const answer = await request(edge.httpPort, 'closed.example.com');
    expect(answer.status).toBe(502);
    expect(answer.body).toContain('The origin server could not be reached.');
    // On the refusal, not at the connect timeout (30 s).
    expect(answer.ms).toBeLessThan(30_000);
    expect(await edge.errorLog()).toMatch(/connect\(\) failed \(111: Connection refused\)/);
  });

  it('answers the 504 page when the origin does not answer within the read timeout', async () => {
    await edge.push(document('hanging', [domain(8, 'slow.example.com', [upstream(hanging.port)])]));
    const answer = await request(edge.httpPort, 'slow.example.com');
    expect(answer.status).toBe(504);
    expect(answer.body).toContain('The origin server did not answer in time.');
    expect(answer.ms).toBeGreaterThan(900);
    // At the read timeout (1 s), not the connect timeout (30 s) or the default read timeout (60 s).
    expect(answer.ms).toBeLessThan(30_000);
  });
});
