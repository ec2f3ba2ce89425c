import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { type EdgeFirewall, emptyEdgeFirewall, ipListRanges, type NodeExporter } from '@rampart/contract';
import { sampleValue } from '@rampart/contract/prometheus';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedBy } from '../src/agent/monitoring/node-exporter.js';
import { cleanUpAgents, startServingAgent, type TestAgent } from './helpers/agent.js';
import { cacheRule, document, domain, upstream } from './helpers/documents.js';
import { type FakeControlPlane, snapshotOf, startFakeControlPlane } from './helpers/fake-control-plane.js';
import { freePort, request } from './helpers/net.js';
import { type Origin, startOrigin } from './helpers/origins.js';

// The node's Prometheus metrics (agent node-exporter.ts; docs/decisions.md "Metrics") on a real
// node: the agent's nginx serves requests, the events' process counts them from the access log,
// and the agent's /metrics answers only the operator's white IPs, within its request limit. The
// setting arrives with a snapshot and applies without an nginx reload.

const RUN = randomBytes(4).toString('hex');
let cp: FakeControlPlane;
let origin: Origin;
let edge: TestAgent;
let metricsPort: number;
/** A port nothing listens on: the origin of the domain whose requests fail upstream. */
let deadPort: number;

const FIREWALL: EdgeFirewall = {
  ...emptyEdgeFirewall(1),
  blacklist: [{ id: 11, url: '\\/admin', methods: ['GET'], action: 'deny', ...ipListRanges(['127.0.0.1']) }],
};

const plane = (version: string) =>
  document(
    version,
    [
      domain(5, 'shop.example.com', [upstream(origin.port)], { cacheId: 7, firewallId: 1 }),
      domain(6, 'down.example.com', [upstream(deadPort)]),
    ],
    [],
    [{ id: 7, generation: 1, rules: [cacheRule({ scope: 'directory', values: [`/${RUN}/static/`] })] }],
    { firewalls: [FIREWALL] },
  );

/** A scrape from `from` (a loopback address of this machine). */
function scrape(from = '127.0.0.1'): Promise<{ status: number; body: string; type: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port: metricsPort, path: '/metrics', localAddress: from, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, type: String(res.headers['content-type']) }));
      },
    );
    req.on('error', reject);
  });
}

/** A sample's value in a scrape (0 when the series is not there yet). */
const sample = (text: string, series: string): number => sampleValue(text, series) ?? 0;

/** Applies `setting` through a new snapshot and waits until the node reports it applied. */
async function applySetting(setting: NodeExporter, version: string): Promise<void> {
  const snapshot = snapshotOf(plane(version), undefined, true, undefined, [], setting);
  cp.setSnapshot(snapshot);
  await cp.waitForReport((r) => r.appliedVersion === snapshot.version);
}

beforeAll(async () => {
  origin = await startOrigin('origin');
  cp = await startFakeControlPlane();
  metricsPort = await freePort();
  deadPort = await freePort();
  edge = await startServingAgent(cp, snapshotOf(plane('exporter-1')), { eventCutMs: 200, metricsPort });
}, 60_000);

afterAll(async () => {
  await cleanUpAgents();
  await cp?.close();
  await origin?.close();
});

describe('the node exporter', () => {
  it('answers nobody until the operator names who may scrape', async () => {
    expect((await scrape()).status).toBe(403);
  });

  it('answers a white IP with the text format, refuses another address, without reloading nginx', async () => {
    const pid = await edge.agent.nginx.masterPid();
    await applySetting(
      { whiteIPs: ['127.0.0.1', '10.0.0.0/8'], limitCountSec: 60, limitCountTimes: 100 },
      'exporter-2',
    );
    const ok = await scrape('127.0.0.1');
    expect(ok.status).toBe(200);
    expect(ok.type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(ok.body).toContain('# TYPE rampart_node_requests_total counter\n');
    expect(ok.body).toContain('# TYPE rampart_node_spool_bytes gauge\n');
    expect((await scrape('127.0.0.2')).status).toBe(403);
    expect(await edge.agent.nginx.masterPid()).toBe(pid);
  });

  it('counts requests, blocks by action, cache hits and misses and upstream errors', async () => {
    const before = (await scrape()).body;
    const get = (p: string) => request(edge.ports.http, 'shop.example.com', p);
    expect((await get(`/${RUN}/plain`)).status).toBe(200);
    expect((await get(`/${RUN}/static/a.js`)).status).toBe(200);
    expect((await get(`/${RUN}/static/a.js`)).status).toBe(200);
    expect((await get(`/${RUN}/admin`)).status).not.toBe(200);
    expect((await request(edge.ports.http, 'down.example.com', `/${RUN}/down`)).status).toBe(502);
    const moved = (text: string, series: string) => sample(text, series) - sample(before, series);
    const deadline = Date.now() + 15_000;
    let text = before;
    while (Date.now() < deadline) {
      text = (await scrape()).body;
      if (
        moved(text, 'rampart_node_upstream_errors_total') >= 1 &&
        moved(text, 'rampart_node_requests_total{status="2xx"}') >= 3
      ) {
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(moved(text, 'rampart_node_requests_total{status="2xx"}')).toBe(3);
    expect(moved(text, 'rampart_node_blocks_total{action="deny"}')).toBe(1);
    expect(moved(text, 'rampart_node_cache_requests_total{result="hit"}')).toBe(1);
    expect(moved(text, 'rampart_node_cache_requests_total{result="miss"}')).toBeGreaterThanOrEqual(1);
    expect(moved(text, 'rampart_node_upstream_errors_total')).toBe(1);
    expect(sample(text, 'rampart_node_cache_hit_ratio')).toBeGreaterThan(0);
  });

  it('answers 429 past limitCountTimes scrapes in limitCountSec, per address', async () => {
    await applySetting({ whiteIPs: ['127.0.0.0/8'], limitCountSec: 2, limitCountTimes: 3 }, 'exporter-3');
    const statuses = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await scrape('127.0.0.1')).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // Another white address has its own window.
    expect((await scrape('127.0.0.3')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await scrape('127.0.0.1')).status).toBe(200);
  });
});

describe('allowedBy', () => {
  it('matches addresses and CIDRs of the same family, IPv4-mapped peers as IPv4', () => {
    expect(allowedBy(['192.0.2.0/24'], '192.0.2.77')).toBe(true);
    expect(allowedBy(['192.0.2.0/24'], '::ffff:192.0.2.77')).toBe(true);
    expect(allowedBy(['192.0.2.0/24'], '192.0.3.1')).toBe(false);
    expect(allowedBy(['2001:db8::/32'], '2001:db8:1::5')).toBe(true);
    expect(allowedBy(['2001:db8::/32'], '192.0.2.1')).toBe(false);
    expect(allowedBy(['10.0.0.1'], '10.0.0.1')).toBe(true);
    expect(allowedBy([], '10.0.0.1')).toBe(false);
  });
});
