import { timingSafeEqual } from 'node:crypto';
import { ALL_ROUTES, NODE_ONLINE_WINDOW_SECONDS } from '@rampart/contract';
import { LATENCY_BUCKETS, MetricsRegistry, PROMETHEUS_CONTENT_TYPE } from '@rampart/contract/prometheus';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IngestOutcome } from '../../modules/analytics/ingest.service.js';
import type { SystemStateRepository } from '../../modules/system/system-state.repository.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors/app-error.js';
import { fastifyPath } from '../http/bind-route.js';

/** Seconds from an event on the node to its batch reaching the control plane. */
const INGEST_LAG_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 900, 3600] as const;

/** The path Prometheus scrapes, outside the API (docs/decisions.md "Metrics"). */
export const METRICS_PATH = '/metrics';

/**
 * The control plane's metrics: HTTP requests by the contract's route id and status class with
 * their latency, counted in this process; the node analytics batches ingested and their lag; and,
 * read from the config store at each scrape, the job queues (node commands, log exports), alert
 * deliveries, automatic certificates and ACME attempts, DNS changes waiting for a retry and the nodes
 * up and down (installation-wide: the scraper is the installation's owner).
 */
export class ControlPlaneMetrics {
  readonly registry = new MetricsRegistry();
  private readonly routeIds = new Map<string, string>();
  private readonly requests = this.registry.counter(
    'rampart_http_requests_total',
    'HTTP requests answered, by contract route id (or path pattern) and status class',
    ['route', 'method', 'status'],
  );
  private readonly latency = this.registry.histogram(
    'rampart_http_request_duration_seconds',
    'Time to answer an HTTP request, by contract route id (or path pattern)',
    ['route', 'method'],
    LATENCY_BUCKETS,
  );
  private readonly ingestBatches = this.registry.counter(
    'rampart_analytics_ingest_batches_total',
    'Event batches from nodes taken into the analytics store, by outcome',
    ['outcome'],
  );
  private readonly ingestEvents = this.registry.counter(
    'rampart_analytics_ingest_events_total',
    'Request events taken into the analytics store',
  );
  private readonly ingestDropped = this.registry.counter(
    'rampart_analytics_ingest_dropped_events_total',
    'Events the nodes reported dropped from their spool before a batch',
  );
  private readonly ingestLag = this.registry.histogram(
    'rampart_analytics_ingest_lag_seconds',
    "Age of a batch's oldest event when the batch was taken in",
    [],
    INGEST_LAG_BUCKETS,
  );
  private readonly ingestRefusals = this.registry.counter(
    'rampart_node_ingest_refused_total',
    'Node-API ingest requests refused before their body was read, by call and reason ' +
      '(unauthenticated, busy, node_share, legacy_busy)',
    ['route', 'reason'],
  );
  private readonly lastIngest = this.registry.gauge(
    'rampart_analytics_last_ingest_timestamp_seconds',
    'When the last event batch was taken in (unix seconds; 0 = none since start)',
  );

  constructor(
    private readonly state: SystemStateRepository,
    private readonly clock: Clock,
  ) {
    for (const route of ALL_ROUTES) this.routeIds.set(`${route.method} ${fastifyPath(route)}`, route.id);
    const commands = this.registry.gauge('rampart_node_commands', 'Node commands kept, by status', ['status']);
    const exports = this.registry.gauge('rampart_log_exports', 'Log export files kept, by status', ['status']);
    const deliveries = this.registry.gauge('rampart_alert_deliveries', 'Alert deliveries kept, by channel and status', [
      'channel',
      'status',
    ]);
    const certs = this.registry.gauge('rampart_auto_certificates', 'Automatic certificates, by status', ['status']);
    const acme = this.registry.gauge('rampart_acme_attempts', 'ACME issuing attempts kept, by outcome', ['outcome']);
    const dns = this.registry.gauge(
      'rampart_dns_unprocessed_changes',
      'DNS record changes the providers refused, waiting for a retry',
    );
    const nodes = this.registry.gauge('rampart_nodes', 'Nodes by state (up: reported within the online window)', [
      'state',
    ]);
    this.registry.collect(async () => {
      for (const r of await this.state.nodeCommands()) commands.set({ status: r.status }, r.count);
      for (const r of await this.state.logExports()) exports.set({ status: r.status }, r.count);
      for (const r of await this.state.alertDeliveries())
        deliveries.set({ channel: r.channel, status: r.status }, r.count);
      for (const r of await this.state.autoCertificates()) certs.set({ status: r.status }, r.count);
      for (const r of await this.state.acmeAttempts()) acme.set({ outcome: r.status }, r.count);
      dns.set({}, await this.state.dnsUnprocessed());
      const counts = await this.state.nodeCounts(undefined, new Date(this.clock() - NODE_ONLINE_WINDOW_SECONDS * 1000));
      for (const [state, value] of Object.entries(counts)) nodes.set({ state }, value);
    });
  }

  /** The label of a request: its contract route id, else the matched path pattern, else `unmatched`. */
  private routeOf(request: FastifyRequest): string {
    const pattern = request.routeOptions.url;
    if (pattern === undefined) return 'unmatched';
    return this.routeIds.get(`${request.method} ${pattern}`) ?? pattern;
  }

  /** Counts every answered request (the onResponse hook). */
  observeRequests(app: FastifyInstance): void {
    app.addHook('onResponse', async (request, reply) => {
      const route = this.routeOf(request);
      this.requests.inc({ route, method: request.method, status: `${Math.floor(reply.statusCode / 100)}xx` });
      this.latency.observe({ route, method: request.method }, reply.elapsedTime / 1000);
    });
  }

  /** A node's event batch: taken in (with its oldest event's time in unix seconds), or refused. */
  ingested(outcome: IngestOutcome): void {
    if (outcome === 'failed') {
      this.ingestBatches.inc({ outcome: 'failed' });
      return;
    }
    const now = this.clock() / 1000;
    this.ingestBatches.inc({ outcome: 'ok' });
    this.ingestEvents.inc({}, outcome.events);
    this.ingestDropped.inc({}, outcome.dropped);
    if (outcome.oldestSeconds !== null) this.ingestLag.observe({}, Math.max(0, now - outcome.oldestSeconds));
    this.lastIngest.set({}, Math.floor(now));
  }

  /** A node-API ingest request refused at admission (platform/http/node-admission.ts). */
  ingestRefused(route: string, reason: string): void {
    this.ingestRefusals.inc({ route, reason });
  }

  /**
   * `GET /metrics` when a token is configured: `Authorization: Bearer <token>` or 101012 (a missing
   * or wrong credential), compared in constant time. Without a token the path is not served.
   */
  serve(app: FastifyInstance, token: string | null | undefined): void {
    if (!token) return;
    const expected = Buffer.from(`Bearer ${token}`);
    app.get(METRICS_PATH, async (request, reply) => {
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError(101012);
      return reply.header('content-type', PROMETHEUS_CONTENT_TYPE).send(await this.registry.encode());
    });
  }
}
