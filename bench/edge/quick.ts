/**
 * The firewall edge alone, without the control plane and the agent (`npx tsx bench/edge/quick.ts`):
 * the plain proxy, the firewall edge's cases and the flood against nginx's `return 403`, in
 * alternating rounds, then the per-phase Lua profile. For trying a change to the edge's Lua in
 * minutes; `npm run bench:edge` is the measurement of record (it also has the agent's edge).
 */
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { removeDir } from '../../apps/edge/test/helpers/real-control-plane.js';
import { hostsScript, startBaseline } from './baseline.js';
import { FLOOD_HOST, floodWithoutLog, profilePhases, startFirewallEdge } from './firewall-edge.js';
import { log, percentile, round, SECONDS, treeTicks, type WrkResult, wrk } from './load.js';

const DOMAINS = Number(process.env.BENCH_DOMAINS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WORKERS = 2;

async function main() {
  const work = await mkdtemp(path.join(tmpdir(), 'rampart-bench-quick-'));
  await chmod(work, 0o755);
  const stops: (() => Promise<void>)[] = [];
  try {
    const { originPort, baselinePort, floodPort, stops: baseStops } = await startBaseline(work, WORKERS);
    stops.push(...baseStops);
    const name = (i: number) => `d${i}.bench.example`;
    const fw = await startFirewallEdge(WORKERS, originPort, 1, DOMAINS, name);
    stops.push(() => fw.edge.stop());
    const port = fw.edge.httpPort;
    // BENCH_ACCESS_LOG=0: the second edge without its access log (what the log line costs).
    if (process.env.BENCH_ACCESS_LOG === '0') await fw.reload({}, 'none');
    const script = async (prefix: string, count: number) => {
      const file = path.join(work, `hosts-${prefix}.lua`);
      await writeFile(file, hostsScript(prefix, count));
      return file;
    };
    // Long URLs to one firewall domain (its whitelist rule reads the URL on every request): `long`
    // varies the last bytes, `crafted` bytes LuaJIT's string hash does not read (one bucket).
    const longUrls = async (label: string, crafted: boolean) => {
      const file = path.join(work, `${label}.lua`);
      await writeFile(file, longUrlScript(name(1), crafted));
      return file;
    };
    const flood = path.join(work, 'flood.lua');
    await writeFile(flood, `wrk.headers["Host"] = "${FLOOD_HOST}"\n`);
    // The flood with a long Accept-Language per request (the deny page's language), varied as above.
    const floodLanguages = async (label: string, crafted: boolean) => {
      const file = path.join(work, `${label}.lua`);
      await writeFile(file, longHeaderScript(FLOOD_HOST, crafted));
      return file;
    };
    const cases: Record<string, { port: number; script: string; refused?: boolean }> = {
      nginx: { port: baselinePort, script: await script('d', DOMAINS) },
      no_rules: { port, script: await script('n', DOMAINS) },
      firewall: { port, script: await script('d', DOMAINS) },
      ...(fw.wafDomains > 0 ? { firewall_waf: { port, script: await script('w', fw.wafDomains) } } : {}),
      firewall_long: { port, script: await longUrls('long', false) },
      firewall_crafted: { port, script: await longUrls('crafted', true) },
      nginx_flood: { port: floodPort, script: flood, refused: true },
      flood: { port, script: flood, refused: true },
      flood_language: { port, script: await floodLanguages('flood-language', false), refused: true },
      flood_language_crafted: { port, script: await floodLanguages('flood-language-crafted', true), refused: true },
    };
    // CPU of the serving nginx (master and workers, from /proc) per request: on a shared machine
    // its ratio to the baseline's says more than the throughputs, which follow the scheduler.
    const baselineMaster = Number(await readFile(path.join(work, 'baseline', 'nginx.pid'), 'utf8'));
    const masterOf = async (p: number) => (p === port ? ((await fw.edge.nginx.masterPid()) ?? 0) : baselineMaster);
    const cpu: Record<string, number[]> = {};
    const only = process.env.BENCH_CASES?.split(',');
    const results: Record<string, WrkResult[]> = {};
    for (const [label, c] of Object.entries(cases)) {
      if (!only || only.includes(label) || label.startsWith('nginx')) await wrk(c.port, c.script, c.refused, 2);
    }
    for (let i = 0; i < ROUNDS; i++) {
      for (const [label, c] of Object.entries(cases)) {
        if (only && !only.includes(label) && !label.startsWith('nginx')) continue;
        const master = await masterOf(c.port);
        const ticks = await treeTicks(master);
        const r = await wrk(c.port, c.script, c.refused);
        cpu[label] = [...(cpu[label] ?? []), (((await treeTicks(master)) - ticks) * 10_000) / (r.rps * SECONDS)];
        if (r.errors > 0) throw new Error(`${label}: ${r.errors} unexpected answers`);
        results[label] = [...(results[label] ?? []), r];
        log(`round ${i + 1} ${label}: ${Math.round(r.rps)} rps, p99 ${r.p99ms} ms`);
      }
    }
    const median = (xs: number[]) =>
      percentile(
        [...xs].sort((a, b) => a - b),
        50,
      );
    const rps = (label: string) => median((results[label] ?? []).map((r) => r.rps));
    const p99 = (label: string) => round(median((results[label] ?? []).map((r) => r.p99ms)));
    const out: Record<string, unknown> = {};
    for (const label of Object.keys(results)) {
      const base = label.includes('flood') ? rps('nginx_flood') : rps('nginx');
      const us = (l: string) => median(cpu[l] ?? []);
      const baseUs = label.includes('flood') ? us('nginx_flood') : us('nginx');
      out[label] = {
        rps: round(rps(label), 0),
        ratio: round(rps(label) / base, 3),
        p99_ms: p99(label),
        cpu_us: round(us(label), 1),
        cpu_ratio: round(baseUs / us(label), 3),
      };
    }
    // BENCH_FLOOD_LOG=1: the flood alternately tallied, logged whole and without a log (floodWithoutLog).
    if (process.env.BENCH_FLOOD_LOG === '1') {
      const runs = await floodWithoutLog(fw, flood, ROUNDS);
      out.flood_modes = {
        tally_rps: round(runs.tallyRps, 0),
        every_logged_rps: round(runs.everyRps, 0),
        no_log_rps: round(runs.noLogRps, 0),
      };
      log(`flood modes: ${JSON.stringify(out.flood_modes)}`);
    }
    if (process.env.BENCH_PHASES !== '0') {
      const phaseCases = Object.fromEntries(
        Object.entries(cases).filter(([label]) => !label.startsWith('nginx') && (!only || only.includes(label))),
      );
      out.lua_us_per_request = await profilePhases(fw, phaseCases, SECONDS);
    }
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await removeDir(work);
  }
}

/**
 * A wrk script of GETs to `host` with 400-byte paths, one new path per request: 8 random hex digits
 * at the end (`crafted` false) or at 70% of the path, where LuaJIT's hash of the URL reads nothing.
 */
export function longUrlScript(host: string, crafted: boolean): string {
  return `math.randomseed(7)
local fill = string.rep("a", 400 - 8 - 1)
local at = ${crafted ? 280 : 400 - 8 - 1}
request = function()
  local path = "/" .. fill:sub(1, at - 1) .. string.format("%08x", math.random(0, 0x7fffffff)) .. fill:sub(at)
  return wrk.format("GET", path, { ["Host"] = "${host}" })
end
`;
}

/** A wrk script of GETs to `host` with a 400-byte Accept-Language, varied as longUrlScript varies the path. */
export function longHeaderScript(host: string, crafted: boolean): string {
  return `math.randomseed(7)
local fill = string.rep("x-aa,", 80):sub(1, 400 - 8 - 6)
local at = ${crafted ? 280 : 400 - 8 - 6}
request = function()
  local value = "fr-FR," .. fill:sub(1, at - 1) .. string.format("%08x", math.random(0, 0x7fffffff)) .. fill:sub(at)
  return wrk.format("GET", "/", { ["Host"] = "${host}", ["Accept-Language"] = value })
end
`;
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
