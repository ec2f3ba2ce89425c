import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import {
  AGGREGATE_BATCH_JSON_MAX_BYTES,
  type AggregateBatch,
  aggregateBatchSchema,
  type DataPlane,
  dataPlaneSchema,
  decodeAggregateBatch,
  EDGE_API_BASE,
  type EdgeBlockReport,
  type EdgeEventBatch,
  type EdgeSnapshot,
  EVENT_BATCH_CONTENT_TYPE,
  EVENT_BATCH_JSON_MAX_BYTES,
  edgeEventBatchSchema,
  getNodeAbuseIPs,
  getNodeCommands,
  getNodeGeoDatabase,
  getNodePlane,
  getNodePlaneStream,
  getNodeRelease,
  getNodeReleaseFile,
  getNodeSnapshot,
  getProbes,
  NO_REAL_IP,
  NODE_EXPORTER_DEFAULT,
  NODE_SIGNATURE_HEADERS,
  NODE_SIGNATURE_MAX_SKEW_SECONDS,
  nodeSignaturePayload,
  type PlaneEntry,
  type PlaneFull,
  type ProbeAssignment,
  planeEntryValues,
  type ReleaseManifest,
  registerNode,
  reportNodeBlocks,
  reportNodeCommandResult,
  reportNodeStatus,
  reportNodeUpgradeProgress,
  reportProbeResults,
  shipNodeAggregates,
  shipNodeEvents,
} from '@rampart/contract';
import { entryHash, planeHash } from '@rampart/contract/plane-hash';
import type { z } from 'zod';

/**
 * A small stand-in for the control plane's node API (register, snapshot long poll, status,
 * command long poll and results, probe assignments and results) on a loopback port, for the
 * agent's tests. It checks requests the way the real one does
 * (apps/server/src/modules/nodes/node-signature.ts: HMAC-SHA256 over method, path with query,
 * timestamp, nonce and body hash; skew; nonce replay; 401 with code 101013 for any failure) and
 * validates bodies with the contract's request schemas. It serves whatever snapshot a test gives
 * it, valid or not. The real control plane with the real agent is covered by the whole-chain test
 * (see real-control-plane.ts); this one keeps the agent's tests fast and independent of the server.
 */

export type StatusReport = z.output<NonNullable<(typeof reportNodeStatus)['request']['body']>> & {
  nodeId: number;
  at: number;
};

export interface CommandResult {
  id: number;
  nodeId: number;
  ok: boolean;
  message: string;
}
export type ProbeResult = z.output<NonNullable<(typeof reportProbeResults)['request']['body']>>['results'][number] & {
  monitorNodeId: number;
};

export interface FakeControlPlane {
  url: string;
  port: number;
  joinToken: string;
  registrations: { nodeId: number; hostname: string; ips: string[]; version: string }[];
  reports: StatusReport[];
  /** Node-API requests whose signature (or timestamp, nonce) was refused. */
  refused: { path: string; reason: string }[];
  /** Signed requests accepted, by route path. */
  accepted: string[];
  /** Serves `snapshot` from now on (answers the waiting polls at once); any object, even an invalid one. */
  setSnapshot(snapshot: unknown): void;
  /**
   * Answers GET /plane from now on with the snapshots' data planes as whole planes (off by default:
   * the route is unknown, as on a control plane without it, and the agent takes the snapshot's);
   * with `streams`, GET /plane/stream too (a line per answer /plane would give), else that route is
   * unknown, as on a control plane from before streams, and the agent long-polls.
   */
  servePlanes(options?: { streams?: boolean }): void;
  /**
   * Answers `answer` (any object) to the next plane poll, once, whatever it asks; with `becomes`,
   * that is the whole plane the route answers afterwards (the plane after a delta).
   */
  answerPlaneOnce(answer: unknown, becomes?: PlaneFull): void;
  /**
   * The query of every plane poll, in order; on a stream, its query and then, after each line, what
   * the node holds once it took it (as its next poll would say).
   */
  planeQueries: Record<string, string>[];
  /** The whole plane the route answers now (null before a snapshot with a data plane). */
  readonly plane: PlaneFull | null;
  /** Queues a command (any object, even one the agent cannot run) for the next command poll. */
  queueCommand(command: unknown): void;
  /** Results the agent reported, in order. */
  results: CommandResult[];
  /** Resolves with the result of command `id` (already received or to come). */
  waitForResult(id: number, timeoutMs?: number): Promise<CommandResult>;
  /** Probe results the nodes reported, in order. */
  probeResults: ProbeResult[];
  /** Answers `assignments` to every node's `GET /probes` from now on (none at first). */
  setProbes(assignments: ProbeAssignment[]): void;
  /** Resolves once the results reported so far satisfy `match`. */
  waitForProbeResults(match: (results: ProbeResult[]) => boolean, timeoutMs?: number): Promise<ProbeResult[]>;
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
  /** Event batches taken (POST /events, each batchId once, in order), and every attempt with its answer. */
  eventBatches: (EdgeEventBatch & { nodeId: number })[];
  eventAttempts: { batchId: string; sha256: string; status: number }[];
  /** Answers the next `count` event batches with 500 (the agent keeps and resends them). */
  /**
   * Answers the next `count` event batches with 500 (the agent keeps and resends them), or with
   * 503 and this Retry-After (seconds) as a busy control plane does.
   */
  failEvents(count: number, retryAfterSeconds?: number): void;
  /** Aggregate batches taken (POST /aggregates, each batchId once, in order), and every attempt with its answer. */
  aggregateBatches: (AggregateBatch & { nodeId: number })[];
  aggregateAttempts: { batchId: string; sha256: string; status: number }[];
  /** Answers the next `count` aggregate batches with 500 (the agent keeps and resends them). */
  failAggregates(count: number): void;
  /** The secret the fake gave a node (tests sign their own requests with it). */
  secretOf(nodeId: number): string | undefined;
  /** Resolves with the first status report (already received or to come) that matches. */
  waitForReport(match: (report: StatusReport) => boolean, timeoutMs?: number): Promise<StatusReport>;
  close(): Promise<void>;
}

/** The listen settings of a snapshot by default: HTTP on 80, HTTPS on 443, http2. */
const DEFAULT_LISTEN: EdgeSnapshot['listen'] = { httpPorts: [80], httpsPorts: [443], http2: true };
/** A zone's nginx settings left as they are. */
const DEFAULT_NGINX: EdgeSnapshot['nginx'] = { worker: {}, http: {}, stream: {}, custom: [] };

/** A snapshot for the tests; the version is the MD5 of the content, like the control plane's hash. */
export function snapshotOf(
  dataPlane: DataPlane,
  listen: EdgeSnapshot['listen'] = DEFAULT_LISTEN,
  initialized = true,
  nginx: EdgeSnapshot['nginx'] = DEFAULT_NGINX,
  streamPorts: EdgeSnapshot['streamPorts'] = [],
  nodeExporter: EdgeSnapshot['nodeExporter'] = NODE_EXPORTER_DEFAULT,
): EdgeSnapshot {
  const content = {
    listen,
    dataPlane,
    initialized,
    nginx,
    ...(streamPorts.length > 0 ? { streamPorts } : {}),
    ...(nodeExporter === NODE_EXPORTER_DEFAULT ? {} : { nodeExporter }),
  };
  const version = createHash('md5').update(JSON.stringify(content)).digest('hex');
  const realIp = { ...NO_REAL_IP, trusted: [] };
  return {
    version,
    generatedAt: new Date().toISOString(),
    initialized,
    listen,
    realIp,
    nginx,
    dataPlane,
    streamPorts,
    l4: null,
    l4KernelBlocks: false,
    nodeExporter,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function hmac(secret: string, parts: { method: string; path: string; body: Buffer; timestamp: string; nonce: string }) {
  const bodySha256 = createHash('sha256').update(parts.body).digest('hex');
  return createHmac('sha256', secret)
    .update(nodeSignaturePayload({ ...parts, bodySha256 }))
    .digest('hex');
}

/**
 * The snapshot's data plane as a whole plane of entries (GET /plane), as the control plane's own
 * route answers it for a node; null when the snapshot has no data plane the contract accepts. The
 * ACME challenges are one entry (the fake knows no sites); the zone's redirect code is the first
 * domain's.
 */
export function planeOf(snapshot: unknown, to: number): PlaneFull | null {
  const parsed = dataPlaneSchema.safeParse((snapshot as { dataPlane?: unknown } | null)?.dataPlane);
  if (!parsed.success) return null;
  const plane = parsed.data;
  const entries: PlaneEntry[] = [];
  for (const [id, value] of planeEntryValues(plane)) {
    const [kind, key] = id.split('\0') as [PlaneEntry['kind'], string];
    entries.push({ kind, key, hash: entryHash(kind, key, value), value });
  }
  if ((plane.acmeChallenges ?? []).length > 0) {
    const value = plane.acmeChallenges ?? [];
    entries.push({ kind: 'acme', key: '0', hash: entryHash('acme', '0', value), value });
  }
  const meta = {
    cacheEpoch: plane.cacheEpoch,
    limits: plane.limits,
    forceSSLCode: plane.domains[0]?.forceSSLCode ?? 301,
    challenge: plane.challenge,
    geoDatabase: plane.geoDatabase ?? null,
    abuseIPs: plane.abuseIPs ?? null,
    ...(plane.errorPages ? { errorPages: plane.errorPages } : {}),
    ...(plane.allowPrivateOrigins ? { allowPrivateOrigins: true as const } : {}),
  };
  return {
    type: 'full',
    to: String(to),
    meta,
    metaHash: entryHash('meta', '', meta),
    entries,
    planeHash: planeHash(entries.map((e) => e.hash)),
  };
}

export async function startFakeControlPlane(): Promise<FakeControlPlane> {
  const joinToken = `jt_${randomBytes(12).toString('hex')}`;
  const secrets = new Map<number, string>();
  const nonces = new Set<string>();
  const registrations: FakeControlPlane['registrations'] = [];
  const reports: StatusReport[] = [];
  const refused: FakeControlPlane['refused'] = [];
  const accepted: string[] = [];
  let snapshot: unknown = null;
  /** The plane of the latest snapshot with a data plane, and its sequence (one per such snapshot). */
  let plane: PlaneFull | null = null;
  let planeSeq = 0;
  /** Off: the route answers 404 like a control plane without it (the agent takes the snapshot's data plane). */
  let servePlanes = false;
  let servePlaneStreams = false;
  const planeOnce: unknown[] = [];
  const planeQueries: Record<string, string>[] = [];
  let probes: ProbeAssignment[] = [];
  const probeResults: ProbeResult[] = [];
  let probeWaiters: (() => void)[] = [];
  let waiters: (() => void)[] = [];
  /**
   * A long poll as the control plane holds one: answered at once when `ready` (or `wait` is 0),
   * else when a change makes it ready (the waiters are woken on every change) or `wait` seconds
   * passed; `data` is read when answering.
   */
  const hold = (res: http.ServerResponse, wait: number, ready: () => boolean, data: () => unknown): void => {
    if (ready() || wait === 0) {
      send(res, 200, { data: data() });
      return;
    }
    const answer = () => {
      clearTimeout(timer);
      waiters = waiters.filter((w) => w !== wake);
      if (!res.writableEnded) send(res, 200, { data: data() });
    };
    const wake = () => {
      if (ready()) answer();
    };
    const timer = setTimeout(answer, wait * 1000);
    waiters.push(wake);
    res.on('close', () => {
      clearTimeout(timer);
      waiters = waiters.filter((w) => w !== wake);
    });
  };
  let reportWaiters: { match: (r: StatusReport) => boolean; resolve: (r: StatusReport) => void }[] = [];
  let commands: unknown[] = [];
  let commandWaiters: (() => void)[] = [];
  const results: CommandResult[] = [];
  let resultWaiters: (() => void)[] = [];
  let release: { manifest: ReleaseManifest; files: Map<string, Buffer> } | null = null;
  let geoDatabase: Buffer | null = null;
  let abuseIPs: Buffer | null = null;
  const progress: FakeControlPlane['progress'] = [];
  const blocks: FakeControlPlane['blocks'] = [];
  let blockCalls = 0;
  let blockFailures = 0;
  const eventBatches: FakeControlPlane['eventBatches'] = [];
  const eventAttempts: FakeControlPlane['eventAttempts'] = [];
  const aggregateBatches: FakeControlPlane['aggregateBatches'] = [];
  const aggregateAttempts: FakeControlPlane['aggregateAttempts'] = [];
  /** Batches of each kind refused on purpose (500) before one is taken. */
  const failuresLeft = { events: 0, aggregates: 0 };
  /** With failures left: answered 503 with this Retry-After (seconds) instead of 500. */
  const retryAfter: Record<keyof typeof failuresLeft, number | undefined> = {
    events: undefined,
    aggregates: undefined,
  };

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
    const expected = hmac(secret, { method: req.method ?? '', path: req.url ?? '', body, timestamp, nonce });
    if (!timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) return reject('bad signature');
    if (nonces.has(`${nodeId}:${nonce}`)) return reject('replayed nonce');
    nonces.add(`${nodeId}:${nonce}`);
    accepted.push((req.url ?? '').split('?')[0] ?? '');
    return nodeId;
  };

  /**
   * A batch of events or aggregates, as the real control plane takes one: signed over the gzip
   * bytes, inflated with a bound, deduplicated by batchId; each attempt is recorded with its answer.
   */
  const receiveBatch = <B extends { batchId: string }>(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    raw: Buffer,
    kind: {
      schema: z.ZodType<B>;
      maxBytes: number;
      attempts: FakeControlPlane['eventAttempts'];
      batches: (B & { nodeId: number })[];
      failures: keyof typeof failuresLeft;
      stored: (batch: B) => number;
      /** What the route takes before the batch's own schema (the compact form decoded): null when it is refused. */
      decode?: (json: unknown) => unknown;
    },
  ) => {
    const nodeId = verify(req, raw);
    if (nodeId === null) return invalidToken(res);
    const attempt = { batchId: '', sha256: createHash('sha256').update(raw).digest('hex'), status: 200 };
    kind.attempts.push(attempt);
    const answer = (status: number, value: unknown) => {
      attempt.status = status;
      send(res, status, value);
    };
    if (req.headers['content-type'] !== EVENT_BATCH_CONTENT_TYPE) {
      return answer(415, { code: 101003, message: 'content type', extra: null });
    }
    let input: ReturnType<typeof kind.schema.safeParse>;
    try {
      const json = gunzipSync(raw, { maxOutputLength: kind.maxBytes }).toString('utf8');
      const value = kind.decode ? kind.decode(JSON.parse(json)) : JSON.parse(json);
      if (value === null) return answer(400, { code: 101003, message: 'invalid', extra: null });
      input = kind.schema.safeParse(value);
    } catch {
      return answer(400, { code: 101003, message: 'not a gzip JSON batch', extra: null });
    }
    if (!input.success) return answer(400, { code: 101003, message: 'invalid', extra: input.error.issues });
    const batch = input.data;
    attempt.batchId = batch.batchId;
    if (failuresLeft[kind.failures] > 0) {
      failuresLeft[kind.failures]--;
      const seconds = retryAfter[kind.failures];
      if (seconds !== undefined) {
        res.setHeader('retry-after', String(seconds));
        return answer(503, { code: 101005, message: 'Database Execution Error', extra: null });
      }
      return answer(500, { code: 100001, message: 'failing on purpose', extra: null });
    }
    if (kind.batches.some((b) => b.nodeId === nodeId && b.batchId === batch.batchId)) {
      return answer(200, { data: { stored: 0, duplicate: true } });
    }
    kind.batches.push({ ...batch, nodeId });
    return answer(200, { data: { stored: kind.stored(batch), duplicate: false } });
  };

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
      if (route === `GET ${EDGE_API_BASE}${getNodeSnapshot.path}`) {
        const nodeId = verify(req, raw);
        if (nodeId === null) return invalidToken(res);
        const query = getNodeSnapshot.request.query.safeParse(Object.fromEntries(url.searchParams));
        if (!query.success) return send(res, 400, { code: 101003, message: 'invalid', extra: query.error.issues });
        const changed = () => snapshot !== null && (snapshot as { version?: unknown }).version !== query.data.version;
        return hold(res, query.data.wait, changed, () => (changed() ? snapshot : null));
      }
      if (route === `GET ${EDGE_API_BASE}${getNodePlane.path}` && servePlanes) {
        // Whole planes only (the control plane's own route answers deltas; server tests hold them).
        if (verify(req, raw) === null) return invalidToken(res);
        planeQueries.push(Object.fromEntries(url.searchParams));
        const query = getNodePlane.request.query.safeParse(Object.fromEntries(url.searchParams));
        if (!query.success) return send(res, 400, { code: 101003, message: 'invalid', extra: query.error.issues });
        const changed = () => plane !== null && plane.to !== query.data.since;
        // An answer queued with answerPlaneOnce goes first, whatever the node holds.
        return hold(
          res,
          query.data.wait,
          () => changed() || planeOnce.length > 0,
          () => (planeOnce.length > 0 ? planeOnce.shift() : changed() ? plane : null),
        );
      }
      if (route === `GET ${EDGE_API_BASE}${getNodePlaneStream.path}` && servePlaneStreams) {
        if (verify(req, raw) === null) return invalidToken(res);
        const query = getNodePlaneStream.request.query.safeParse(Object.fromEntries(url.searchParams));
        if (!query.success) return send(res, 400, { code: 101003, message: 'invalid', extra: query.error.issues });
        planeQueries.push(Object.fromEntries(url.searchParams));
        let since = query.data.since;
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.write('\n');
        // As the poll: an answer queued with answerPlaneOnce first, else the plane when the node holds another.
        const wake = () => {
          if (res.writableEnded) return;
          const answer = planeOnce.length > 0 ? planeOnce.shift() : plane !== null && plane.to !== since ? plane : null;
          if (answer === null) return;
          res.write(`${JSON.stringify(answer)}\n`);
          const next = answer as { to?: unknown; planeHash?: unknown; metaHash?: unknown };
          if (typeof next.to === 'string') {
            since = next.to;
            planeQueries.push({ since: next.to, plane: String(next.planeHash), meta: String(next.metaHash) });
          }
          wake();
        };
        waiters.push(wake);
        res.on('close', () => {
          waiters = waiters.filter((w) => w !== wake);
        });
        wake();
        return;
      }
      if (route === `GET ${EDGE_API_BASE}${getNodeCommands.path}`) {
        if (verify(req, raw) === null) return invalidToken(res);
        const query = getNodeCommands.request.query.safeParse(Object.fromEntries(url.searchParams));
        if (!query.success) return send(res, 400, { code: 101003, message: 'invalid', extra: query.error.issues });
        const answer = () => {
          clearTimeout(timer);
          commandWaiters = commandWaiters.filter((w) => w !== answer);
          const taken = commands;
          commands = [];
          if (!res.writableEnded) send(res, 200, { data: taken });
        };
        const timer = setTimeout(answer, query.data.wait * 1000);
        if (commands.length > 0 || query.data.wait === 0) return answer();
        commandWaiters.push(answer);
        res.on('close', () => {
          clearTimeout(timer);
          commandWaiters = commandWaiters.filter((w) => w !== answer);
        });
        return;
      }
      const result = /^\/api\/edge\/v1\/commands\/(\d+)\/result$/.exec(url.pathname);
      if (req.method === 'POST' && result) {
        const nodeId = verify(req, raw);
        if (nodeId === null) return invalidToken(res);
        const input = reportNodeCommandResult.request.body.safeParse(parseJson(body));
        if (!input.success) return send(res, 400, { code: 101003, message: 'invalid', extra: input.error.issues });
        results.push({ id: Number(result[1]), nodeId, ...input.data });
        for (const wake of [...resultWaiters]) wake();
        return send(res, 200, { data: true });
      }
      if (route === `GET ${EDGE_API_BASE}${getProbes.path}`) {
        if (verify(req, raw) === null) return invalidToken(res);
        return send(res, 200, { data: probes });
      }
      if (route === `POST ${EDGE_API_BASE}${reportProbeResults.path}`) {
        const nodeId = verify(req, raw);
        if (nodeId === null) return invalidToken(res);
        const input = reportProbeResults.request.body.safeParse(parseJson(body));
        if (!input.success) return send(res, 400, { code: 101003, message: 'invalid', extra: input.error.issues });
        probeResults.push(...input.data.results.map((r) => ({ ...r, monitorNodeId: nodeId })));
        for (const wake of [...probeWaiters]) wake();
        return send(res, 200, { data: true });
      }
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
      if (route === `POST ${EDGE_API_BASE}${shipNodeEvents.path}`) {
        return receiveBatch(req, res, raw, {
          schema: edgeEventBatchSchema,
          maxBytes: EVENT_BATCH_JSON_MAX_BYTES,
          attempts: eventAttempts,
          batches: eventBatches,
          failures: 'events',
          stored: (batch) => batch.events.length,
        });
      }
      if (route === `POST ${EDGE_API_BASE}${shipNodeAggregates.path}`) {
        return receiveBatch(req, res, raw, {
          schema: aggregateBatchSchema,
          maxBytes: AGGREGATE_BATCH_JSON_MAX_BYTES,
          attempts: aggregateAttempts,
          batches: aggregateBatches,
          failures: 'aggregates',
          stored: (batch) => batch.minutes.length + batch.collapsed.length,
          // As the node API: the compact form (decoded) or the object form.
          decode: (json) => {
            const shipped = shipNodeAggregates.request.body.safeParse(json);
            if (!shipped.success) return null;
            return 'format' in shipped.data ? decodeAggregateBatch(shipped.data) : shipped.data;
          },
        });
      }
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
    servePlanes(options) {
      servePlanes = true;
      servePlaneStreams = options?.streams ?? false;
    },
    answerPlaneOnce(answer, becomes) {
      planeOnce.push(answer);
      if (becomes) {
        plane = becomes;
        planeSeq = Number(becomes.to);
      }
      for (const wake of [...waiters]) wake();
    },
    planeQueries,
    get plane() {
      return plane;
    },
    setSnapshot(next) {
      snapshot = next;
      const nextPlane = planeOf(next, planeSeq + 1);
      if (
        nextPlane !== null &&
        nextPlane.planeHash + nextPlane.metaHash !== (plane ? plane.planeHash + plane.metaHash : '')
      ) {
        planeSeq++;
        plane = nextPlane;
      }
      for (const wake of [...waiters]) wake();
    },
    queueCommand(command) {
      commands.push(command);
      commandWaiters[0]?.();
    },
    results,
    waitForResult(id, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = results.find((r) => r.id === id);
          if (!found) return;
          clearTimeout(timer);
          resultWaiters = resultWaiters.filter((w) => w !== check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          resultWaiters = resultWaiters.filter((w) => w !== check);
          reject(new Error(`no result for command ${id} within ${timeoutMs} ms; results: ${JSON.stringify(results)}`));
        }, timeoutMs);
        resultWaiters.push(check);
        check();
      });
    },
    probeResults,
    setProbes(assignments) {
      probes = assignments;
    },
    waitForProbeResults(match, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!match(probeResults)) return;
          clearTimeout(timer);
          probeWaiters = probeWaiters.filter((w) => w !== check);
          resolve(probeResults);
        };
        const timer = setTimeout(() => {
          probeWaiters = probeWaiters.filter((w) => w !== check);
          reject(new Error(`no matching probe results within ${timeoutMs} ms: ${JSON.stringify(probeResults)}`));
        }, timeoutMs);
        probeWaiters.push(check);
        check();
      });
    },
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
    eventBatches,
    eventAttempts,
    failEvents(count, retryAfterSeconds) {
      failuresLeft.events = count;
      retryAfter.events = retryAfterSeconds;
    },
    aggregateBatches,
    aggregateAttempts,
    failAggregates(count) {
      failuresLeft.aggregates = count;
    },
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
