import { Resolver } from 'node:dns/promises';
import { createServer, type Server } from 'node:http';
import {
  createDomains,
  createMonitorGroup,
  createMonitorNode,
  deleteZonePorts,
  initializeNodes,
  listZonePorts,
  putCnameSetting,
  recoverDns,
  saveDnsSetting,
  updateZonePort,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeLoop } from '../../edge/src/agent/monitoring/monitor.js';
import { NodeClient } from '../../edge/src/agent/node-api/node-client.js';
import { rootId } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { sendAs, type Token } from './helpers/call.js';
import { dnsLookup } from './helpers/dns-provider-checks.js';
import { joinNode } from './helpers/edge-node.js';
import { operatorCalls } from './helpers/operators.js';
import { type PowerDnsServer, powerDnsSetting, startPowerDns } from './helpers/powerdns-server.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { TEST_DB_KIND } from './helpers/test-db.js';

// Failover measured end to end (issue 23): two nodes of a group answer a domain's CNAME target at a
// real PowerDNS; a monitor node running the edge agent's own probe loop (apps/edge ProbeLoop, over
// HTTP to the listening control plane) probes them every 10 s. Each node's service is a real HTTP
// server on its own loopback address; stopping one must take its address out of what PowerDNS
// answers, starting it again must bring it back, each within 30 s. The reconciler runs as in
// production (woken by the monitors' transitions, debounced). On PostgreSQL only: the figures are
// the same on PGlite and the test takes about a minute.
const zone = 'cdn-failover.test';
const INTERVAL_S = 10;
const TARGET_MS = 30_000;
let pdns: PowerDnsServer;
let t: TestApp;
let client: Token;
let loop: ProbeLoop | null = null;
const servers = new Map<string, Server>();
let port = 0;

async function serve(ip: string): Promise<void> {
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, ip, () => resolve());
  });
  if (port === 0) port = (server.address() as { port: number }).port;
  servers.set(ip, server);
}
async function halt(ip: string): Promise<void> {
  const server = servers.get(ip);
  servers.delete(ip);
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

/** Polls what PowerDNS answers for `name` (A) until `done` holds; answers the time it took (ms). */
async function until(resolver: Resolver, name: string, done: (values: string[]) => boolean): Promise<number> {
  const started = Date.now();
  const lookup = dnsLookup(resolver);
  for (;;) {
    const { values } = await lookup(name, 'A');
    if (done(values)) return Date.now() - started;
    if (Date.now() - started > 60_000) throw new Error(`still ${values.join(', ')} after 60 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(TEST_DB_KIND !== 'postgres')('failover through PowerDNS', () => {
  beforeAll(async () => {
    pdns = await startPowerDns([zone]);
    t = await createTestApp({ config: { dnsPublish: { debounceMs: 1000 } } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    await serve('127.0.0.2');
    await serve('127.0.0.3');
  });
  afterAll(async () => {
    await loop?.stop();
    for (const ip of [...servers.keys()]) await halt(ip);
    await t?.close();
    await pdns?.stop();
  });

  it(`takes a stopped node out of the answers and brings it back, each within ${TARGET_MS / 1000} s`, async () => {
    client = await signIn(t.app, 'client');
    const user = await signIn(t.app, 'user');
    const as = client;
    const make = operatorCalls(t.app, client);
    const zoneId = await make.zone('failover');
    // The zone's nodes listen on the test's port only (its HTTP servers), so that is what is probed.
    const ports = (await sendAs(t.app, as, listZonePorts, { params: { zoneID: zoneId } })).json().data as {
      id: number;
    }[];
    const [first, ...rest] = ports;
    if (!first) throw new Error('a new zone has ports');
    await sendAs(t.app, as, updateZonePort, {
      params: { zoneID: zoneId },
      body: { id: first.id, port, portType: 'http' },
    });
    if (rest.length > 0) {
      await sendAs(t.app, as, deleteZonePorts, { params: { zoneID: zoneId }, body: { ids: rest.map((p) => p.id) } });
    }
    const groupId = await make.group(zoneId, 'web');
    const productId = await make.product('failover-cdn', 7, [groupId]);
    const siteId = await make.site('failover-site', await rootId(t.app, 'user'), productId);
    const a = await joinNode(t.app, client, 'node-a', ['127.0.0.2']);
    const b = await joinNode(t.app, client, 'node-b', ['127.0.0.3']);
    const init = await sendAs(t.app, as, initializeNodes, {
      body: { ids: [a.nodeId, b.nodeId], zoneID: zoneId, groupID: groupId },
    });
    expect(init.statusCode, init.body).toBe(200);
    await sendAs(t.app, as, putCnameSetting, { body: { domain: `cname.${zone}` } });
    const created = await sendAs(t.app, user, createDomains, {
      params: { siteId },
      body: { domains: [{ name: 'www.failover.example', upstreams: [{ ip: '127.0.0.1', port: 8080 }] }] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const target = created.json().data[0].cname as string;
    const saved = await sendAs(t.app, as, saveDnsSetting, {
      body: powerDnsSetting(pdns, zone),
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const probe = await joinNode(t.app, client, 'monitor');
    const monitor = (await sendAs(t.app, as, createMonitorNode, { body: { nodeID: probe.nodeId } })).json().data.id;
    const group = await sendAs(t.app, as, createMonitorGroup, {
      body: {
        name: 'edge',
        intervalSeconds: INTERVAL_S,
        timeoutSeconds: 2,
        failureThreshold: 1,
        monitorIDs: [monitor],
        nodeIDs: [a.nodeId, b.nodeId],
      },
    });
    expect(group.statusCode, group.body).toBe(200);
    expect((await sendAs(t.app, as, recoverDns)).json().data).toMatchObject({ ran: true, failed: 0 });

    const resolver = new Resolver({ timeout: 1000, tries: 1 });
    resolver.setServers([pdns.dnsAddress]);
    expect((await dnsLookup(resolver)(target, 'A')).values).toEqual(['127.0.0.2', '127.0.0.3']);

    // The monitor node's agent loop, reporting to the listening control plane.
    const address = t.app.server.address() as { port: number };
    const nodeClient = new NodeClient(`http://127.0.0.1:${address.port}`, {
      nodeId: probe.nodeId,
      nodeSecret: probe.secret,
    });
    loop = new ProbeLoop(nodeClient, () => undefined);
    loop.start();
    // Both up first (the first round reports them up).
    await new Promise((r) => setTimeout(r, 2000));

    await halt('127.0.0.2');
    const removal = await until(resolver, target, (v) => v.join() === '127.0.0.3');
    await serve('127.0.0.2');
    const restore = await until(resolver, target, (v) => v.join() === '127.0.0.2,127.0.0.3');
    console.log(
      `failover (monitor interval ${INTERVAL_S} s, failure threshold 1): node removed from PowerDNS's answer ` +
        `${(removal / 1000).toFixed(1)} s after its service stopped, back ${(restore / 1000).toFixed(1)} s after it restarted`,
    );
    expect(removal).toBeLessThan(TARGET_MS);
    expect(restore).toBeLessThan(TARGET_MS);
  }, 150_000);
});
