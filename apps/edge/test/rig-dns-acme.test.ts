import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Pebble, startPebble } from '../../server/test/helpers/pebble.js';
import { type PowerDnsServer, powerDnsSetting, startPowerDns } from '../../server/test/helpers/powerdns-server.js';
import { cleanUpAgents, makeStateDir, startAgent, type TestAgent } from './helpers/agent.js';
import { freePort } from './helpers/net.js';
import { type Origin, startOrigin } from './helpers/origins.js';
import { type ControlPlane, type OperatorSetup, startOperatorChain, waitUntil } from './helpers/real-control-plane.js';

/**
 * The loopback rig of issue 23, everything real: PowerDNS (the operator's DNS provider), pebble
 * (the operator's ACME CA, resolving names at that PowerDNS), the built control plane and two
 * agents with their nginx, node A on 127.0.0.2 and node B on 127.0.0.3 (the same ports, as two
 * hosts would have; all of 127/8 is local on Linux). Node A is also the monitor node. Everything
 * is configured through the API the consoles use. The customer's own DNS pointing its name at the
 * CNAME target is a CNAME the test writes into the same PowerDNS.
 */

const ZONE = 'rig.test';
const DOMAIN = `shop.${ZONE}`;
const NODES = { a: '127.0.0.2', b: '127.0.0.3' } as const;
const INTERVAL_S = 10;
const TARGET_MS = 30_000;
const run = promisify(execFile);

let pdns: PowerDnsServer;
let pebble: Pebble;
let cp: ControlPlane;
let setup: OperatorSetup;
let origin: Origin;
let httpPort: number;
let httpsPort: number;
const agents: Partial<Record<keyof typeof NODES, TestAgent>> = {};
const stateDirs: Partial<Record<keyof typeof NODES, string>> = {};
let target = '';

/** Starts (or restarts, with its state) node `name`'s agent and nginx on its own loopback address. */
async function startNode(name: keyof typeof NODES): Promise<TestAgent> {
  stateDirs[name] ??= await makeStateDir();
  const agent = await startAgent({
    controlPlane: cp.url,
    joinToken: setup.joinToken,
    stateDir: stateDirs[name],
    // The zone's ports as they are: no mapping.
    portMap: new Map(),
    listenAddress: NODES[name],
    ips: [NODES[name]],
    hostname: `rig-${name}`,
    probeRefreshMs: 1000,
  });
  agents[name] = agent;
  return agent;
}

/** `dig @127.0.0.1 -p <pdns> <name> A +short`, sorted. */
async function dig(name: string): Promise<string[]> {
  const [host, port] = pdns.dnsAddress.split(':') as [string, string];
  const { stdout } = await run('dig', [`@${host}`, '-p', port, name, 'A', '+short', '+time=1', '+tries=1']);
  return stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^\d+\.\d+\.\d+\.\d+$/.test(l))
    .sort();
}

/** Polls dig until the answer is `want`, bounded; answers the time it took (ms). */
async function digUntil(want: string[], timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  let last: string[] = [];
  for (;;) {
    last = await dig(target);
    if (last.join() === want.join()) return Date.now() - started;
    if (Date.now() - started > timeoutMs)
      throw new Error(`dig still answers [${last.join(', ')}] after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The TLS handshake with `ip`:`port` for `servername`, verified against `ca` only. */
function handshake(ip: string, port: number, servername: string, ca: string) {
  return new Promise<{ authorized: boolean; error: string; altName: string }>((resolve, reject) => {
    const socket = connect({ host: ip, port, servername, ca, rejectUnauthorized: false }, () => {
      const peer = socket.getPeerCertificate();
      resolve({
        authorized: socket.authorized,
        error: socket.authorizationError ? String(socket.authorizationError) : '',
        altName: peer.subjectaltname ?? '',
      });
      socket.end();
    });
    socket.setTimeout(5000, () => socket.destroy(new Error('TLS handshake timed out')));
    socket.once('error', reject);
  });
}

beforeAll(async () => {
  pdns = await startPowerDns([ZONE]);
  httpPort = await freePort(NODES.a);
  httpsPort = await freePort(NODES.a);
  pebble = await startPebble({ httpPort, dnsServer: pdns.dnsAddress });
  origin = await startOrigin('origin');
  ({ cp, setup } = await startOperatorChain());
}, 120_000);

afterAll(async () => {
  await cleanUpAgents();
  await cp?.destroy();
  await pebble?.stop();
  await pdns?.stop();
  await origin?.close();
});

describe('the loopback rig: PowerDNS, pebble, two edge nodes', () => {
  it('issues a certificate served by SNI on both nodes, and the CNAME target answers both', async () => {
    const { operator, customer } = setup;
    // The zone's nodes listen on the rig's ports (pebble checks HTTP-01 on httpPort; the monitor probes both).
    const ports = await operator.call<{ id: number; portType: string }[]>(
      'GET',
      `client/zone/${setup.zoneId}/setting/ports`,
    );
    const http = ports.find((p) => p.portType === 'http');
    const https = ports.find((p) => p.portType === 'https');
    if (!http || !https) throw new Error('a new zone has an http and an https port');
    await operator.call('PUT', `client/zone/${setup.zoneId}/setting/port`, {
      id: http.id,
      port: httpPort,
      portType: 'http',
    });
    await operator.call('PUT', `client/zone/${setup.zoneId}/setting/port`, {
      id: https.id,
      port: httpsPort,
      portType: 'https',
    });
    const others = ports.filter((p) => p !== http && p !== https).map((p) => p.id);
    if (others.length > 0) {
      await operator.call('DELETE', `client/zone/${setup.zoneId}/setting/ports`, { ids: others });
    }

    // Two nodes join and are placed in the zone's group.
    await startNode('a');
    await startNode('b');
    let nodeIds: number[] = [];
    await waitUntil(async () => {
      nodeIds = (await operator.call<{ id: number }[]>('GET', 'client/nodes')).map((n) => n.id);
      return nodeIds.length === 2;
    }, 30_000);
    await operator.call('POST', 'client/nodes/initialize', {
      ids: nodeIds,
      zoneID: setup.zoneId,
      groupID: setup.groupId,
    });
    const initialized = await operator.call<{ id: number; ip?: string; ips?: string[] }[]>(
      'GET',
      'client/nodes/initialized',
    );
    expect(initialized.length).toBe(2);

    // The operator: PowerDNS as DNS provider, CNAME targets under it, pebble as ACME CA.
    await operator.call('POST', 'client/setting/dns', powerDnsSetting(pdns, ZONE));
    await operator.call('PUT', 'client/setting/dns/cname', { domain: `cname.${ZONE}` });
    await operator.call('PUT', 'client/setting/acme', {
      ca: 'custom',
      directoryUrl: pebble.directoryUrl,
      caBundle: pebble.caBundle,
      email: '',
    });
    // Node A monitors both nodes every INTERVAL_S seconds.
    const nodeA = agents.a?.agent.nodeId ?? 0;
    const monitor = await operator.call<{ id: number }>('POST', 'client/monitor/node', { nodeID: nodeA });
    await operator.call('POST', 'client/monitor/group', {
      name: 'rig',
      intervalSeconds: INTERVAL_S,
      timeoutSeconds: 2,
      failureThreshold: 1,
      monitorIDs: [monitor.id],
      nodeIDs: nodeIds,
    });

    // The customer adds the domain with auto SSL and points its name at the CNAME target.
    const [created] = await customer.call<{ id: number; cname: string }[]>(
      'POST',
      `user/site/${setup.siteId}/domains`,
      { domains: [{ name: DOMAIN, upstreams: [{ ip: '127.0.0.1', port: origin.port }] }] },
    );
    if (!created) throw new Error('no domain created');
    target = created.cname;
    expect(target.endsWith(`.cname.${ZONE}`)).toBe(true);
    await customer.call('POST', `user/site/${setup.siteId}/domain/setting/autoSSL`, {
      domainIDs: [created.id],
      autoSSL: true,
    });
    const cnameWrite = await fetch(`${pdns.apiUrl}/api/v1/servers/localhost/zones/${ZONE}.`, {
      method: 'PATCH',
      headers: { 'X-API-Key': pdns.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        rrsets: [
          {
            name: `${DOMAIN}.`,
            type: 'CNAME',
            ttl: 60,
            changetype: 'REPLACE',
            records: [{ content: `${target}.`, disabled: false }],
          },
        ],
      }),
    });
    expect(cnameWrite.status).toBe(204);

    // `dig` on the CNAME target at the authoritative server answers both nodes.
    await digUntil([NODES.a, NODES.b], 30_000);
    expect(await dig(DOMAIN)).toEqual([NODES.a, NODES.b]);

    // The certificate: issued now rather than at the job's next round (the operator's "renew").
    const pending = await operator.call<{ id: number; domain: string }[]>('GET', 'client/autoCertificates');
    expect(pending.map((c) => c.domain)).toEqual([DOMAIN]);
    await operator.call('POST', 'client/autoCertificates/renew', { ids: pending.map((c) => c.id) });
    let last: { status: string; lastError: string } | undefined;
    await waitUntil(
      async () => {
        [last] = await operator.call<{ status: string; lastError: string }[]>('GET', 'client/autoCertificates');
        if (last?.status === 'failed') throw new Error(`issuing failed: ${last.lastError}`);
        return last?.status === 'valid';
      },
      90_000,
      500,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; last: ${JSON.stringify(last)}; pebble:\n${pebble.log().slice(-2000)}`);
    });

    // Served by SNI on both nodes, chaining to pebble's root.
    const root = await pebble.issuingRoot();
    expect(new X509Certificate(root).ca).toBe(true);
    for (const ip of [NODES.a, NODES.b]) {
      await waitUntil(async () => (await handshake(ip, httpsPort, DOMAIN, root)).authorized, 15_000, 200);
      const shake = await handshake(ip, httpsPort, DOMAIN, root);
      expect(shake).toEqual({ authorized: true, error: '', altName: `DNS:${DOMAIN}` });
    }
  }, 240_000);

  it(`takes a stopped node out of the answer and brings it back, each within ${TARGET_MS / 1000} s`, async () => {
    // The monitor's first rounds have seen both up (waited for, rather than a pause that may be too
    // short on a loaded machine).
    await waitUntil(
      async () =>
        (
          await setup.operator.call<{ id: number }[]>(
            'GET',
            'client/monitor/nodes/enableStatus?page=1&pageSize=10&state=up',
          )
        ).length === 2,
      60_000,
      200,
    );
    expect(await dig(target)).toEqual([NODES.a, NODES.b]);

    // Three rounds: where the stop falls in the monitor's interval decides the figure.
    const figures: { removal: number; restore: number }[] = [];
    for (let round = 0; round < 3; round++) {
      await agents.b?.stop();
      const removal = await digUntil([NODES.a]);
      await startNode('b');
      const restore = await digUntil([NODES.a, NODES.b]);
      figures.push({ removal, restore });
    }
    const seconds = (ms: number) => (ms / 1000).toFixed(1);
    console.log(
      `rig failover (monitor interval ${INTERVAL_S} s, failure threshold 1, two agents with nginx): node B ` +
        `left PowerDNS's answer ${figures.map((f) => seconds(f.removal)).join(' / ')} s after its agent and ` +
        `nginx stopped, came back ${figures.map((f) => seconds(f.restore)).join(' / ')} s after they started again`,
    );
    for (const { removal, restore } of figures) {
      expect(removal).toBeLessThan(TARGET_MS);
      expect(restore).toBeLessThan(TARGET_MS);
    }
  }, 240_000);
});
