import {
  ABUSE_IP_FILE_MAX_BYTES,
  type AnyRoute,
  type CacheUrlResult,
  DATA_PLANE_LIMITS,
  EDGE_COMMANDS_MAX_WAIT_SECONDS,
  EDGE_PLANE_STREAM_KEEPALIVE_SECONDS,
  EDGE_SNAPSHOT_MAX_WAIT_SECONDS,
  type EdgeBlockReport,
  type EdgeCommand,
  type EdgeSnapshot,
  EVENT_BATCH_CONTENT_TYPE,
  EVENT_BATCH_GZIP_MAX_BYTES,
  edgeCommandSchema,
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
import { z } from 'zod';
import { formatPath } from '../data-plane/schema.js';
import {
  failureDetail,
  NodeApiError,
  readBounded,
  refusal,
  SnapshotRefusedError,
  withTimeout,
} from './node-api-errors.js';

export { NodeApiError, SnapshotRefusedError } from './node-api-errors.js';

/**
 * The node API as the agent calls it. Every request but `register` is signed with the contract's
 * `signedNodeHeaders` (@rampart/contract/node-signing), the code the control plane checks against:
 * HMAC-SHA256 under the node secret of the method, path with query as sent (`/api/edge/v1/...`),
 * unix timestamp in seconds, a fresh nonce and the SHA-256 hex of the body. Every answer is
 * checked with the route's `response` schema.
 */

export interface NodeCredentials {
  nodeId: number;
  nodeSecret: string;
}

/** A command the agent received: one it knows, or one it cannot run (unknown type or payload). */
export type ReceivedCommand = EdgeCommand | { id: number; type: string; refused: string };
/** What the agent reports for one command. */
export interface CommandResult {
  ok: boolean;
  message: string;
  results?: CacheUrlResult[];
}

/** The command poll's envelope: each command is then checked alone, so one unknown type spoils nothing else. */
const commandsEnvelope = z.object({
  data: z.array(z.looseObject({ id: z.number().int().positive(), type: z.string().max(64) })).max(100),
});

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
    try {
      const response = await fetch(url, {
        method: route.method,
        headers,
        body: raw === undefined && options.body === undefined ? null : body,
        signal: timed.signal,
      });
      status = response.status;
      serverDate = response.headers.get('date');
      bytes = await readBounded(response, options.maxBytes);
    } catch (err) {
      if (err instanceof NodeApiError) throw err;
      throw new NodeApiError(0, `${route.method} ${url.pathname}: ${failureDetail(err)}`);
    } finally {
      timed.done();
    }
    const text = bytes.toString('utf8');
    if (status < 200 || status > 299) throw refusal(route, url, status, text, serverDate, options.signed);
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
    const params = new URLSearchParams(known ?? {});
    const url = this.url(route, params.size > 0 ? `?${params}` : '');
    if (!this.credentials) throw new Error('the node is not registered yet');
    const headers = {
      accept: 'application/x-ndjson',
      ...signedNodeHeaders(this.credentials, 'GET', url.pathname + url.search, ''),
    };
    const idle = new AbortController();
    let timer = setTimeout(() => idle.abort(), idleMs);
    const streamSignal = signal ? AbortSignal.any([signal, idle.signal]) : idle.signal;
    const failed = (err: unknown): never => {
      if (err instanceof NodeApiError) throw err;
      const detail = idle.signal.aborted ? `nothing received for ${idleMs} ms` : failureDetail(err);
      throw new NodeApiError(0, `GET ${url.pathname}: ${detail}`);
    };
    try {
      const response = await fetch(url, { headers, signal: streamSignal }).catch(failed);
      if (response.status < 200 || response.status > 299) {
        const text = (await readBounded(response, 64 * 1024).catch(failed)).toString('utf8');
        throw refusal(route, url, response.status, text, response.headers.get('date'), true);
      }
      const maxLine = DATA_PLANE_LIMITS.documentBytes + 1024 * 1024;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const reader = response.body;
      if (!reader) return;
      try {
        for await (const chunk of reader) {
          // Silence is counted between chunks, not while a line is taken (a whole plane may take long).
          clearTimeout(timer);
          let bytes = Buffer.from(chunk);
          for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10)) {
            const line = Buffer.concat([...pending, bytes.subarray(0, at)]).toString('utf8');
            pending = [];
            pendingBytes = 0;
            bytes = bytes.subarray(at + 1);
            if (line !== '') await take(NodeClient.streamLine(line));
          }
          pendingBytes += bytes.byteLength;
          if (pendingBytes > maxLine) throw new NodeApiError(200, `plane stream line larger than ${maxLine} bytes`);
          if (bytes.byteLength > 0) pending.push(bytes);
          timer = setTimeout(() => idle.abort(), idleMs);
        }
      } catch (err) {
        if (err instanceof NodeApiError || !(streamSignal.aborted || (err as { name?: string }).name === 'TypeError'))
          throw err;
        failed(err);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  private static streamLine(line: string): PlaneAnswer {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new NodeApiError(200, `plane stream line is not JSON: ${(err as Error).message}`);
    }
    const result = getNodePlaneStream.response.safeParse(value);
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    throw new NodeApiError(200, `plane stream line: ${formatPath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`);
  }

  private static json(route: AnyRoute, text: string): unknown {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new NodeApiError(200, `${routeUrl(route)} answered something that is not JSON`);
    }
    const result = route.response.safeParse(value);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new NodeApiError(
        200,
        `${routeUrl(route)} answered an unexpected body: ${formatPath(issue?.path ?? [])}: ${issue?.message}`,
      );
    }
    return result.data;
  }

  /** Registers with the operator's join token; answers the node id and secret. */
  async register(body: RegisterBody, signal?: AbortSignal): Promise<NodeCredentials> {
    const checked = registerNode.request.body.parse(body);
    const reply = await this.call(registerNode, { body: checked, signed: false, signal }, (text) =>
      NodeClient.json(registerNode, text),
    );
    return (reply as z.output<(typeof registerNode)['response']>).data;
  }

  async reportStatus(body: StatusBody, signal?: AbortSignal): Promise<void> {
    const checked = reportNodeStatus.request.body.parse(body);
    await this.call(reportNodeStatus, { body: checked, signed: true, signal }, (text) =>
      NodeClient.json(reportNodeStatus, text),
    );
  }

  /** What this node probes as a monitor node (empty when it is not one). */
  async probes(signal?: AbortSignal): Promise<ProbeAssignment[]> {
    const reply = await this.call(getProbes, { signed: true, signal }, (text) => NodeClient.json(getProbes, text));
    return (reply as z.output<(typeof getProbes)['response']>).data;
  }

  async reportProbes(body: ProbeResultsBody, signal?: AbortSignal): Promise<void> {
    const checked = reportProbeResults.request.body.parse(body);
    await this.call(reportProbeResults, { body: checked, signed: true, signal }, (text) =>
      NodeClient.json(reportProbeResults, text),
    );
  }

  /** Reports blocks of the node's DROP + Blacklist rules (at most BLOCK_REPORT_MAX per call). */
  async reportBlocks(entries: EdgeBlockReport[], signal?: AbortSignal): Promise<void> {
    const checked = reportNodeBlocks.request.body.parse({ entries });
    await this.call(reportNodeBlocks, { body: checked, signed: true, signal }, (text) =>
      NodeClient.json(reportNodeBlocks, text),
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
      (text) => NodeClient.json(route, text),
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
      (text) => {
        // The largest data plane plus room for the envelope and the listen settings.
        if (Buffer.byteLength(text, 'utf8') > DATA_PLANE_LIMITS.documentBytes + 1024 * 1024) {
          throw new SnapshotRefusedError(null, '(document)', 'larger than the data-plane limit');
        }
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (err) {
          throw new NodeApiError(200, `snapshot answer is not JSON: ${(err as Error).message}`);
        }
        const result = getNodeSnapshot.response.safeParse(value);
        if (result.success) return result.data;
        const issue = result.error.issues[0];
        const path = issue?.path ?? [];
        const data = (value as { data?: { version?: unknown } } | null)?.data;
        const refusedVersion =
          typeof data?.version === 'string' && /^[0-9a-f]{32}$/.test(data.version) ? data.version : null;
        if (path[0] === 'data' && path.length > 1 && data !== null && typeof data === 'object') {
          throw new SnapshotRefusedError(refusedVersion, formatPath(path.slice(1)), issue?.message ?? 'invalid');
        }
        throw new NodeApiError(200, `snapshot answer: ${formatPath(path)}: ${issue?.message ?? 'invalid'}`);
      },
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
      params.set('meta', known.meta);
    }
    params.set('wait', String(wait));
    const reply = await this.call(
      getNodePlane,
      { query: `?${params}`, signed: true, signal, timeoutMs: wait * 1000 + this.requestTimeoutMs },
      (text) => {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (err) {
          throw new NodeApiError(200, `plane answer is not JSON: ${(err as Error).message}`);
        }
        const result = getNodePlane.response.safeParse(value);
        if (result.success) return result.data;
        const issue = result.error.issues[0];
        throw new NodeApiError(200, `plane answer: ${formatPath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`);
      },
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
      (text) => {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          throw new NodeApiError(200, `${routeUrl(getNodeCommands)} answered something that is not JSON`);
        }
        const envelope = commandsEnvelope.safeParse(value);
        if (!envelope.success) {
          const issue = envelope.error.issues[0];
          throw new NodeApiError(200, `commands answer: ${formatPath(issue?.path ?? [])}: ${issue?.message}`);
        }
        return envelope.data.data.map((item): ReceivedCommand => {
          const command = edgeCommandSchema.safeParse(item);
          if (command.success) return command.data;
          const issue = command.error.issues[0];
          return { id: item.id, type: item.type, refused: `${formatPath(issue?.path ?? [])}: ${issue?.message}` };
        });
      },
    );
  }

  async commandResult(id: number, result: CommandResult, signal?: AbortSignal): Promise<void> {
    const body = {
      ok: result.ok,
      message: result.message.slice(0, NODE_COMMAND_MESSAGE_MAX),
      ...(result.results ? { results: result.results } : {}),
    };
    await this.call(reportNodeCommandResult, { path: { id }, body, signed: true, signal }, (text) =>
      NodeClient.json(reportNodeCommandResult, text),
    );
  }

  /** The manifest of the release the control plane serves (checked with the contract's schema). */
  async releaseManifest(signal?: AbortSignal): Promise<ReleaseManifest> {
    const reply = await this.call(getNodeRelease, { signed: true, signal }, (text) =>
      NodeClient.json(getNodeRelease, text),
    );
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
      NodeClient.json(reportNodeUpgradeProgress, text),
    );
  }
}
