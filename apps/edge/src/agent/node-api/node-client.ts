import {
  ABUSE_IP_FILE_MAX_BYTES,
  type AnyRoute,
  type CacheUrlResult,
  EDGE_COMMANDS_MAX_WAIT_SECONDS,
  EDGE_PLANE_STREAM_KEEPALIVE_SECONDS,
  EDGE_SNAPSHOT_MAX_WAIT_SECONDS,
  type EdgeBlockReport,
  type EdgeSnapshot,
  EVENT_BATCH_CONTENT_TYPE,
  EVENT_BATCH_GZIP_MAX_BYTES,
  fillPath,
  GEO_DATABASE_MAX_BYTES,
  getNodeAbuseIPs,
  getNodeCommands,
  getNodeGeoDatabase,
  getNodePlane,
  getNodePlaneStream,
  getNodeRelease,
  getNodeReleaseFile,
  getNodeSnapshot,
  getProbes,
  NODE_COMMAND_MESSAGE_MAX,
  type PlaneAnswer,
  type ProbeAssignment,
  type ReleaseManifest,
  registerNode,
  reportNodeBlocks,
  reportNodeCommandResult,
  reportNodeStatus,
  reportNodeUpgradeProgress,
  reportProbeResults,
  routeUrl,
  shipNodeAggregates,
  shipNodeEvents,
  shipNodeL4Counters,
} from '@rampart/contract';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import type { z } from 'zod';
import { commandsAnswer, jsonAnswer, planeAnswer, type ReceivedCommand, snapshotAnswer } from './node-answers.js';
import { failureDetail, NodeApiError, readBounded, refusal, withTimeout } from './node-api-errors.js';
import { readPlaneStream } from './node-plane-stream.js';

export type { ReceivedCommand } from './node-answers.js';
export { NodeApiError, SnapshotRefusedError } from './node-api-errors.js';

/**
 * The node API as the agent calls it. Every request but `register` is signed with the contract's
 * `signedNodeHeaders` (@rampart/contract/node-signing), the code the control plane checks against:
 * HMAC-SHA256 under the node secret of the method, path with query as sent (`/api/edge/v1/...`),
 * unix timestamp in seconds, a fresh nonce and the SHA-256 hex of the body, that hash also sent as
 * `x-rampart-body-sha256` (the control plane checks the signature on it before it makes room for a
 * batch, and the body against it once read). Every answer is checked with the route's `response` schema.
 */

export interface NodeCredentials {
  nodeId: number;
  nodeSecret: string;
}

/** What the agent reports for one command. */
export interface CommandResult {
  ok: boolean;
  message: string;
  results?: CacheUrlResult[];
}

type RegisterBody = z.input<NonNullable<(typeof registerNode)['request']['body']>>;
type StatusBody = z.input<NonNullable<(typeof reportNodeStatus)['request']['body']>>;
type ProbeResultsBody = z.input<NonNullable<(typeof reportProbeResults)['request']['body']>>;

export class NodeClient {
  /**
   * Whether snapshots carry the data plane: `none` once the node takes it as entries (plane-loop.ts),
   * so a data-plane change does not change the snapshot.
   */
  snapshotDataPlane: () => 'whole' | 'none' = () => 'whole';

  private readonly base: URL;

  constructor(
    controlPlane: string,
    private credentials: NodeCredentials | null = null,
    private readonly requestTimeoutMs = 15_000,
  ) {
    this.base = new URL(controlPlane);
    if (this.base.protocol !== 'http:' && this.base.protocol !== 'https:') {
      throw new Error(`control plane URL must be http or https: ${controlPlane}`);
    }
  }

  setCredentials(credentials: NodeCredentials): void {
    this.credentials = credentials;
  }

  /** The URL of a route with its path parameters and an optional query (the control plane's own path prefix kept). */
  private url(route: AnyRoute, query = '', params?: Record<string, unknown>): URL {
    const prefix = this.base.pathname.replace(/\/+$/, '');
    return new URL(`${this.base.origin}${prefix}${fillPath(routeUrl(route), params)}${query}`);
  }

  /**
   * Sends one request and returns the parsed, schema-checked answer. `parse` turns the body text
   * into the value (the snapshot route reads it its own way).
   */
  private async call<T>(
    route: AnyRoute,
    options: {
      query?: string;
      path?: Record<string, unknown>;
      body?: unknown;
      /** A body sent as these bytes (signed over them) instead of JSON. */
      raw?: { bytes: Uint8Array; contentType: string };
      signed: boolean;
      timeoutMs?: number;
      signal?: AbortSignal | undefined;
      /** Largest answer read (release files); a longer one is refused before it is all in memory. */
      maxBytes?: number;
    },
    parse: (text: string, bytes: Buffer) => T,
  ): Promise<T> {
    const url = this.url(route, options.query, options.path);
    const { raw } = options;
    const body: string | Uint8Array = raw ? raw.bytes : options.body === undefined ? '' : JSON.stringify(options.body);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (raw) headers['content-type'] = raw.contentType;
    else if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.signed) {
      if (!this.credentials) throw new Error('the node is not registered yet');
      Object.assign(headers, signedNodeHeaders(this.credentials, route.method, url.pathname + url.search, body));
    }
    const timed = withTimeout(options.signal, options.timeoutMs ?? this.requestTimeoutMs);
    let status: number;
    let bytes: Buffer;
    let serverDate: string | null;
    let retryAfter: string | null;
    try {
      const response = await fetch(url, {
        method: route.method,
        headers,
        body: raw === undefined && options.body === undefined ? null : body,
        signal: timed.signal,
      });
      status = response.status;
      serverDate = response.headers.get('date');
      retryAfter = response.headers.get('retry-after');
      bytes = await readBounded(response, options.maxBytes);
    } catch (err) {
      if (err instanceof NodeApiError) throw err;
      throw new NodeApiError(0, `${route.method} ${url.pathname}: ${failureDetail(err)}`);
    } finally {
      timed.done();
    }
    const text = bytes.toString('utf8');
    if (status < 200 || status > 299) {
      throw refusal(route, url, status, text, serverDate, options.signed, retryAfter);
    }
    return parse(text, bytes);
  }

  /**
   * The data-plane stream (edge.planeStream, docs/data-plane-deltas.md "Streams"): one signed
   * request whose answer is a line per plane answer, each handed to `take` (awaited before the
   * next is read), from what the node holds (`known`). Resolves when the control plane ends the
   * stream; throws a NodeApiError when it refuses it (404: a control plane without the route), a
   * line fails the contract, or nothing, not even the empty keep-alive line, came for
   * `idleMs`; throws what `take` throws.
   */
  async planeStream(
    known: { since: string; plane: string; meta: string } | null,
    take: (answer: PlaneAnswer) => Promise<void>,
    signal?: AbortSignal,
    idleMs = EDGE_PLANE_STREAM_KEEPALIVE_SECONDS * 3000,
  ): Promise<void> {
    const route = getNodePlaneStream;
    // An empty hash is left out (the route takes none): the answer then brings it.
    const params = new URLSearchParams(Object.entries(known ?? {}).filter(([, v]) => v !== ''));
    const url = this.url(route, params.size > 0 ? `?${params}` : '');
    if (!this.credentials) throw new Error('the node is not registered yet');
    const headers = {
      accept: 'application/x-ndjson',
      ...signedNodeHeaders(this.credentials, 'GET', url.pathname + url.search, ''),
    };
    return readPlaneStream(route, url, headers, take, signal, idleMs);
  }

  /** Registers with the operator's join token; answers the node id and secret. */
  async register(body: RegisterBody, signal?: AbortSignal): Promise<NodeCredentials> {
    const checked = registerNode.request.body.parse(body);
    const reply = await this.call(registerNode, { body: checked, signed: false, signal }, (text) =>
      jsonAnswer(registerNode, text),
    );
    return (reply as z.output<(typeof registerNode)['response']>).data;
  }

  async reportStatus(body: StatusBody, signal?: AbortSignal): Promise<void> {
    const checked = reportNodeStatus.request.body.parse(body);
    await this.call(reportNodeStatus, { body: checked, signed: true, signal }, (text) =>
      jsonAnswer(reportNodeStatus, text),
    );
  }

  /** What this node probes as a monitor node (empty when it is not one). */
  async probes(signal?: AbortSignal): Promise<ProbeAssignment[]> {
    const reply = await this.call(getProbes, { signed: true, signal }, (text) => jsonAnswer(getProbes, text));
    return (reply as z.output<(typeof getProbes)['response']>).data;
  }

  async reportProbes(body: ProbeResultsBody, signal?: AbortSignal): Promise<void> {
    const checked = reportProbeResults.request.body.parse(body);
    await this.call(reportProbeResults, { body: checked, signed: true, signal }, (text) =>
      jsonAnswer(reportProbeResults, text),
    );
  }

  /** Reports blocks of the node's DROP + Blacklist rules (at most BLOCK_REPORT_MAX per call). */
  async reportBlocks(entries: EdgeBlockReport[], signal?: AbortSignal): Promise<void> {
    const checked = reportNodeBlocks.request.body.parse({ entries });
    await this.call(reportNodeBlocks, { body: checked, signed: true, signal }, (text) =>
      jsonAnswer(reportNodeBlocks, text),
    );
  }

  /**
   * Ships one spooled batch of request events: `gzip` is the batch file's bytes (gzip of the
   * batch's JSON), sent and signed as they are. Resolves once the control plane acknowledged it
   * (stored now, or taken before: a retry after a lost answer).
   */
  shipEvents(gzip: Uint8Array, signal?: AbortSignal): Promise<{ stored: number; duplicate: boolean }> {
    return this.shipGzip(shipNodeEvents, 'event', gzip, signal);
  }

  /** Ships one spooled batch of minute aggregates (aggregate-feed.ts), as an event batch is. */
  shipAggregates(gzip: Uint8Array, signal?: AbortSignal): Promise<{ stored: number; duplicate: boolean }> {
    return this.shipGzip(shipNodeAggregates, 'aggregate', gzip, signal);
  }

  /** Ships one spooled batch of layer-4 counter records (l4-counter-spool.ts), as an event batch is. */
  shipL4Counters(gzip: Uint8Array, signal?: AbortSignal): Promise<{ stored: number; duplicate: boolean }> {
    return this.shipGzip(shipNodeL4Counters, 'counter', gzip, signal);
  }

  private async shipGzip(
    route: typeof shipNodeEvents | typeof shipNodeAggregates | typeof shipNodeL4Counters,
    what: string,
    gzip: Uint8Array,
    signal?: AbortSignal,
  ): Promise<{ stored: number; duplicate: boolean }> {
    if (gzip.byteLength > EVENT_BATCH_GZIP_MAX_BYTES) {
      throw new NodeApiError(413, `${what} batch of ${gzip.byteLength} bytes over ${EVENT_BATCH_GZIP_MAX_BYTES}`);
    }
    const reply = await this.call(
      route,
      { raw: { bytes: gzip, contentType: EVENT_BATCH_CONTENT_TYPE }, signed: true, signal, timeoutMs: 60_000 },
      (text) => jsonAnswer(route, text),
    );
    return (reply as { data: { stored: number; duplicate: boolean } }).data;
  }

  /**
   * The long poll: answers the node's snapshot when its version differs from `version`, or null
   * when nothing changed within `waitSeconds`. A snapshot that fails the contract's schema throws
   * SnapshotRefusedError (with its version when readable, so the caller can wait for a newer one).
   */
  async snapshot(version: string | null, waitSeconds: number, signal?: AbortSignal): Promise<EdgeSnapshot | null> {
    const wait = Math.min(Math.max(0, Math.floor(waitSeconds)), EDGE_SNAPSHOT_MAX_WAIT_SECONDS);
    const params = new URLSearchParams();
    if (version !== null) params.set('version', version);
    params.set('wait', String(wait));
    if (this.snapshotDataPlane() === 'none') params.set('dataPlane', 'none');
    const reply = await this.call(
      getNodeSnapshot,
      { query: `?${params}`, signed: true, signal, timeoutMs: wait * 1000 + this.requestTimeoutMs },
      snapshotAnswer,
    );
    return reply.data;
  }

  /**
   * The data-plane long poll (docs/data-plane-deltas.md): the changes since `since` (the sequence
   * the node holds, with its plane and meta hashes), a whole plane, or null when nothing changed
   * within `waitSeconds`. An answer that fails the contract's schema is a NodeApiError.
   */
  async plane(
    known: { since: string; plane: string; meta: string } | null,
    waitSeconds: number,
    signal?: AbortSignal,
  ): Promise<PlaneAnswer | null> {
    const wait = Math.min(Math.max(0, Math.floor(waitSeconds)), EDGE_SNAPSHOT_MAX_WAIT_SECONDS);
    const params = new URLSearchParams();
    if (known) {
      params.set('since', known.since);
      params.set('plane', known.plane);
      if (known.meta !== '') params.set('meta', known.meta);
    }
    params.set('wait', String(wait));
    const reply = await this.call(
      getNodePlane,
      { query: `?${params}`, signed: true, signal, timeoutMs: wait * 1000 + this.requestTimeoutMs },
      planeAnswer,
    );
    return reply.data;
  }

  /**
   * The command long poll: the node's queued commands, or an empty list when none was queued
   * within `waitSeconds`. A command whose type or payload this agent does not know comes back as
   * refused (the caller reports it failed) instead of failing the whole answer.
   */
  async commands(waitSeconds: number, signal?: AbortSignal): Promise<ReceivedCommand[]> {
    const wait = Math.min(Math.max(0, Math.floor(waitSeconds)), EDGE_COMMANDS_MAX_WAIT_SECONDS);
    return this.call(
      getNodeCommands,
      { query: `?wait=${wait}`, signed: true, signal, timeoutMs: wait * 1000 + this.requestTimeoutMs },
      commandsAnswer,
    );
  }

  async commandResult(id: number, result: CommandResult, signal?: AbortSignal): Promise<void> {
    const body = {
      ok: result.ok,
      message: result.message.slice(0, NODE_COMMAND_MESSAGE_MAX),
      ...(result.results ? { results: result.results } : {}),
    };
    await this.call(reportNodeCommandResult, { path: { id }, body, signed: true, signal }, (text) =>
      jsonAnswer(reportNodeCommandResult, text),
    );
  }

  /** The manifest of the release the control plane serves (checked with the contract's schema). */
  async releaseManifest(signal?: AbortSignal): Promise<ReleaseManifest> {
    const reply = await this.call(getNodeRelease, { signed: true, signal }, (text) => jsonAnswer(getNodeRelease, text));
    return (reply as z.output<(typeof getNodeRelease)['response']>).data;
  }

  /** One file of the served release, at most `maxBytes` long (its manifest size). */
  async releaseFile(version: string, file: string, maxBytes: number, signal?: AbortSignal): Promise<Buffer> {
    const query = `?${new URLSearchParams({ version, path: file })}`;
    return this.call(
      getNodeReleaseFile,
      { query, signed: true, signal, maxBytes, timeoutMs: 120_000 },
      (_text, bytes) => bytes,
    );
  }

  /** The operator's geo database named by `sha256` (the caller checks the hash). */
  async geoDatabase(sha256: string, signal?: AbortSignal): Promise<Buffer> {
    const query = `?${new URLSearchParams({ sha256 })}`;
    return this.call(
      getNodeGeoDatabase,
      { query, signed: true, signal, maxBytes: GEO_DATABASE_MAX_BYTES, timeoutMs: 300_000 },
      (_text, bytes) => bytes,
    );
  }

  /** The operator's reputation list file named by `sha256` (the caller checks the hash). */
  async abuseIPs(sha256: string, signal?: AbortSignal): Promise<Buffer> {
    const query = `?${new URLSearchParams({ sha256 })}`;
    return this.call(
      getNodeAbuseIPs,
      { query, signed: true, signal, maxBytes: ABUSE_IP_FILE_MAX_BYTES, timeoutMs: 120_000 },
      (_text, bytes) => bytes,
    );
  }

  async upgradeProgress(
    body: z.input<NonNullable<(typeof reportNodeUpgradeProgress)['request']['body']>>,
    signal?: AbortSignal,
  ): Promise<void> {
    const checked = reportNodeUpgradeProgress.request.body.parse({
      ...body,
      message: body.message.slice(0, NODE_COMMAND_MESSAGE_MAX),
    });
    await this.call(reportNodeUpgradeProgress, { body: checked, signed: true, signal }, (text) =>
      jsonAnswer(reportNodeUpgradeProgress, text),
    );
  }
}
