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
 * - Origin and baseline (bench/edge/baseline.ts): an nginx answering a small static body, and a
 *   plain nginx proxy with the same worker count and nginx's default access log, buffered like the edge's.
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
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { removeDir } from '../apps/edge/test/helpers/real-control-plane.js';
import { createDomains, startAgentEdge } from './edge/agent-edge.js';
import { hostsScript, startBaseline } from './edge/baseline.js';
import { escalationFigures } from './edge/escalation.js';
import { throughputFigures } from './edge/figures.js';
import { FLOOD_HOST, startFirewallEdge } from './edge/firewall-edge.js';
import { adminGet, log, percentile, round } from './edge/load.js';
import { bulkChange, measurePropagation } from './edge/propagation.js';
import { runRounds } from './edge/rounds.js';

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
const WORKERS = 2;

async function main() {
  const work = await mkdtemp(path.join(tmpdir(), 'rampart-bench-'));
  // nginx's workers (nobody) write request bodies, buffers and the cache below the agent's state
  // directory in here: mkdtemp's 0700 made every push over 16 MiB fail with 500.
  await chmod(work, 0o755);
  let done = false;
  const stops: (() => Promise<void>)[] = [];
  try {
    const base = await startBaseline(work, WORKERS);
    stops.push(...base.stops);
    const agentEdge = await startAgentEdge(work, WORKERS, stops);
    const name = (i: number) => `d${i}.bench.example`;
    const domains = await createDomains(agentEdge, base.originPort, DOMAINS, SITES, RULES, name);

    log('starting the firewall edge');
    const fw = await startFirewallEdge(WORKERS, base.originPort, agentEdge.setup.siteId, FIREWALL_DOMAINS, name);
    stops.push(() => fw.edge.stop());
    const scriptFile = async (prefix: string, count: number) => {
      const file = path.join(work, `hosts-${prefix}-${count}.lua`);
      await writeFile(file, hostsScript(prefix, count));
      return file;
    };
    // The flood: one blacklisted client (wrk, 127.0.0.1) on one domain; the baseline answers it with
    // `return 403` on its flood port.
    const floodScript = path.join(work, 'flood.lua');
    await writeFile(floodScript, `wrk.headers["Host"] = "${FLOOD_HOST}"\n`);
    const scripts = {
      script: await scriptFile('d', DOMAINS),
      noRulesScript: await scriptFile('n', FIREWALL_DOMAINS),
      firewallScript: await scriptFile('d', FIREWALL_DOMAINS),
      wafScript: fw.wafDomains > 0 ? await scriptFile('w', fw.wafDomains) : null,
      floodScript,
    };
    const rounds = process.env.BENCH_SKIP_LOAD ? 0 : ROUNDS;
    const { rounds: runs, phases, floodLog } = await runRounds(work, base, agentEdge, fw, scripts, rounds);

    const { times, cpuOneNode, cpuNodes, dbCpu } = await measurePropagation(
      agentEdge,
      name,
      CPU_CHANGES,
      POLLERS,
      stops,
    );
    const bulk = await bulkChange(agentEdge, domains, name, DOMAINS, SITES, BULK);

    // Memory at the edge with everything applied: nginx's shared dict of the data plane and the agent.
    const adminSecret = (await readFile(path.join(work, 'edge', 'admin.secret'), 'utf8')).trim();
    const stats = JSON.parse(
      await adminGet(path.join(work, 'edge', 'admin', 'admin.sock'), '/config/stats', adminSecret),
    ) as { capacity: number; free: number; keys: number };
    const rssMb = async (pid: number) => {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
    };
    const agentRss = await rssMb(agentEdge.agent.pid ?? 0);
    const { postmaster } = agentEdge;

    const result = {
      ...throughputFigures(runs, floodLog),
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
      create_domains_s: round(domains.createMs / 1000, 1),
      sites: SITES,
      rule_mix: RULES,
      bulk_change_domains: bulk.domains,
      bulk_change_ms: round(bulk.ms, 0),
      bulk_change_checked_ms: round(bulk.checkedMs, 0),
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
