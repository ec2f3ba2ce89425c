import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ipEntryBounds, type NodeExporter, parseIP } from '@rampart/contract';
import { MetricsRegistry, PROMETHEUS_CONTENT_TYPE } from '@rampart/contract/prometheus';
import type { Logger } from '../log.js';
import { addCounts, emptyCounts, type NodeCounts } from './node-metrics.js';

/**
 * The node's Prometheus metrics (docs/decisions.md "Metrics"): `GET /metrics` on the agent's own
 * HTTP server, apart from nginx (a scrape never costs the data plane anything), protected as the
 * operator's node exporter setting says — only `whiteIPs` may scrape (403 to anyone else, and to
 * everyone while the list is empty), at most `limitCountTimes` scrapes per `limitCountSec` seconds
 * per address (429 over it). The setting comes with the applied snapshot and applies at once.
 */
export interface NodeExporterOptions {
  /** The setting in force (the applied snapshot's), or null before any snapshot: nobody may scrape. */
  setting: () => NodeExporter | null;
  port: number;
  /** Address to bind; undefined = every address. */
  host?: string | undefined;
  log: Logger;
  now?: () => number;
}

/** Whether `ip` is one of `entries` (addresses or CIDRs; an IPv4-mapped IPv6 peer counts as IPv4). */
export function allowedBy(entries: readonly string[], ip: string): boolean {
  const peer = parseIP(ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip);
  if (peer === null) return false;
  return entries.some((entry) => {
    const bounds = ipEntryBounds(entry);
    return bounds !== null && bounds.version === peer.version && bounds.from <= peer.value && peer.value <= bounds.to;
  });
}

export class NodeExporterServer {
  private readonly totals: NodeCounts = emptyCounts();
  private spool = { bytes: 0, batches: 0 };
  private readonly windows = new Map<string, { start: number; count: number }>();
  /** The limit the windows count for (limitCountSec/limitCountTimes). */
  private windowsLimit = '';
  private server: http.Server | null = null;

  constructor(private readonly options: NodeExporterOptions) {}

  /** The worker's counts since its last message (event-worker.ts `stats`). */
  add(counts: NodeCounts, spoolBytes: number, spoolBatches: number): void {
    addCounts(this.totals, counts);
    this.spool = { bytes: spoolBytes, batches: spoolBatches };
  }

  /** The port it listens on (0 before `start`). */
  get port(): number {
    return (this.server?.address() as AddressInfo | null)?.port ?? 0;
  }

  async start(): Promise<void> {
    const server = http.createServer((req, res) => this.answer(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: this.options.port, host: this.options.host }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.options.log('info', 'node_exporter.listening', { port: this.port });
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    const reply = (status: number, body: string, type = 'text/plain; charset=utf-8') => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    const refusal = this.refusal(req);
    if (refusal) {
      reply(refusal.status, refusal.text);
      return;
    }
    void this.encode().then(
      (text) => reply(200, text, PROMETHEUS_CONTENT_TYPE),
      () => reply(500, 'error\n'),
    );
  }

  /** Why a request is not answered with the metrics: not a white IP, over the limit, not `GET /metrics`. */
  private refusal(req: http.IncomingMessage): { status: number; text: string } | null {
    const setting = this.options.setting();
    const peer = req.socket.remoteAddress ?? '';
    if (!setting || !allowedBy(setting.whiteIPs, peer)) return { status: 403, text: 'forbidden\n' };
    if (!this.take(peer, setting)) return { status: 429, text: 'too many requests\n' };
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics')
      return { status: 404, text: 'not found\n' };
    return null;
  }

  /** Counts a scrape in its address's fixed window; false when the window is full. */
  private take(peer: string, setting: NodeExporter): boolean {
    const now = (this.options.now ?? Date.now)();
    const windowMs = setting.limitCountSec * 1000;
    // A new limit starts counting afresh (scrapes counted under the old one do not carry over).
    const limit = `${setting.limitCountSec}/${setting.limitCountTimes}`;
    if (limit !== this.windowsLimit) {
      this.windows.clear();
      this.windowsLimit = limit;
    }
    let window = this.windows.get(peer);
    if (!window || now - window.start >= windowMs) {
      // Scrapers are few (the white list): forget the old windows whenever a new one starts.
      for (const [ip, w] of this.windows) if (now - w.start >= windowMs) this.windows.delete(ip);
      window = { start: now, count: 0 };
      this.windows.set(peer, window);
    }
    window.count += 1;
    return window.count <= setting.limitCountTimes;
  }

  private encode(): Promise<string> {
    const registry = new MetricsRegistry();
    const requests = registry.counter('rampart_node_requests_total', 'Requests served, by status class', ['status']);
    for (const [status, n] of Object.entries(this.totals.requests)) requests.inc({ status }, n);
    const blocks = registry.counter('rampart_node_blocks_total', 'Requests blocked, by action', ['action']);
    for (const [action, n] of Object.entries(this.totals.blocks)) blocks.inc({ action }, n);
    const cache = registry.counter('rampart_node_cache_requests_total', 'Cache lookups, by result', ['result']);
    for (const [result, n] of Object.entries(this.totals.cache)) cache.inc({ result }, n);
    const hit = this.totals.cache.hit ?? 0;
    const lookups = hit + (this.totals.cache.miss ?? 0);
    registry
      .gauge('rampart_node_cache_hit_ratio', 'Cache hits of all cache lookups since the agent started (0 without any)')
      .set({}, lookups === 0 ? 0 : hit / lookups);
    registry
      .counter('rampart_node_upstream_errors_total', 'Requests whose origin answered 5xx or could not be reached')
      .inc({}, this.totals.upstreamErrors);
    registry
      .counter('rampart_node_spool_dropped_events_total', 'Request events dropped because the spool was full')
      .inc({}, this.totals.spoolDropped);
    registry
      .gauge('rampart_node_spool_bytes', 'Bytes of request event batches waiting to be shipped')
      .set({}, this.spool.bytes);
    registry
      .gauge('rampart_node_spool_batches', 'Request event batches waiting to be shipped')
      .set({}, this.spool.batches);
    return registry.encode();
  }
}
