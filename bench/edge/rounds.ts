/**
 * bench:edge's throughput rounds: the baseline, the agent's edge, the firewall edge's domains
 * without rules, with the firewall and with the WAF, and the flood against nginx's `return 403`,
 * alternating; then the firewall edge's per-phase Lua CPU and the flood with and without its log.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AgentEdge } from './agent-edge.js';
import type { Baseline } from './baseline.js';
import type { Rounds } from './figures.js';
import { type FirewallEdge, floodWithoutLog, profilePhases } from './firewall-edge.js';
import { log, machineTicks, SECONDS, treeTicks, type WrkResult, wrk } from './load.js';

/** The wrk scripts of the rounds (`wafScript` null: no WAF domains fit in the firewall edge). */
export interface RoundScripts {
  script: string;
  noRulesScript: string;
  firewallScript: string;
  wafScript: string | null;
  floodScript: string;
}

export interface RoundResults {
  rounds: Rounds;
  phases: Record<string, Record<string, number>> | null;
  floodLog: Awaited<ReturnType<typeof floodWithoutLog>> | null;
}

/** `rounds` rounds (0: none, and no phases) of every load; throws when a request failed. */
export async function runRounds(
  work: string,
  { baselinePort, floodPort: baselineFloodPort }: Baseline,
  { cp, agent, agentLog, edgeHttp }: AgentEdge,
  fw: FirewallEdge,
  { script, noRulesScript, firewallScript, wafScript, floodScript }: RoundScripts,
  rounds: number,
): Promise<RoundResults> {
  const fwEdge = fw.edge;
  const fwHttp = fwEdge.httpPort;
  // Warm the proxies (worker caches, keepalive pools) before measuring.
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
  return { rounds: { edge, baseline, firewall, noRules, withWaf, flood, baselineFlood }, phases, floodLog };
}
