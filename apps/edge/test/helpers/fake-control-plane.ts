import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  EDGE_API_BASE,
  type EdgeBlockReport,
  getNodeAbuseIPs,
  getNodeGeoDatabase,
  getNodeRelease,
  getNodeReleaseFile,
  NODE_SIGNATURE_HEADERS,
  NODE_SIGNATURE_MAX_SKEW_SECONDS,
  type ReleaseManifest,
  registerNode,
  reportNodeBlocks,
  reportNodeStatus,
  reportNodeUpgradeProgress,
} from '@rampart/contract';
import { nodeBodySha256, signNodeRequest } from '@rampart/contract/node-signing';
import type { z } from 'zod';
import { batchReceiver, type FakeBatches } from './fake-control-plane-batches.js';
import { commandServer, type FakeCommands } from './fake-control-plane-commands.js';
import { type FakePlanes, planeServer } from './fake-control-plane-planes.js';

export type { CommandResult, ProbeResult } from './fake-control-plane-commands.js';
export { planeOf, snapshotOf } from './fake-control-plane-planes.js';

/**
 * A small stand-in for the control plane's node API (register, snapshot long poll, status,
 * command long poll and results, probe assignments and results) on a loopback port, for the
 * agent's tests. It checks requests the way the real one does
 * (apps/server/src/modules/nodes/node-signature.ts: HMAC-SHA256 over method, path with query,
 * timestamp, nonce and body hash, with the contract's signNodeRequest; the body-hash header the
 * agent sends; skew; nonce replay; 401 with code 101013 for any failure) and
 * validates bodies with the contract's request schemas. It serves whatever snapshot a test gives
 * it, valid or not. The real control plane with the real agent is covered by the whole-chain test
 * (see real-control-plane.ts); this one keeps the agent's tests fast and independent of the server.
 * The snapshot and data-plane routes are in fake-control-plane-planes.ts, the event and aggregate
 * batches in fake-control-plane-batches.ts, the commands and probes in fake-control-plane-commands.ts;
 * this file signs nodes in and serves the rest.
 */

export type StatusReport = z.output<NonNullable<(typeof reportNodeStatus)['request']['body']>> & {
  nodeId: number;
  at: number;
};

export interface FakeControlPlane extends FakePlanes, FakeBatches, FakeCommands {
  url: string;
  port: number;
  joinToken: string;
  registrations: { nodeId: number; hostname: string; ips: string[]; version: string }[];
  reports: StatusReport[];
  /** Node-API requests whose signature (or timestamp, nonce) was refused. */
  refused: { path: string; reason: string }[];
  /** Signed requests accepted, by route path. */
  accepted: string[];
  /** Serves this agent release (manifest and file bytes by path); null: none (202008). */
  setRelease(release: { manifest: ReleaseManifest; files: Map<string, Buffer> } | null): void;
  /** Serves this file as the geo database (by its SHA-256); null: none (101018). */
  setGeoDatabase(bytes: Buffer | null): void;
  /** Serves this file as the reputation list (by its SHA-256); null: none (101018). */
  setAbuseIPs(bytes: Buffer | null): void;
  /** Upgrade stages the agents reported, in order. */
  progress: { nodeId: number; commandId: number; stage: string; message: string }[];
  /** Block reports the nodes sent (POST /blocks), in order, and the calls that carried them. */
  blocks: (EdgeBlockReport & { nodeId: number })[];
  blockCalls: number;
  /** Answers the next `count` block reports with 503 (the agent keeps and resends them). */
  failBlockReports(count: number): void;
  /** The secret the fake gave a node (tests sign their own requests with it). */
  secretOf(nodeId: number): string | undefined;
  /** Resolves with the first status report (already received or to come) that matches. */
  waitForReport(match: (report: StatusReport) => boolean, timeoutMs?: number): Promise<StatusReport>;
  close(): Promise<void>;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function startFakeControlPlane(): Promise<FakeControlPlane> {
  const joinToken = `jt_${randomBytes(12).toString('hex')}`;
  const secrets = new Map<number, string>();
  const nonces = new Set<string>();
  const registrations: FakeControlPlane['registrations'] = [];
  const reports: StatusReport[] = [];
  const refused: FakeControlPlane['refused'] = [];
  const accepted: string[] = [];
  let reportWaiters: { match: (r: StatusReport) => boolean; resolve: (r: StatusReport) => void }[] = [];
  let release: { manifest: ReleaseManifest; files: Map<string, Buffer> } | null = null;
  let geoDatabase: Buffer | null = null;
  let abuseIPs: Buffer | null = null;
  const progress: FakeControlPlane['progress'] = [];
  const blocks: FakeControlPlane['blocks'] = [];
  let blockCalls = 0;
  let blockFailures = 0;

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const invalidToken = (res: http.ServerResponse) =>
    send(res, 401, { code: 101013, message: 'Invalid Token', extra: null });

  /** The node id of a correctly signed request, or null (and the reason recorded). */
  const verify = (req: http.IncomingMessage, body: Buffer): number | null => {
    const h = req.headers;
    const nodeId = Number(h[NODE_SIGNATURE_HEADERS.node]);
    const timestamp = String(h[NODE_SIGNATURE_HEADERS.timestamp] ?? '');
    const nonce = String(h[NODE_SIGNATURE_HEADERS.nonce] ?? '');
    const signature = String(h[NODE_SIGNATURE_HEADERS.signature] ?? '');
    const reject = (reason: string) => {
      refused.push({ path: req.url ?? '', reason });
      return null;
    };
    if (!/^\d{1,12}$/.test(timestamp) || !/^[A-Za-z0-9_-]{16,128}$/.test(nonce) || !/^[0-9a-f]{64}$/.test(signature)) {
      return reject('malformed headers');
    }
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > NODE_SIGNATURE_MAX_SKEW_SECONDS) return reject('skew');
    const secret = secrets.get(nodeId);
    if (secret === undefined) return reject('unknown node');
    // The body's hash the agent sends (the control plane admits on it before reading the body).
    if (h[NODE_SIGNATURE_HEADERS.bodySha256] !== nodeBodySha256(body)) return reject('body hash');
    const expected = signNodeRequest(secret, { method: req.method ?? '', path: req.url ?? '', body, timestamp, nonce });
    if (!timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) return reject('bad signature');
    if (nonces.has(`${nodeId}:${nonce}`)) return reject('replayed nonce');
    nonces.add(`${nodeId}:${nonce}`);
    accepted.push((req.url ?? '').split('?')[0] ?? '');
    return nodeId;
  };

  const planes = planeServer({ verify, send, invalidToken });
  const batches = batchReceiver({ verify, send, invalidToken });
  const commandRoutes = commandServer({ verify, send, invalidToken });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = raw.toString('utf8');
      const url = new URL(req.url ?? '/', 'http://fake');
      const route = `${req.method} ${url.pathname}`;
      if (route === `POST ${EDGE_API_BASE}${registerNode.path}`) {
        const input = registerNode.request.body.safeParse(parseJson(body));
        if (!input.success) return send(res, 400, { code: 101003, message: 'invalid', extra: input.error.issues });
        if (input.data.joinToken !== joinToken) return invalidToken(res);
        const nodeId = registrations.length + 1;
        const nodeSecret = `ns_${randomBytes(24).toString('hex')}`;
        secrets.set(nodeId, nodeSecret);
        registrations.push({ nodeId, hostname: input.data.hostname, ips: input.data.ips, version: input.data.version });
        return send(res, 200, { data: { nodeId, nodeSecret } });
      }
      if (route === `POST ${EDGE_API_BASE}${reportNodeStatus.path}`) {
        const nodeId = verify(req, raw);
        if (nodeId === null) return invalidToken(res);
        const input = reportNodeStatus.request.body.safeParse(parseJson(body));
        if (!input.success) return send(res, 400, { code: 101003, message: 'invalid', extra: input.error.issues });
        const report = { ...input.data, nodeId, at: Date.now() };
        reports.push(report);
        const matched = reportWaiters.filter((w) => w.match(report));
        reportWaiters = reportWaiters.filter((w) => !matched.includes(w));
        for (const waiter of matched) waiter.resolve(report);
        return send(res, 200, { data: true });
      }
      if (planes.handle(route, url, req, res, raw)) return;
      if (commandRoutes.handle(route, url, req, res, raw)) return;
      if (route === `GET ${EDGE_API_BASE}${getNodeRelease.path}`) {
        if (verify(req, raw) === null) return invalidToken(res);
        if (!release) return send(res, 409, { code: 202008, message: 'no release', extra: null });
        return send(res, 200, { data: release.manifest });
      }
      if (route === `GET ${EDGE_API_BASE}${getNodeReleaseFile.path}`) {
        if (verify(req, raw) === null) return invalidToken(res);
        const query = getNodeReleaseFile.request.query.safeParse(Object.fromEntries(url.searchParams));
        if (!query.success) return send(res, 400, { code: 101003, message: 'invalid', extra: query.error.issues });
        const bytes = release?.manifest.version === query.data.version ? release.files.get(query.data.path) : undefined;
        if (!bytes) return send(res, 403, { code: 101018, message: 'not found', extra: null });
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(bytes);
      }
      if (route === `GET ${EDGE_API_BASE}${getNodeGeoDatabase.path}`) {
        if (verify(req, raw) === null) return invalidToken(res);
        const query = getNodeGeoDatabase.request.query.safeParse(Object.fromEntries(url.searchParams));
        if (!query.success) return send(res, 400, { code: 101003, message: 'invalid', extra: query.error.issues });
        const current = geoDatabase && createHash('sha256').update(geoDatabase).digest('hex');
        if (!geoDatabase || current !== query.data.sha256) {
          return send(res, 403, { code: 101018, message: 'not found', extra: null });
        }
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(geoDatabase);
      }
      if (route === `GET ${EDGE_API_BASE}${getNodeAbuseIPs.path}`) {
        if (verify(req, raw) === null) return invalidToken(res);
        const query = getNodeAbuseIPs.request.query.safeParse(Object.fromEntries(url.searchParams));
        if (!query.success) return send(res, 400, { code: 101003, message: 'invalid', extra: query.error.issues });
        const current = abuseIPs && createHash('sha256').update(abuseIPs).digest('hex');
        if (!abuseIPs || current !== query.data.sha256) {
          return send(res, 403, { code: 101018, message: 'not found', extra: null });
        }
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(abuseIPs);
      }
      if (route === `POST ${EDGE_API_BASE}${reportNodeBlocks.path}`) {
        const nodeId = verify(req, raw);
        if (nodeId === null) return invalidToken(res);
        if (blockFailures > 0) {
          blockFailures--;
          return send(res, 503, { code: 100001, message: 'unavailable', extra: null });
        }
        const input = reportNodeBlocks.request.body.safeParse(parseJson(body));
        if (!input.success) return send(res, 400, { code: 101003, message: 'invalid', extra: input.error.issues });
        blockCalls++;
        blocks.push(...input.data.entries.map((e) => ({ ...e, nodeId })));
        return send(res, 200, { data: true });
      }
      if (batches.handle(route, req, res, raw)) return;
      if (route === `POST ${EDGE_API_BASE}${reportNodeUpgradeProgress.path}`) {
        const nodeId = verify(req, raw);
        if (nodeId === null) return invalidToken(res);
        const input = reportNodeUpgradeProgress.request.body.safeParse(parseJson(body));
        if (!input.success) return send(res, 400, { code: 101003, message: 'invalid', extra: input.error.issues });
        progress.push({ nodeId, ...input.data });
        return send(res, 200, { data: true });
      }
      send(res, 404, { code: 101004, message: 'unknown path', extra: null });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    joinToken,
    registrations,
    reports,
    refused,
    accepted,
    servePlanes: planes.servePlanes,
    answerPlaneOnce: planes.answerPlaneOnce,
    planeQueries: planes.planeQueries,
    get plane() {
      return planes.plane;
    },
    setSnapshot: planes.setSnapshot,
    queueCommand: commandRoutes.queueCommand,
    results: commandRoutes.results,
    waitForResult: commandRoutes.waitForResult,
    probeResults: commandRoutes.probeResults,
    setProbes: commandRoutes.setProbes,
    waitForProbeResults: commandRoutes.waitForProbeResults,
    setRelease(next) {
      release = next;
    },
    setGeoDatabase(bytes) {
      geoDatabase = bytes;
    },
    setAbuseIPs(bytes) {
      abuseIPs = bytes;
    },
    progress,
    blocks,
    get blockCalls() {
      return blockCalls;
    },
    failBlockReports(count) {
      blockFailures = count;
    },
    eventBatches: batches.eventBatches,
    eventAttempts: batches.eventAttempts,
    failEvents: batches.failEvents,
    aggregateBatches: batches.aggregateBatches,
    aggregateAttempts: batches.aggregateAttempts,
    failAggregates: batches.failAggregates,
    secretOf: (nodeId) => secrets.get(nodeId),
    waitForReport(match, timeoutMs = 15_000) {
      const seen = reports.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          resolve: (r: StatusReport) => {
            clearTimeout(timer);
            resolve(r);
          },
        };
        const timer = setTimeout(() => {
          reportWaiters = reportWaiters.filter((w) => w !== waiter);
          reject(
            new Error(`no matching status report within ${timeoutMs} ms; last: ${JSON.stringify(reports.at(-1))}`),
          );
        }, timeoutMs);
        reportWaiters.push(waiter);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
