/**
 * `npm run bench:edge`: the edge against a plain nginx reverse proxy, measured in one run on
 * loopback, and configuration propagation from an API write to the edge. Prints one JSON object:
 *
 *   {"edge_rps", "nginx_rps", "ratio", "edge_p99_ms", "nginx_p99_ms",
 *    "firewall_rps", "firewall_ratio", "firewall_p99_ms", "firewall_vs_no_rules",
 *    "propagation_p50_ms", "propagation_p95_ms", "cp_cpu_ms_per_change", "cp_cpu_ms_per_change_nodes",
 *    "pollers", "domains", "create_domains_s", "firewall_waf_rps", "firewall_waf_ratio",
 *    "flood_rps", "flood_nginx_rps", "flood_ratio", "flood_p99_ms", "flood_nginx_p99_ms",
 *    "flood_no_log_rps", "flood_log_share", "flood_log_every_rps", "lua_us_per_request", "escalation_ms",
 *    "flood_kernel_pps", …}
 *
 * - Origin: an nginx answering a small static body (1 worker, keepalive), shared by both proxies.
 * - Baseline: nginx with the same worker count, proxy_pass to the origin with an upstream
 *   keepalive pool, Host and X-Forwarded-For, and nginx's default access log (combined),
 *   buffered like the edge's.
 * - Edge: the real control plane (built bundle, embedded PGlite) and the real agent (built bundle)
 *   running its own nginx; BENCH_DOMAINS domains (default 10,000) are created through the API and
 *   the load spreads over all of them by Host header. `create_domains_s`: the time those API calls
 *   took (500 domains a call, one after another, as the console's batch add sends them).
 * - Firewall: a second edge (nginx.conf rendered and the data plane pushed as the agent does, with
 *   the same Lua, so the rule set is exactly the one below, whatever the API's defaults) serving the same domains, all with
 *   one site firewall: a whitelist rule whose address and method match and whose URL pattern does
 *   not (so every request builds its URL and runs the pattern), a 1,000-entry blacklist rule, a
 *   POST-only one for every address, two geo rules (a black rule for two countries and a white rule
 *   for three, against a MaxMind DB the bench writes that places wrk's address in one of the
 *   three), a header rule, a user-agent rule, and a per-second limit above wrk's rate (every
 *   request is counted in the shared dict). No rule decides a GET, so the load reaches the
 *   origin and the figure is the cost of checking. The same nginx also serves the same number of domains without
 *   rules (`n<i>.bench.example`), measured in the same rounds: `firewall_ratio` is against the plain
 *   proxy, `firewall_vs_no_rules` against those domains (the firewall's own cost, without the
 *   difference between two nginx instances).
 * - Firewall and WAF (`firewall_waf_*`): as many domains again on the second edge with the same
 *   firewall and a WAF module (its defaults) bound, the data plane's domain limit permitting.
 * - Flood (`flood_*`): wrk's address (127.0.0.1) blacklisted (deny) by the site firewall of one
 *   domain of the second edge (bench/edge/rules.ts floodFirewall), every request refused; the
 *   baseline nginx answers the same flood with `return 403` on a port of its own, with its access
 *   log. `flood_ratio` is edge / baseline. After the rounds, the flood runs again alternately with
 *   the edge's access log (as a node: repeated refusals tallied, not logged), with every refusal
 *   logged whole (`flood_log_every_rps`) and without the access log (`flood_no_log_rps`,
 *   `flood_log_share`: the share of the refused flood's throughput the log takes).
 * - `lua_us_per_request`: the second edge reloaded with rampart.profile on (bench only), one more
 *   wrk run per case (no_rules, firewall, firewall_waf, flood): CPU µs of Lua per request by phase
 *   (rewrite: the router's set_by_lua, with its firewall and WAF checks apart; rewrite_route:
 *   @rampart_route's rewrite_by_lua; balancer; filters; error pages) — bench/edge/profile.ts.
 *   `npx tsx bench/edge/quick.ts` runs the second edge's cases alone, in minutes.
 * - Load: wrk (Debian package), BENCH_ROUNDS rounds (default 5) alternating baseline, edge, and
 *   the second edge without and with rules, BENCH_SECONDS each (default 6); rps and p99 are the
 *   medians over the rounds, so that one round disturbed by the shared machine moves none of them.
 * - Propagation: 50 API writes (force SSL on/off on one domain); each is timed from the start of
 *   the API call to the first edge response that shows it (polled every 5 ms).
 * - Control-plane CPU per change (`cp_cpu_ms_per_change`): the control plane's CPU time (its
 *   process tree, from /proc) over BENCH_CPU_CHANGES writes (default 10) as above, each waited for
 *   until the edge shows it, divided by the writes; first with the one node, then
 *   (`cp_cpu_ms_per_change_nodes`) with BENCH_POLLERS more nodes (default 99) in the same group:
 *   light pollers in this process that register, are placed by the operator, and poll as the
 *   agent does: the snapshot without its data plane, and the plane as entries on one stream (NodeClient
 *   with its schema check). The first poller applies each line in memory (lua-plane.ts); the others
 *   start from its position and follow the lines by position only (99 planes of 100,000 domains
 *   would not fit in this process). Each write is waited for until every poller took a new plane answer.
 *   The 100-node writes start once every poller holds the plane, the control plane has been quiet
 *   and its heap has had time to let the whole planes the pollers took go (see the wait below).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../apps/edge/test/helpers/net.js';
import {
  initializeFirstNode,
  removeDir,
  setUpOperator,
  startControlPlane,
  stopProcess,
  waitUntil,
} from '../apps/edge/test/helpers/real-control-plane.js';
import { startCluster } from '../apps/server/test/helpers/pg-cluster.js';
import { escalationFigures } from './edge/escalation.js';
import { throughputFigures } from './edge/figures.js';
import { FLOOD_HOST, floodWithoutLog, profilePhases, startFirewallEdge } from './edge/firewall-edge.js';
import {
  adminGet,
  get,
  log,
  machineTicks,
  percentile,
  round,
  SECONDS,
  startNginx,
  treeTicks,
  type WrkResult,
  wrk,
} from './edge/load.js';
import { startPollers } from './edge/pollers.js';
import { addRuleMix } from './edge/rules.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const AGENT = path.join(ROOT, 'apps/edge/dist/rampart-edge.js');
const DOMAINS = Number(process.env.BENCH_DOMAINS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const POLLERS = Number(process.env.BENCH_POLLERS ?? 99);
const CPU_CHANGES = Number(process.env.BENCH_CPU_CHANGES ?? 10);
/** Sites the domains spread over (each with the rule mix unless BENCH_RULES=0): 100 domains a site by default. */
const SITES = Number(process.env.BENCH_SITES ?? Math.max(1, Math.ceil(DOMAINS / 100)));
const RULES = process.env.BENCH_RULES !== '0';
/** Domains of the bulk change. */
const BULK = Number(process.env.BENCH_BULK ?? 1000);
/**
 * Domains of each kind (with and without rules) on the firewall edge: its whole document goes
 * through PUT /config, which takes at most DATA_PLANE_LIMITS.domains (50,000) domains.
 */
const FIREWALL_DOMAINS = Math.min(DOMAINS, 25_000);
const CHANGES = 50;
const WORKERS = 2;

async function main() {
  const work = await mkdtemp(path.join(tmpdir(), 'rampart-bench-'));
  // nginx's workers (nobody) write request bodies, buffers and the cache below the agent's state
  // directory in here: mkdtemp's 0700 made every push over 16 MiB fail with 500.
  await chmod(work, 0o755);
  let done = false;
  const stops: (() => Promise<void>)[] = [];
  let agent: ChildProcess | undefined;
  try {
    const [originPort, baselinePort, baselineFloodPort, edgeHttp, edgeHttps, adminPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    stops.push(
      await startNginx(
        path.join(work, 'origin'),
        1,
        `  access_log off;
  server { listen 127.0.0.1:${originPort} reuseport; location / { return 200 "hello from the origin\\n"; } }`,
      ),
    );
    stops.push(
      await startNginx(
        path.join(work, 'baseline'),
        WORKERS,
        // nginx's default access log format (combined), buffered like the edge's.
        `  access_log ${work}/baseline/logs/access.log combined buffer=64k flush=1s;
  upstream origin { server 127.0.0.1:${originPort}; keepalive 256; }
  server {
    listen 127.0.0.1:${baselinePort};
    location / {
      proxy_pass http://origin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }
  # The flood's baseline: nginx refusing every request itself, with the same access log.
  server { listen 127.0.0.1:${baselineFloodPort}; location / { return 403; } }`,
      ),
    );

    log('starting the control plane');
    // BENCH_CP_PROFILE=<dir>: the control plane writes a V8 CPU profile there when it stops.
    const cpProfile = process.env.BENCH_CP_PROFILE;
    // BENCH_DATABASE=postgres: the control plane on a throw-away PostgreSQL cluster (its own processes,
    // their CPU reported apart) instead of the embedded PGlite.
    let postmaster: number | null = null;
    const env: Record<string, string> = {};
    // The embedded database's vacuum (default 60 s; 0 turns it off, for an A/B of it).
    if (process.env.RAMPART_EMBEDDED_VACUUM_TICK_MS !== undefined)
      env.RAMPART_EMBEDDED_VACUUM_TICK_MS = process.env.RAMPART_EMBEDDED_VACUUM_TICK_MS;
    if (process.env.BENCH_DATABASE === 'postgres') {
      log('starting PostgreSQL');
      const cluster = await startCluster();
      stops.push(async () => cluster.stop());
      env.DATABASE_URL = cluster.url;
      postmaster = Number((await readFile(path.join(cluster.dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    }
    const cp = await startControlPlane(path.join(work, 'control-plane'), env, [
      ...(cpProfile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(cpProfile)}`] : []),
      // BENCH_CP_NODE_OPTIONS: more of Node's options for the control plane (e.g. --perf-basic-prof).
      ...(process.env.BENCH_CP_NODE_OPTIONS?.split(/\s+/).filter(Boolean) ?? []),
    ]);
    stops.push(async () => {
      // A profile takes a while to write: the control plane is given a minute before the stop's kill.
      if (cpProfile) {
        log('stopping the control plane (its profile ends here)');
        process.kill(cp.pid, 'SIGTERM');
        await waitUntil(async () => !(await stat(`/proc/${cp.pid}`).catch(() => null)), 60_000, 200).catch(() => {});
      }
      await cp.stop();
    });
    const setup = await setUpOperator(cp);

    log('starting the agent');
    agent = spawn(
      process.execPath,
      [
        AGENT,
        '--control-plane',
        cp.url,
        '--join-token',
        setup.joinToken,
        '--state-dir',
        path.join(work, 'edge'),
        '--admin-port',
        String(adminPort),
        '--port-map',
        `80=${edgeHttp},443=${edgeHttps}`,
        '--listen-address',
        '127.0.0.1',
        '--hostname',
        'bench-edge',
        '--ips',
        '127.0.0.1',
        '--worker-processes',
        String(WORKERS),
        // The bench runs on the host: the agent leaves the host's firewall alone (the plain
        // nginx it is compared with has none either; bench:l4-flood measures the kernel's part).
        '--l4-firewall',
        'off',
        // No node exporter (its fixed port would collide with another agent on the machine).
        '--metrics-port',
        '0',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    // The agent's JSON log: BENCH_PROFILE=1 prints how long each apply of the propagation phase took.
    const agentLog: { event: string; ms?: number; pid?: number; time: string }[] = [];
    let partial = '';
    agent.stdout?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) agentLog.push(JSON.parse(line));
    });
    const agentProcess = agent;
    stops.push(async () => {
      await stopProcess(agentProcess);
      // A stopped agent leaves its nginx serving (on a node an agent restart must not drop traffic):
      // stop that nginx too, or a failed run leaves it behind.
      const pidFile = path.join(work, 'edge', 'nginx', 'logs', 'nginx.pid');
      const nginxPid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
      if (nginxPid > 0) {
        try {
          process.kill(nginxPid, 'SIGQUIT');
        } catch {
          // already gone
        }
      }
    });
    await initializeFirstNode(setup);

    // The sites: the setup's and SITES - 1 more of the same customer and product; domain i is of
    // site i % SITES.
    const siteIds = [setup.siteId];
    for (let k = 1; k < SITES; k++) {
      const made = await setup.operator.call<{ siteID: number }>('POST', 'client/site', {
        siteName: `bench ${k}`,
        userID: setup.userId,
        productID: setup.productId,
      });
      siteIds.push(made.siteID);
    }
    log(`creating ${DOMAINS} domains on ${SITES} sites`);
    const name = (i: number) => `d${i}.bench.example`;
    const domainIds: number[] = [];
    const started = Date.now();
    for (const [k, siteId] of siteIds.entries()) {
      const mine: number[] = [];
      for (let i = k; i < DOMAINS; i += SITES) mine.push(i);
      for (let from = 0; from < mine.length; from += 500) {
        const batch = mine
          .slice(from, from + 500)
          .map((i) => ({ name: name(i), upstreams: [{ ip: '127.0.0.1', port: originPort }] }));
        const made = await setup.customer.call<{ id: number; name: string }[]>('POST', `user/site/${siteId}/domains`, {
          domains: batch,
        });
        for (const d of made) domainIds[Number(/^d(\d+)\./.exec(d.name)?.[1])] = d.id;
      }
    }
    const createMs = Date.now() - started;
    if (RULES) {
      log(`adding the rule mix to ${SITES} sites`);
      for (const [k, siteId] of siteIds.entries()) await addRuleMix(setup.customer, siteId, k, domainIds, SITES);
    }
    log(`created in ${createMs} ms; waiting for the edge to serve them`);
    // The planes may still be building when the last call returns (each rule of a site rebuilds the
    // site): whatever is left is built and applied here, and how long that took is logged.
    const serving = Date.now();
    await waitUntil(async () => (await get(edgeHttp, name(DOMAINS - 1))) === 200, 1_800_000, 100);
    log(`the edge served the last domain ${Date.now() - serving} ms later`);
    if ((await get(edgeHttp, name(0))) !== 200) throw new Error('the edge does not serve the first domain');
    if (RULES) {
      // The rule mix's site rebuilds may still be under way (the last domain existed before them): a
      // change made after them all, seen at the edge, says they are built and applied, so that the
      // propagation below is measured from a settled plane, not behind the mix.
      const settling = Date.now();
      const last = DOMAINS - 1;
      const lastSite = siteIds[last % SITES] as number;
      for (const forceSSL of [true, false]) {
        await setup.customer.call('PATCH', `user/site/${lastSite}/domain/setting/forceSSL`, {
          domainIDs: [domainIds[last]],
          forceSSL,
        });
        await waitUntil(async () => (await get(edgeHttp, name(last))) === (forceSSL ? 301 : 200), 1_800_000, 100);
      }
      log(`the rule mix was built and applied ${Date.now() - settling} ms later`);
    }

    log('starting the firewall edge');
    const fw = await startFirewallEdge(WORKERS, originPort, setup.siteId, FIREWALL_DOMAINS, name);
    const fwEdge = fw.edge;
    stops.push(() => fwEdge.stop());
    const fwHttp = fwEdge.httpPort;

    const hostsScript = async (prefix: string, count: number) => {
      const file = path.join(work, `hosts-${prefix}-${count}.lua`);
      await writeFile(
        file,
        `math.randomseed(42)
request = function()
  return wrk.format("GET", "/", { ["Host"] = "${prefix}" .. math.random(0, ${count - 1}) .. ".bench.example" })
end
`,
      );
      return file;
    };
    const script = await hostsScript('d', DOMAINS);
    const noRulesScript = await hostsScript('n', FIREWALL_DOMAINS);
    const firewallScript = await hostsScript('d', FIREWALL_DOMAINS);
    const wafScript = fw.wafDomains > 0 ? await hostsScript('w', fw.wafDomains) : null;
    // The flood: one blacklisted client (wrk, 127.0.0.1) on one domain; the baseline answers it with
    // `return 403` on its flood port.
    const floodScript = path.join(work, 'flood.lua');
    await writeFile(floodScript, `wrk.headers["Host"] = "${FLOOD_HOST}"\n`);
    // Warm the proxies (worker caches, keepalive pools) before measuring.
    const rounds = process.env.BENCH_SKIP_LOAD ? 0 : ROUNDS;
    if (rounds > 0) {
      await wrk(baselinePort, script);
      await wrk(edgeHttp, script);
      await wrk(fwHttp, script);
      await wrk(fwHttp, noRulesScript);
      if (wafScript) await wrk(fwHttp, wafScript);
      await wrk(baselineFloodPort, floodScript, true);
      await wrk(fwHttp, floodScript, true);
    }
    const baseline: WrkResult[] = [];
    const edge: WrkResult[] = [];
    const firewall: WrkResult[] = [];
    const noRules: WrkResult[] = [];
    const withWaf: WrkResult[] = [];
    const baselineFlood: WrkResult[] = [];
    const flood: WrkResult[] = [];
    // BENCH_PROFILE=1: CPU microseconds per request of each party during a round, from /proc, so
    // that what the edge costs beyond the plain proxy is read directly rather than inferred.
    const masterPid = async (name: string) => Number(await readFile(path.join(work, name, 'nginx.pid'), 'utf8'));
    const parties = process.env.BENCH_PROFILE
      ? {
          origin: await masterPid('origin'),
          baseline: await masterPid('baseline'),
          edge: await masterPid('edge/nginx/logs'),
          firewall: (await fwEdge.nginx.masterPid()) ?? 0,
        }
      : undefined;
    const measured = async (
      which: 'baseline' | 'edge' | 'firewall',
      port: number,
      load = script,
      label: string = which,
      refused = false,
    ) => {
      if (!parties) return wrk(port, load, refused);
      const ticksOf = async () => ({
        machine: await machineTicks(),
        origin: await treeTicks(parties.origin),
        proxy: await treeTicks(parties[which]),
      });
      const before = await ticksOf();
      const result = await wrk(port, load, refused);
      const after = await ticksOf();
      const requests = result.rps * SECONDS;
      const us = (ticks: number) => Math.round(((ticks * 10_000) / requests) * 10) / 10; // 100 ticks/s
      const proxy = after.proxy - before.proxy;
      const origin = after.origin - before.origin;
      const rest = after.machine - before.machine - proxy - origin;
      log(
        `${label}: ${Math.round(result.rps)} rps; CPU µs per request: proxy ${us(proxy)}, origin ${us(origin)}, wrk and the rest ${us(rest)}`,
      );
      return result;
    };
    // The edge's request events (one per request) are read, spooled and shipped by its agent's
    // events process (at nice 19: it reads while nginx leaves CPU over) and ingested by the control
    // plane, which shares these two cores in the bench but runs on other machines in production:
    // the control plane is paused (SIGSTOP) during each edge run, so the run measures the node
    // (nginx writing the events, the agent reading, spooling and gzipping what it gets to), and each
    // edge run is followed by a wait until the agent has read the whole log and its spool is empty
    // (every event acknowledged), so that neither its catching up nor the control plane's ingest
    // runs during the next measurements.
    const spool = path.join(work, 'edge', 'events');
    const accessLog = path.join(work, 'edge', 'nginx', 'logs', 'access.log');
    /** Bytes of the access log the agent has not read yet (its cursor in spool.json against the file). */
    const unread = async () => {
      const cursor = JSON.parse(await readFile(path.join(spool, 'spool.json'), 'utf8').catch(() => '{}')).cursor as
        | { inode: string; offset: number }
        | null
        | undefined;
      const file = await stat(accessLog, { bigint: true }).catch(() => null);
      if (!file) return 0;
      if (!cursor || cursor.inode !== file.ino.toString()) return Number(file.size);
      return Number(file.size) - cursor.offset;
    };
    const agentPid = agent.pid ?? 0;
    const settle = async () => {
      const started = performance.now();
      const ticksBefore = await treeTicks(agentPid);
      let emptyChecks = 0;
      while (emptyChecks < 3 && performance.now() - started < 180_000) {
        await new Promise((r) => setTimeout(r, 1000));
        const names = await readdir(spool).catch(() => [] as string[]);
        emptyChecks = names.some((n) => n.endsWith('.gz')) || (await unread()) > 0 ? 0 : emptyChecks + 1;
      }
      const cpuMs = (await treeTicks(agentPid)) - ticksBefore;
      log(
        `events read, shipped and ingested ${Math.round((performance.now() - started) / 1000)} s after the run (agent CPU meanwhile ${cpuMs * 10} ms)`,
      );
    };
    if (rounds > 0) await settle();
    for (let i = 0; i < rounds; i++) {
      log(`round ${i + 1}: baseline`);
      baseline.push(await measured('baseline', baselinePort));
      log(`round ${i + 1}: edge`);
      process.kill(cp.pid, 'SIGSTOP');
      const workerPid = () => agentLog.findLast((e) => e.event === 'events.worker_started')?.pid ?? 0;
      const agentTicks = await treeTicks(agentPid);
      const workerTicks = await treeTicks(workerPid());
      try {
        edge.push(await measured('edge', edgeHttp));
      } finally {
        process.kill(cp.pid, 'SIGCONT');
      }
      log(
        `edge run: agent CPU ${((await treeTicks(agentPid)) - agentTicks) * 10} ms, of which its events process ${((await treeTicks(workerPid())) - workerTicks) * 10} ms; ${Math.round((await unread()) / 1e6)} MB of the access log unread at its end`,
      );
      await settle();
      log(`round ${i + 1}: second edge, domains without rules`);
      noRules.push(await measured('firewall', fwHttp, noRulesScript, 'second edge without rules'));
      log(`round ${i + 1}: second edge, domains with the firewall`);
      firewall.push(await measured('firewall', fwHttp, firewallScript, 'second edge with the firewall'));
      if (wafScript) {
        log(`round ${i + 1}: second edge, domains with the firewall and the WAF`);
        withWaf.push(await measured('firewall', fwHttp, wafScript, 'second edge with the firewall and the WAF'));
      }
      log(`round ${i + 1}: flood, baseline (return 403)`);
      baselineFlood.push(await measured('baseline', baselineFloodPort, floodScript, 'baseline flood', true));
      log(`round ${i + 1}: flood, second edge (blacklisted)`);
      flood.push(await measured('firewall', fwHttp, floodScript, 'second edge flood', true));
    }
    const failed = [...baseline, ...edge, ...noRules, ...firewall, ...withWaf, ...baselineFlood, ...flood].reduce(
      (n, r) => n + r.errors,
      0,
    );
    // The Lua's CPU per request and phase (rampart.profile, on a reloaded edge), and the flood
    // without the access log, alternating with it (what the log line costs a refused request).
    let phases: Record<string, Record<string, number>> | null = null;
    let floodLog: Awaited<ReturnType<typeof floodWithoutLog>> | null = null;
    if (rounds > 0) {
      log('per-phase Lua CPU on the firewall edge');
      phases = await profilePhases(
        fw,
        {
          no_rules: { script: noRulesScript },
          firewall: { script: firewallScript },
          ...(wafScript ? { firewall_waf: { script: wafScript } } : {}),
          flood: { script: floodScript, refused: true },
        },
        SECONDS,
      );
      log('the flood without and with the access log');
      floodLog = await floodWithoutLog(fw, floodScript, Math.min(rounds, 3));
    }
    if (failed > 0) throw new Error(`${failed} requests failed or were not 2xx/3xx`);

    log('measuring propagation');
    const [first] = await setup.customer.call<{ id: number }[]>(
      'GET',
      `user/site/${setup.siteId}/domains?keywords=${encodeURIComponent(name(0))}&pageSize=1`,
    );
    if (!first) throw new Error('domain 0 not found');
    const times: number[] = [];
    for (let i = 0; i < CHANGES; i++) {
      const forceSSL = i % 2 === 0;
      const expect = forceSSL ? 301 : 200;
      const t0 = performance.now();
      await setup.customer.call('PATCH', `user/site/${setup.siteId}/domain/setting/forceSSL`, {
        domainIDs: [first.id],
        forceSSL,
      });
      await waitUntil(async () => (await get(edgeHttp, name(0))) === expect, 10_000, 5).catch((err: unknown) => {
        log(`change ${i} did not arrive; the agent's last log lines:`);
        for (const entry of agentLog.slice(-8)) log(JSON.stringify(entry));
        throw err;
      });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    if (process.env.BENCH_PROFILE) {
      const applied = agentLog.filter((e) => e.event === 'snapshot.applied').slice(-CHANGES);
      log(`agent apply ms: ${applied.map((e) => e.ms).join(' ')}`);
      log(`propagation ms: ${times.map((t) => Math.round(t)).join(' ')}`);
    }

    // Control-plane CPU per change, with the one node and then with POLLERS more.
    let flip = true;
    // `watch` is called before each write and answers how to wait for the write's arrival.
    // The database's share (PostgreSQL's processes, BENCH_DATABASE=postgres): per change as the control plane's.
    const dbCpu: number[] = [];
    const cpuPerChange = async (watch: () => () => Promise<void>): Promise<number> => {
      const before = await treeTicks(cp.pid);
      const dbBefore = postmaster === null ? 0 : await treeTicks(postmaster);
      for (let i = 0; i < CPU_CHANGES; i++) {
        flip = !flip;
        const arrived = watch();
        const t0 = performance.now();
        await setup.customer.call('PATCH', `user/site/${setup.siteId}/domain/setting/forceSSL`, {
          domainIDs: [first.id],
          forceSSL: flip,
        });
        const expect = flip ? 301 : 200;
        const t1 = performance.now();
        await waitUntil(async () => (await get(edgeHttp, name(0))) === expect, 30_000, 5);
        const t2 = performance.now();
        await arrived();
        // BENCH_PROFILE=1: each write's API call, then until the edge showed it, then until every poller had it.
        if (process.env.BENCH_PROFILE)
          log(
            `write ${i}: api ${Math.round(t1 - t0)} ms, edge ${Math.round(t2 - t1)} ms, pollers ${Math.round(performance.now() - t2)} ms`,
          );
      }
      if (postmaster !== null) dbCpu.push((((await treeTicks(postmaster)) - dbBefore) * 10) / CPU_CHANGES);
      return ((await treeTicks(cp.pid)) - before) * 10;
    };
    // The propagation phase ended with force SSL off (its last write, i = 49, turned it off).
    flip = false;
    log(`control-plane CPU per change with one node (${CPU_CHANGES} writes)`);
    const cpuOneNode = (await cpuPerChange(() => async () => {})) / CPU_CHANGES;
    // BENCH_POLLERS=0: only the one node (cp_cpu_ms_per_change_nodes is then null).
    let cpuNodes: number | null = null;
    if (POLLERS > 0) {
      const { received, pollers } = await startPollers(cp, setup, POLLERS, stops);
      log(`control-plane CPU per change with ${POLLERS + 1} nodes (${CPU_CHANGES} writes)`);
      cpuNodes =
        (await cpuPerChange(() => {
          const seen = [...received];
          return async () => {
            await waitUntil(async () => received.every((n, i) => n > (seen[i] ?? 0)), 300_000, 20).catch(
              (err: unknown) => {
                const behind = received.filter((n, i) => n <= (seen[i] ?? 0)).length;
                log(`${behind} of ${POLLERS} light pollers did not receive the change`);
                throw err;
              },
            );
          };
        })) / CPU_CHANGES;
      pollers.abort();
    }

    // A change of BULK domains (force SSL on, one call per site and 500 domains, sent at once): from
    // the calls' start until the edge redirects every one of them.
    // The domains of as few sites as hold BULK (site 0's domain 0 is the propagation's: left out).
    const bulk: number[] = [];
    for (let k = SITES > 1 ? 1 : 0; k < SITES && bulk.length < BULK; k++) {
      for (let i = k; i < DOMAINS && bulk.length < BULK; i += SITES) if (i > 0) bulk.push(i);
    }
    log(`a bulk change of ${bulk.length} domains`);
    const calls = new Map<number, number[]>();
    for (const i of bulk) {
      const siteId = siteIds[i % SITES] as number;
      calls.set(siteId, [...(calls.get(siteId) ?? []), domainIds[i] as number]);
    }
    const bulkStarted = performance.now();
    await Promise.all(
      [...calls].flatMap(([siteId, ids]) =>
        Array.from({ length: Math.ceil(ids.length / 500) }, (_, c) =>
          setup.customer.call('PATCH', `user/site/${siteId}/domain/setting/forceSSL`, {
            domainIDs: ids.slice(c * 500, c * 500 + 500),
            forceSSL: true,
          }),
        ),
      ),
    );
    const sample = [
      ...bulk.filter((_, j) => j % Math.max(1, Math.floor(bulk.length / 20)) === 0),
      bulk.at(-1) as number,
    ];
    // Timed by a sample (two domains of each site and the last; each site's domains change in one
    // build, applied whole): a pass over all of them takes a second or more itself.
    await waitUntil(
      async () => (await Promise.all(sample.map((i) => get(edgeHttp, name(i))))).every((c) => c === 301),
      60_000,
      5,
    );
    const bulkMs = performance.now() - bulkStarted;
    // Then every one of them is checked (they must all redirect by now, or soon after).
    let notYet = bulk.length;
    await waitUntil(
      async () => {
        notYet = 0;
        for (const i of bulk) if ((await get(edgeHttp, name(i))) !== 301) notYet++;
        return notYet === 0;
      },
      60_000,
      50,
    );
    const bulkAllMs = performance.now() - bulkStarted;

    // Memory at the edge with everything applied: nginx's shared dict of the data plane and the agent.
    const adminSecret = (await readFile(path.join(work, 'edge', 'admin.secret'), 'utf8')).trim();
    const stats = JSON.parse(
      await adminGet(path.join(work, 'edge', 'admin', 'admin.sock'), '/config/stats', adminSecret),
    ) as { capacity: number; free: number; keys: number };
    const rssMb = async (pid: number) => {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
    };
    const agentRss = await rssMb(agentPid);

    const result = {
      ...throughputFigures({ edge, baseline, firewall, noRules, withWaf, flood, baselineFlood }, floodLog),
      lua_us_per_request: phases,
      propagation_p50_ms: round(percentile(times, 50), 0),
      propagation_p95_ms: round(percentile(times, 95), 0),
      cp_cpu_ms_per_change: round(cpuOneNode, 0),
      cp_cpu_ms_per_change_nodes: cpuNodes === null ? null : round(cpuNodes, 0),
      database: postmaster === null ? 'pglite' : 'postgres',
      db_cpu_ms_per_change: dbCpu[0] === undefined ? null : round(dbCpu[0], 0),
      db_cpu_ms_per_change_nodes: dbCpu[1] === undefined ? null : round(dbCpu[1], 0),
      pollers: POLLERS,
      domains: DOMAINS,
      create_domains_s: round(createMs / 1000, 1),
      sites: SITES,
      rule_mix: RULES,
      bulk_change_domains: bulk.length,
      bulk_change_ms: round(bulkMs, 0),
      bulk_change_checked_ms: round(bulkAllMs, 0),
      shm_mb: round((stats.capacity - stats.free) / 2 ** 20, 1),
      shm_capacity_mb: round(stats.capacity / 2 ** 20, 0),
      shm_keys: stats.keys,
      agent_rss_mb: round(agentRss, 0),
      // A node of its own in network namespaces (root only): bench/edge/escalation.ts.
      ...(process.getuid?.() === 0 ? await escalationFigures() : { escalation_ms: null, flood_kernel_pps: null }),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    done = true;
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    // A failed run leaves its control plane's and agent's files for a look.
    if (done) await removeDir(work);
    else log(`the run failed: its files are kept in ${work}`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
