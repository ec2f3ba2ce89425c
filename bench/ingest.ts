/**
 * `npm run bench:ingest`: the control plane taking a hundred nodes' statistics at a million
 * requests a second. Prints one JSON object:
 *
 *   {"nodes", "offered_rps", "accounted_rps", "exact", "lag_p95_s", "cp_cpu_cores", "store",
 *    "log_events_per_s", "log_sampled_share", "edge_cost", …}
 *
 * - The control plane: the built bundle, embedded stores (PGlite, DuckDB) by default;
 *   BENCH_STORE=clickhouse starts a ClickHouse server on loopback for its analytics (Debian's
 *   clickhouse-server, as bench:analytics) and reports that server's CPU apart (`ch_cpu_cores`).
 * - Sites: BENCH_SITES (default 1,000) sites of the root customer with one domain each, through the API.
 * - Simulated nodes: BENCH_NODES (default 100) join through the node API's registration and are
 *   placed by the operator. Each offers BENCH_RPS / nodes requests a second (default 1,000,000 in
 *   all), of which BENCH_FLOOD_SHARE (default 0.2) is a blacklisted flood on three sites, the rest
 *   browsing over every site (generateTraffic: Zipf-like sites, addresses, URLs). Their payloads
 *   are the agent's own aggregate feed over those requests (bench/ingest/traffic.ts), prepared
 *   before the window for BENCH_PROFILES distinct traffic profiles (default 4; node n ships
 *   profile n % profiles: the same aggregates, each node its own batches), and shipped on the
 *   agents' schedule with the agent's shipper (bench/ingest/nodes.ts): each group when the feed
 *   cut it — the open minutes' partials every BENCH_PARTIAL_MS of log time (default the agent's
 *   15 s), a minute's rest once it closed (its end and the 5 s grace) — the nodes spread over a second.
 * - The real node: the agent and its nginx (bench/ingest/live.ts) with aggregates on, serving the
 *   live site, with BENCH_LIVE_RPS (default 100) requests a second through it over the window.
 * - The window: BENCH_MINUTES whole UTC minutes (default 1), starting at the first minute the
 *   preparation leaves time for. The nodes give up BENCH_ACK_WAIT_S (default 600) after it: the
 *   groups not acknowledged by then are left out (`groups_acknowledged` of `groups_shipped`).
 * - BENCH_CP_PROFILE=<dir>: the control plane writes a V8 CPU profile there when it stops;
 *   BENCH_CP_NODE_OPTIONS: more of Node's options for it (bench/control-plane.ts).
 *
 * Figures: `accounted_rps`, the operator's statistics card over every site for the window, per
 * second; `exact`, every site's card (requests, bytes in and out, cache hits, blocked,
 * blacklisted, dropped, upstream requests and errors, status classes) equal to what the generator
 * sent to its domain, and the live site's requests and status classes to what the client got;
 * `lag_p95_s`, from each request (its second) to the acknowledgement of the node's group holding
 * it (a partial or a close: the store has merged it, the statistics show it), the 95th percentile over
 * requests; `cp_cpu_cores`, the control plane process's CPU (its process tree, /proc) from the
 * window's start to the last group acknowledged, per second of traffic (the cores it needs to keep
 * up); `log_events_per_s`, access-log records of the window per second; `log_sampled_share`,
 * passed requests without a log record (the simulated nodes ship no event batches: only the real
 * node's requests are logged). `edge_cost`: bench/aggregate-cost.ts over one node's minute
 * (aggregator against per-event batches, CPU per 1,000 requests), in the same run before the window.
 */
import { copyFile, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_PARTIAL_MS, ROLLUP_COUNTERS } from '@rampart/contract';
import { cleanUpAgents } from '../apps/edge/test/helpers/agent.js';
import { freePort } from '../apps/edge/test/helpers/net.js';
import {
  addSiteDomain,
  initializeFirstNode,
  removeDir,
  setUpOperator,
  waitUntil,
} from '../apps/edge/test/helpers/real-control-plane.js';
import { startClickHouse } from '../apps/server/test/helpers/clickhouse-server.js';
import { aggregateCost } from './aggregate-cost.js';
import { startBenchControlPlane } from './control-plane.js';
import { get, log, round, startNginx, treeTicks } from './edge/load.js';
import { accessLogRecords, card, compareSites } from './ingest/check.js';
import { liveTraffic, startLiveNode } from './ingest/live.js';
import { registerNodes, shipOnSchedule } from './ingest/nodes.js';
import { calibrate, prepareTraffic } from './ingest/traffic.js';

const num = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
};
const NODES = num('BENCH_NODES', 100);
const SITES = num('BENCH_SITES', 1000);
const RPS = num('BENCH_RPS', 1_000_000);
const FLOOD_SHARE = Number(process.env.BENCH_FLOOD_SHARE ?? 0.2);
const PROFILES = Math.min(NODES, num('BENCH_PROFILES', 4));
const MINUTES = num('BENCH_MINUTES', 1);
const LIVE_RPS = num('BENCH_LIVE_RPS', 100);
const STORE = process.env.BENCH_STORE === 'clickhouse' ? 'clickhouse' : 'duckdb';
const PARTIAL_MS = Number(process.env.BENCH_PARTIAL_MS ?? DEFAULT_PARTIAL_MS);
/** Seconds after the window the nodes' groups may still be acknowledged; those later are left out. */
const ACK_WAIT_S = num('BENCH_ACK_WAIT_S', 600);
const TICKS = 100;

const nodeRps = Math.round(RPS / NODES);
const floodRps = Math.round(nodeRps * FLOOD_SHARE);
const browseRps = nodeRps - floodRps;

/** What was started, stopped in reverse at the end (or on SIGINT / SIGTERM). */
const stops: (() => Promise<void>)[] = [];
const stopAll = async () => {
  for (const stop of stops.splice(0).reverse()) await stop().catch((err) => log(`stopping: ${String(err)}`));
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping what the bench started`);
    void stopAll().finally(() => process.exit(130));
  });
}

/**
 * On a failure (or groups left unacknowledged): the work directory is kept, ClickHouse's logs copied into it before its server
 * goes, and the tail of the control plane's log (its warnings and errors) printed beside the error.
 */
let failed = false;
/** ClickHouse's log directory, while its server runs. */
let chLogs: string | null = null;

async function keepLogs(work: string): Promise<void> {
  if (chLogs) {
    for (const file of ['server.err.log', 'server.log'])
      await copyFile(path.join(chLogs, file), path.join(work, `clickhouse-${file}`)).catch(() => {});
  }
  const cpLog = await readFile(path.join(work, 'control-plane', 'output.log'), 'utf8').catch(() => '');
  // The load shedding's refusals (101005, logged as errors) are many and expected: left out here.
  const lines = cpLog
    .trimEnd()
    .split('\n')
    .filter((line) => !line.includes('AppError 101005'))
    .slice(-40)
    .join('\n');
  log(`the control plane's log ends with (its load shedding's refusals left out):\n${lines}`);
  if (chLogs) {
    const err = await readFile(path.join(work, 'clickhouse-server.err.log'), 'utf8').catch(() => '');
    log(`ClickHouse's error log ends with:\n${err.trimEnd().split('\n').slice(-20).join('\n')}`);
  }
  log(`kept ${work} (control-plane/output.log${chLogs ? ', clickhouse-server.err.log, clickhouse-server.log' : ''})`);
}

async function main() {
  const work = await mkdtemp(path.join(tmpdir(), 'rampart-bench-ingest-'));
  stops.push(async () => {
    if (process.env.BENCH_KEEP || failed) log(`kept ${work}`);
    else await removeDir(work);
  });
  try {
    // What one node's aggregation costs against per-event shipping (not timed with the control plane).
    log(`edge cost: one node's minute, ${browseRps} + ${floodRps} requests/s`);
    const edgeCost = aggregateCost({ seconds: 60, rps: browseRps, floodRps, sites: SITES });

    const env: Record<string, string> = {};
    // DuckDB's threads in the control plane (its default when unset), to compare settings.
    if (process.env.RAMPART_ANALYTICS_THREADS) env.RAMPART_ANALYTICS_THREADS = process.env.RAMPART_ANALYTICS_THREADS;
    let chPid: number | null = null;
    if (STORE === 'clickhouse') {
      log('starting ClickHouse');
      const ch = await startClickHouse();
      stops.push(ch.stop);
      chPid = ch.pid;
      chLogs = ch.dir;
      const url = new URL(ch.url);
      url.pathname = '/rampart';
      env.CLICKHOUSE_URL = url.toString();
    }
    const originPort = await freePort();
    stops.push(
      await startNginx(
        path.join(work, 'origin'),
        1,
        `  access_log off;
  server { listen 127.0.0.1:${originPort} reuseport; location / { return 200 "hello from the origin\\n"; } }`,
      ),
    );
    log(`starting the control plane (${STORE})`);
    const cp = await startBenchControlPlane(path.join(work, 'control-plane'), env, stops);
    const setup = await setUpOperator(cp);

    log('starting the real node');
    const live = await startLiveNode(cp.url, setup.joinToken);
    // The agent and its nginx, and its state directory.
    stops.push(cleanUpAgents);
    await initializeFirstNode(setup);
    const liveHosts = ['live-a.bench.example', 'live-b.bench.example'];
    for (const host of liveHosts) await addSiteDomain(setup, host, originPort);

    log(`creating ${SITES} sites with a domain each`);
    const sites: { siteId: number; domainId: number }[] = [];
    for (let k = 0; k < SITES; k++) {
      const made = await setup.operator.call<{ siteID: number }>('POST', 'client/site', {
        siteName: `bench ${k}`,
        userID: setup.userId,
        productID: setup.productId,
      });
      const [domain] = await setup.customer.call<{ id: number }[]>('POST', `user/site/${made.siteID}/domains`, {
        domains: [{ name: `s${k}.bench.example`, upstreams: [{ ip: '127.0.0.1', port: originPort }] }],
      });
      sites.push({ siteId: made.siteID, domainId: (domain as { id: number }).id });
    }
    await waitUntil(async () => (await get(live.ports.http, liveHosts[1] as string)) === 200, 600_000, 200);

    log(`registering ${NODES} simulated nodes`);
    const nodes = await registerNodes(cp.url, setup, NODES, PROFILES);

    const traffic = {
      rps: browseRps,
      floodRps,
      domainIds: sites.map((s) => s.domainId),
      floodDomains: [3, 17, 250].filter((d) => d <= SITES),
    };
    // The window starts at a minute the preparation leaves time for: a profile's minute as long as
    // a calibration just measured it, half as long again (the machine is shared), the spools' copies.
    const perProfile = await calibrate(traffic, work);
    const ready = Date.now() + (perProfile * 1.5 * PROFILES * MINUTES + 30) * 1000;
    const start = Math.ceil(ready / 60_000) * 60_000;
    const windowEnd = start + MINUTES * 60_000;
    log(
      `preparing ${PROFILES} profiles (~${Math.round(perProfile)} s each) for the window ${new Date(start).toISOString()} (+${MINUTES} min)`,
    );
    const prepared = await prepareTraffic(
      {
        ...traffic,
        profiles: PROFILES,
        nodesOf: (p) => nodes.filter((n) => n.profile === p).length,
        minutes: MINUTES,
        start,
        partialMs: PARTIAL_MS,
      },
      work,
      log,
    );
    // The nodes ship their first group when the feed cut it (the first partial, ~15 s in; the
    // minute's close without partials): until then there is time to copy the spools (the live
    // traffic then starts late, and counts what it sent).
    const firstCut = Math.min(...prepared.groups.map((g) => g[0]?.at ?? 60_000));
    if (Date.now() > start + firstCut - 3000)
      throw new Error('the preparation ran past the window: run again (the machine is busier than measured)');

    log(`waiting for the window, ${Math.round((start - Date.now()) / 1000)} s`);
    const shipping = shipOnSchedule(nodes, prepared.groups, work, start, log, windowEnd + ACK_WAIT_S * 1000);
    await new Promise((r) => setTimeout(r, Math.max(0, start - Date.now())));
    const cpu0 = await treeTicks(cp.pid);
    const ch0 = chPid === null ? 0 : await treeTicks(chPid);
    log('window open: live traffic, the nodes ship each minute as it closes');
    const liveSent = await liveTraffic(live.ports.http, liveHosts, LIVE_RPS, start, windowEnd - 1000);
    const acknowledged = await shipping;
    const cpuTicks = (await treeTicks(cp.pid)) - cpu0;
    const chTicks = chPid === null ? null : (await treeTicks(chPid)) - ch0;
    const groupsShipped = nodes.reduce((n, node) => n + (prepared.groups[node.profile]?.length ?? 0), 0);
    const groupsAcknowledged = acknowledged.flat().filter((t) => t !== undefined).length;
    const lastAck = Math.max(...acknowledged.flat().filter((t) => t !== undefined));
    log(
      `${groupsAcknowledged} of ${groupsShipped} groups acknowledged, the last ${round((lastAck - windowEnd) / 1000, 1)} s after the window`,
    );
    // Groups left unacknowledged: what the control plane and ClickHouse said is kept (keepLogs).
    if (groupsAcknowledged < groupsShipped) {
      failed = true;
      await keepLogs(work);
    }

    const range = { startTime: new Date(start).toISOString(), endTime: new Date(windowEnd).toISOString() };
    // The real node's minutes: shipped once its reader passed them (its log's time and the grace).
    let liveCard = await card(setup.operator, range, [setup.siteId]);
    await waitUntil(
      async () => {
        liveCard = await card(setup.operator, range, [setup.siteId]);
        return liveCard.requests >= liveSent.sent;
      },
      180_000,
      1000,
    ).catch(() => log(`the live site shows ${liveCard.requests} of ${liveSent.sent} requests`));
    // Every live request answered 200 by the origin: the card's requests and 2xx are all of them.
    const live200 = liveSent.statuses.get(200) ?? 0;
    const liveMismatches =
      liveCard.requests === liveSent.sent && liveCard.s2xx === live200 && live200 === liveSent.sent
        ? []
        : [
            `live site: ${liveCard.requests} requests and ${liveCard.s2xx} 2xx shown; ${liveSent.sent} sent, ${live200} answered 200, ${liveSent.failed} failed`,
          ];

    log('reading every site card');
    const sitesChecked = await compareSites(
      setup.operator,
      range,
      sites.map((s) => ({ siteId: s.siteId, expected: prepared.expected.get(s.domainId) ?? [] })),
    );
    const all = await card(setup.operator, range);
    const noDomain = prepared.expected.get(0)?.[0] ?? 0;
    const seconds = MINUTES * 60;
    const offered = prepared.requests + liveSent.sent;
    const blocked = ROLLUP_COUNTERS.indexOf('blocked');
    let passed = liveSent.sent;
    for (const counters of prepared.expected.values()) passed += (counters[0] ?? 0) - (counters[blocked] ?? 0);
    const logRecords = await accessLogRecords(cp.url, range);
    const mismatches = [...sitesChecked.mismatches, ...liveMismatches];
    if (all.requests !== offered - noDomain && all.requests !== offered)
      mismatches.push(`every site: ${all.requests} requests shown, ${offered} sent (${noDomain} for no domain)`);

    // Each request's lag: from its second's middle to the acknowledgement of its node's group holding it.
    const lags: { lag: number; weight: number }[] = [];
    for (const [n, node] of nodes.entries()) {
      const seconds = prepared.perSecond[node.profile] ?? [];
      const holders = prepared.groupOfSecond[node.profile] ?? [];
      for (const [s, weight] of seconds.entries()) {
        // A group not acknowledged in time: its requests' lag is past any percentile read.
        const ack = acknowledged[n]?.[holders[s] ?? -1] ?? Number.POSITIVE_INFINITY;
        lags.push({ lag: ack - (start + s * 1000 + 500), weight });
      }
    }
    lags.sort((a, b) => a.lag - b.lag);
    const total = lags.reduce((n, l) => n + l.weight, 0);
    let seen = 0;
    const p95 = lags.find((l) => {
      seen += l.weight;
      return seen >= total * 0.95;
    })?.lag;

    process.stdout.write(
      `${JSON.stringify({
        nodes: NODES + 1,
        simulated_nodes: NODES,
        profiles: PROFILES,
        sites: SITES + 1,
        minutes: MINUTES,
        partial_ms: PARTIAL_MS,
        store: STORE,
        offered_rps: Math.round(offered / seconds),
        flood_rps: floodRps * NODES,
        live_rps: round(liveSent.sent / seconds, 1),
        accounted_rps: Math.round(all.requests / seconds),
        no_domain_rps: Math.round(noDomain / seconds),
        exact: mismatches.length === 0,
        mismatches: mismatches.slice(0, 10),
        mismatch_count: mismatches.length,
        lag_p95_s: p95 === undefined || !Number.isFinite(p95) ? null : round(p95 / 1000, 1),
        groups_shipped: groupsShipped,
        groups_acknowledged: groupsAcknowledged,
        last_ack_after_window_s: round((lastAck - windowEnd) / 1000, 1),
        cp_cpu_cores: round(cpuTicks / TICKS / seconds),
        cp_cpu_s: round(cpuTicks / TICKS, 1),
        ch_cpu_cores: chTicks === null ? null : round(chTicks / TICKS / seconds),
        log_events_per_s: round(logRecords / seconds, 1),
        log_sampled_share: round(1 - logRecords / passed, 4),
        edge_cost: {
          aggregated_cpu_ms_per_1000_requests: edgeCost.aggregator.cpu_ms_per_1000_requests,
          per_event_cpu_ms_per_1000_requests: edgeCost.events_per_minute_today.cpu_ms_per_1000_requests,
          aggregates_gzip_bytes_per_minute: edgeCost.aggregates_per_minute.gzip_bytes,
          events_gzip_bytes_per_minute: edgeCost.events_per_minute_today.gzip_bytes,
          feed_cpu_ms_per_1000_requests: round((prepared.feedCpuMs / prepared.feedRequests) * 1000, 3),
        },
        load_average: (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).map(Number),
      })}\n`,
    );
  } catch (err) {
    failed = true;
    log(`failed: ${err instanceof Error ? err.message : String(err)}`);
    await keepLogs(work);
    throw err;
  } finally {
    await stopAll();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
