import { geoRecord, writeMmdb } from '@rampart/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUpAgents, startAgent, type TestAgent } from './helpers/agent.js';
import { makeCertificate } from './helpers/certificates.js';
import { freePort, httpsRequest, request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';
import {
  type ControlPlane,
  initializeFirstNode,
  type OperatorSetup,
  startOperatorChain,
  waitUntil,
} from './helpers/real-control-plane.js';

/**
 * The whole chain on loopback: the built control plane (as `npm start` runs it), the agent with
 * its own nginx, and local origins. Everything is created through the API the consoles use.
 * Needs `npm run build` (the test script builds before it runs the suites).
 */

let cp: ControlPlane;
let setup: OperatorSetup;
let edge: TestAgent;
let a: Origin;
let b: Origin;
let c: Origin;
let closedPort: number;
let wwwId: number;
let fingerprint: string;
let certificateId: number;

interface Domain {
  id: number;
  name: string;
}
const site = (method: string, url: string, body?: unknown) =>
  setup.customer.call<unknown>(method, `user/site/${setup.siteId}/${url}`, body);

async function servedNames(host: string, count: number): Promise<Record<string, number>> {
  const seen: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const res = await request(edge.ports.http, host);
    const name = res.status === 200 ? (servedBy(res.body) ?? 'unknown') : String(res.status);
    seen[name] = (seen[name] ?? 0) + 1;
  }
  return seen;
}

const httpsGet = (host: string) => httpsRequest(edge.ports.https, host);

beforeAll(async () => {
  [a, b, c] = await Promise.all([startOrigin('a'), startOrigin('b'), startOrigin('c')]);
  closedPort = await freePort();
  ({ cp, setup } = await startOperatorChain());
  edge = await startAgent({ controlPlane: cp.url, joinToken: setup.joinToken });
  await initializeFirstNode(setup);
}, 90_000);

afterAll(async () => {
  await cleanUpAgents();
  await cp?.destroy();
  await Promise.all([a, b, c].map((o) => o?.close()));
});

describe('the whole chain on loopback', () => {
  it('serves a domain added through the API over HTTP, and over HTTPS with its certificate chosen by SNI', async () => {
    const cert = await makeCertificate('www.shop.example');
    const uploaded = (await site('POST', 'certificate', {
      name: 'shop',
      certificate: cert.certPem,
      privateKey: cert.keyPem,
    })) as { id: number; fingerprintSha256: string };
    fingerprint = uploaded.fingerprintSha256;
    certificateId = uploaded.id;
    const [www] = (await site('POST', 'domains', {
      domains: [
        {
          name: 'www.shop.example',
          upstreams: [{ ip: '127.0.0.1', port: a.port }],
          certificateID: uploaded.id,
        },
      ],
    })) as Domain[];
    wwwId = www?.id ?? 0;

    await waitUntil(async () => (await request(edge.ports.http, 'www.shop.example')).status === 200, 10_000);
    const res = await request(edge.ports.http, 'www.shop.example', '/hello?x=1');
    expect(servedBy(res.body)).toBe('a');
    expect(a.seen.at(-1)).toMatchObject({ host: 'www.shop.example', url: '/hello?x=1' });

    const secure = await httpsGet('www.shop.example');
    expect(secure.status).toBe(200);
    expect(servedBy(secure.body)).toBe('a');
    expect(secure.fingerprint).toBe(fingerprint);
    // Another name gets the node's default certificate, and the unknown-host page.
    const other = await httpsGet('nothing.example');
    expect(other.fingerprint).not.toBe(fingerprint);
    expect(other.status).toBe(404);
    expect((await request(edge.ports.http, 'nothing.example')).status).toBe(404);
  });

  it('applies an upstream change within a second without reloading nginx (same workers)', async () => {
    const workers = await edge.agent.nginx.workerPids();
    expect(workers.length).toBeGreaterThan(0);
    const started = Date.now();
    await site('PUT', 'domain', { id: wwwId, upstreams: [{ ip: '127.0.0.1', port: b.port }], certificateID: 0 });
    await waitUntil(
      async () => servedBy((await request(edge.ports.http, 'www.shop.example')).body) === 'b',
      30_000,
      10,
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await edge.agent.nginx.workerPids()).toEqual(workers);

    const list = await setup.operator.call<{ appliedVersion: string; currentVersion: string; lastError: string }[]>(
      'GET',
      'client/nodes/initialized',
    );
    await waitUntil(async () => {
      const [node] = await setup.operator.call<{ appliedVersion: string; currentVersion: string }[]>(
        'GET',
        'client/nodes/initialized',
      );
      return node !== undefined && node.appliedVersion === node.currentVersion;
    }, 30_000);
    expect(list[0]?.lastError).toBe('');
  });

  it('answers a domain disabled through the API with its "disabled" page and certificate, without a reload', async () => {
    // The upstream test took the certificate away: the domain gets it back first.
    await site('PUT', 'domain', {
      id: wwwId,
      upstreams: [{ ip: '127.0.0.1', port: b.port }],
      certificateID: certificateId,
    });
    await waitUntil(async () => (await httpsGet('www.shop.example')).fingerprint === fingerprint, 30_000, 10);
    const workers = await edge.agent.nginx.workerPids();
    await site('PUT', 'domain/setting/status', { domainIDs: [wwwId], status: 0 });
    await waitUntil(async () => (await request(edge.ports.http, 'www.shop.example')).status === 403, 30_000, 10);
    const page = await request(edge.ports.http, 'www.shop.example', '/', { headers: { 'accept-language': 'zh-TW' } });
    expect(page.body).toContain('<h1>403 網域已停用</h1>');
    const secure = await httpsGet('www.shop.example');
    expect(secure.status).toBe(403);
    expect(secure.body).toContain('<h1>403 Domain disabled</h1>');
    expect(secure.fingerprint).toBe(fingerprint);

    await site('PUT', 'domain/setting/status', { domainIDs: [wwwId], status: 1 });
    await waitUntil(async () => (await request(edge.ports.http, 'www.shop.example')).status === 200, 30_000, 10);
    expect(await edge.agent.nginx.workerPids()).toEqual(workers);
  });

  it("applies the customer's firewall rules within a second, without a reload, and lifts them when deleted", async () => {
    const workers = await edge.agent.nginx.workerPids();
    const status = async (headers: Record<string, string> = {}, method = 'GET') =>
      (await request(edge.ports.http, 'www.shop.example', '/', { headers, method })).status;
    const everyMethod = { get: true, post: true, put: true, delete: true, head: true, patch: true, options: true };
    let started = Date.now();
    const [black] = (await site('POST', 'firewall/setting/blacklists', {
      data: [{ ips: ['127.0.0.0/8'], url: '.*', methods: everyMethod, blockType: 10 }],
    })) as { id: number }[];
    await waitUntil(async () => (await status()) === 403, 30_000, 10);
    expect(Date.now() - started).toBeLessThan(1000);

    // The whitelist wins over the blacklist.
    started = Date.now();
    const [white] = (await site('POST', 'firewall/setting/whitelists', {
      data: [{ ips: ['127.0.0.1'], url: 'www\\.shop\\.example', methods: { get: true } }],
    })) as { id: number }[];
    await waitUntil(async () => (await status()) === 200, 30_000, 10);
    expect(Date.now() - started).toBeLessThan(1000);

    await site('DELETE', 'firewall/setting/whitelists', { ids: [white?.id] });
    await site('DELETE', 'firewall/setting/blacklists', { ids: [black?.id] });
    // A POST is not whitelisted: its 200 says the blacklist is gone from the node too.
    await waitUntil(async () => (await status({}, 'POST')) === 200, 30_000, 10);
    const [agentRule] = (await site('POST', 'firewall/setting/userAgents', {
      data: [{ urlRegex: '.*', userAgentRegex: 'curl', blockType: 10 }],
    })) as { id: number }[];
    await waitUntil(async () => (await status({ 'user-agent': 'curl/8.5.0' })) === 403, 30_000, 10);
    expect(await status({ 'user-agent': 'Mozilla/5.0' })).toBe(200);
    await site('DELETE', 'firewall/setting/userAgents', { ids: [agentRule?.id] });
    await waitUntil(async () => (await status({ 'user-agent': 'curl/8.5.0' })) === 200, 30_000, 10);
    expect(await edge.agent.nginx.workerPids()).toEqual(workers);
  });

  it('serves the code challenge from the image pool the agent draws once a rule asks for one', async () => {
    const page = async () =>
      (await request(edge.ports.http, 'www.shop.example', '/', { headers: { 'user-agent': 'chain-bot' } })).body;
    const [rule] = (await site('POST', 'firewall/setting/userAgents', {
      data: [{ urlRegex: '.*', userAgentRegex: 'chain-bot', blockType: 2 }],
    })) as { id: number }[];
    // The agent sees the challenge keys in its snapshot and pushes a pool within its 5 s check
    // (until then the node answers the shield).
    await waitUntil(async () => (await page()).includes('Enter the code'), 20_000, 100);
    const t = /name="t" value="(k\.[^"]+)"/.exec(await page())?.[1] as string;
    const image = await request(edge.ports.http, 'www.shop.example', `/.rampart/challenge?i=${t}`);
    expect(image.status).toBe(200);
    await site('DELETE', 'firewall/setting/userAgents', { ids: [rule?.id] });
    await waitUntil(async () => !(await page()).includes('Enter the code'), 30_000, 10);
  });

  it("places visitors with the operator's geo database: black and white geo rules, without a reload", async () => {
    const workers = await edge.agent.nginx.workerPids();
    const status = async () => (await request(edge.ports.http, 'www.shop.example', '/')).status;
    // The test's requests come from 127.0.0.1: in CN for this database.
    const form = new FormData();
    const bytes = writeMmdb([{ cidr: '127.0.0.1/32', data: geoRecord('CN') }], { databaseType: 'Chain-Country' });
    form.append('file', new Blob([bytes]), 'chain.mmdb');
    const installed = await setup.operator.upload<{ kind: string }>('PUT', 'client/setting/geoDatabase', form);
    expect(installed.kind).toBe('country');
    const [black] = (await site('POST', 'firewall/setting/geos', {
      data: [{ isBlack: true, geoIDs: ['CN'], urlRegex: '.*', blockType: 10 }],
    })) as { id: number }[];
    await waitUntil(async () => (await status()) === 403, 10_000, 20);
    const edit = (isBlack: boolean, geoIDs: string[]) =>
      site('PUT', 'firewall/setting/geo', { id: black?.id, isBlack, geoIDs, urlRegex: '.*', blockType: 10 });
    await edit(true, ['US']);
    await waitUntil(async () => (await status()) === 200, 10_000, 20);
    // A white rule for US: only US may pass, CN is stopped.
    await edit(false, ['US']);
    await waitUntil(async () => (await status()) === 403, 10_000, 20);
    await site('DELETE', 'firewall/setting/geos', { ids: [black?.id] });
    await waitUntil(async () => (await status()) === 200, 10_000, 20);
    await setup.operator.call('DELETE', 'client/setting/geoDatabase');
    expect(await edge.agent.nginx.workerPids()).toEqual(workers);
  });

  it('honours weights and keeps the backup upstream for when the others are down', async () => {
    await site('PUT', 'domain', {
      id: wwwId,
      upstreams: [
        { ip: '127.0.0.1', port: a.port, weight: 3 },
        { ip: '127.0.0.1', port: b.port, weight: 1 },
        { ip: '127.0.0.1', port: c.port, backup: true },
      ],
    });
    await waitUntil(
      async () => servedBy((await request(edge.ports.http, 'www.shop.example')).body) === 'a',
      30_000,
      10,
    );
    const spread = await servedNames('www.shop.example', 40);
    expect(spread.c ?? 0).toBe(0);
    expect(spread.a ?? 0).toBeGreaterThanOrEqual(26);
    expect(spread.a ?? 0).toBeLessThanOrEqual(34);
    expect((spread.a ?? 0) + (spread.b ?? 0)).toBe(40);

    await site('POST', 'domains', {
      domains: [
        {
          name: 'failover.shop.example',
          upstreams: [
            { ip: '127.0.0.1', port: closedPort },
            { ip: '127.0.0.1', port: c.port, backup: true },
          ],
        },
        { name: 'down.shop.example', upstreams: [{ ip: '127.0.0.1', port: closedPort }] },
      ],
    });
    await waitUntil(async () => (await request(edge.ports.http, 'down.shop.example')).status !== 404, 30_000, 10);
    expect(await servedNames('failover.shop.example', 5)).toEqual({ c: 5 });
    const down = await request(edge.ports.http, 'down.shop.example');
    expect(down.status).toBe(502);
    expect(down.headers['content-type']).toMatch(/text\/html/);
  });

  it('blocks an address a DROP + Blacklist rule caught, lists it with its rule and node, and lets it in again within a second of an unblock', async () => {
    const workers = await edge.agent.nginx.workerPids();
    // The request's status, or 'closed' when the edge dropped it (444: no answer).
    const status = async (userAgent: string) => {
      try {
        return (await request(edge.ports.http, 'www.shop.example', '/', { headers: { 'user-agent': userAgent } }))
          .status;
      } catch (err) {
        if (/socket hang up|ECONNRESET/.test(String(err))) return 'closed';
        throw err;
      }
    };
    const [rule] = (await site('POST', 'firewall/setting/userAgents', {
      data: [{ urlRegex: '.*', userAgentRegex: 'evil-bot', blockType: 12 }],
    })) as { id: number }[];
    await waitUntil(async () => (await status('evil-bot/1.0')) === 'closed', 30_000, 10);
    // The address is blocked now: a request the rule does not cover is dropped too.
    expect(await status('Mozilla/5.0')).toBe('closed');
    // The agent reports the block; the customer sees it with its cause, rule and node.
    type Block = { id: number; ip: string; cause: string; ruleID: number | null; nodeID: number; siteID: number };
    const listed = async () => {
      let blocks: Block[] = [];
      await waitUntil(
        async () => {
          blocks = (await setup.customer.call<Block[]>('GET', 'user/blockIPs')) ?? [];
          return blocks.length > 0;
        },
        30_000,
        50,
      );
      return blocks;
    };
    let blocks = await listed();
    expect(blocks).toEqual([
      expect.objectContaining({ ip: '127.0.0.1', cause: 'userAgent', ruleID: rule?.id, siteID: setup.siteId }),
    ]);
    // An unblock ends the block on the node within a second; the rule, still there, blocks again.
    const started = Date.now();
    await setup.customer.call('DELETE', 'user/blockIPs', { ids: blocks.map((b) => b.id) });
    await waitUntil(async () => (await status('Mozilla/5.0')) === 200, 30_000, 10);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await status('evil-bot/1.0')).toBe('closed');
    // With the rule deleted, that new block outlives it until unblocked.
    await site('DELETE', 'firewall/setting/userAgents', { ids: [rule?.id] });
    blocks = await listed();
    await waitUntil(async () => (await status('Mozilla/5.0')) === 'closed', 30_000, 10);
    await setup.customer.call('DELETE', 'user/blockIPs', { ids: blocks.map((b) => b.id) });
    await waitUntil(async () => (await status('Mozilla/5.0')) === 200, 30_000, 10);
    expect(await status('evil-bot/1.0')).toBe(200);
    expect(await setup.customer.call<Block[]>('GET', 'user/blockIPs')).toEqual([]);
    expect(await edge.agent.nginx.workerPids()).toEqual(workers);
  });

  it('keeps serving the last good snapshot after the control plane stops and the agent and nginx restart', async () => {
    await cp.stop();
    const { stateDir, ports } = edge;
    await edge.stop();
    await expect(request(ports.http, 'www.shop.example', '/', { timeoutMs: 1000 })).rejects.toThrow();

    edge = await startAgent({ controlPlane: cp.url, joinToken: null, stateDir, ports });
    const res = await request(ports.http, 'www.shop.example');
    expect(res.status).toBe(200);
    expect(['a', 'b']).toContain(servedBy(res.body));
    const secure = await httpsGet('www.shop.example');
    expect(secure.status).toBe(200);
  });
});
