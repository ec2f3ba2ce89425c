import { createHash } from 'node:crypto';
import type http from 'node:http';
import {
  type DataPlane,
  dataPlaneSchema,
  EDGE_API_BASE,
  type EdgeSnapshot,
  getNodePlane,
  getNodePlaneStream,
  getNodeSnapshot,
  NO_REAL_IP,
  NODE_EXPORTER_DEFAULT,
  type PlaneEntry,
  type PlaneFull,
  planeEntryValues,
} from '@rampart/contract';
import { entryHash, planeHash } from '@rampart/contract/plane-hash';

/*
 * The fake control plane's snapshot and data-plane routes (fake-control-plane.ts composes them):
 * the snapshot long poll, whole planes by long poll and on a stream, and what a test queues.
 */

/** What the fake's route handlers share: the node signature check and the answers. */
export interface FakeHttp {
  /** The node id of a correctly signed request, or null (the reason recorded). */
  verify(req: http.IncomingMessage, body: Buffer): number | null;
  send(res: http.ServerResponse, status: number, body: unknown): void;
  invalidToken(res: http.ServerResponse): void;
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

/** What a test calls on the fake's snapshot and plane routes (part of FakeControlPlane). */
export interface FakePlanes {
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
}

/** The snapshot and plane routes of one fake control plane, and what its tests call on them. */
export function planeServer({ verify, send, invalidToken }: FakeHttp): FakePlanes & {
  handle(route: string, url: URL, req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer): boolean;
} {
  let snapshot: unknown = null;
  /** The plane of the latest snapshot with a data plane, and its sequence (one per such snapshot). */
  let plane: PlaneFull | null = null;
  let planeSeq = 0;
  /** Off: the route answers 404 like a control plane without it (the agent takes the snapshot's data plane). */
  let servePlanes = false;
  let servePlaneStreams = false;
  const planeOnce: unknown[] = [];
  const planeQueries: Record<string, string>[] = [];
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

  /** Answers the snapshot and plane routes; 'unknown' for any other. */
  const answer = (route: string, url: URL, req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer) => {
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
    return 'unknown';
  };

  return {
    /** Whether the route was one of these (and answered). */
    handle: (route: string, url: URL, req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer) =>
      answer(route, url, req, res, raw) !== 'unknown',
    servePlanes(options?: { streams?: boolean }) {
      servePlanes = true;
      servePlaneStreams = options?.streams ?? false;
    },
    answerPlaneOnce(answer: unknown, becomes?: PlaneFull) {
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
    setSnapshot(next: unknown) {
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
  };
}
