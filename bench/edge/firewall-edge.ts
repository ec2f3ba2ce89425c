/**
 * bench:edge's second edge (nginx.conf rendered and the data plane pushed as the agent does, with
 * the same Lua): FIREWALL_DOMAINS domains with the bench's site firewall (`d<i>`), as many without
 * rules (`n<i>`), up to as many with the firewall and a WAF module (`w<i>`, the data plane's domain
 * limit permitting), and the flood's domain (`f0`, whose firewall blacklists wrk's address).
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { geoRecord, writeMmdb } from '@rampart/contract/testing';
import { DATA_PLANE_LIMITS } from '../../apps/edge/src/data-plane/schema.js';
import type { NginxSettingsInput, RenderTestHooks } from '../../apps/edge/src/nginx/render.js';
import { document, domain, moduleRefs, upstream, wafModule } from '../../apps/edge/test/helpers/documents.js';
import { type Edge, startEdge } from '../../apps/edge/test/helpers/edge.js';
import { get, log, percentile, type WrkResult, wrk } from './load.js';
import { perRequest, profileHooks, readProfile } from './profile.js';
import { benchFirewall, floodFirewall } from './rules.js';

export const FLOOD_HOST = 'f0.bench.example';

export type LogMode = 'tally' | 'every' | 'none';

export interface FirewallEdge {
  edge: Edge;
  /** Domains of each of the d, n (and w) kinds. */
  domains: number;
  /** Domains with the firewall and the WAF (0: none fit in the data plane's limit). */
  wafDomains: number;
  /**
   * Reloads its nginx with `hooks` and its access log as `logs` says: `tally` (as a node: a flood's
   * repeated refusals tallied, rampart.refusals), `every` (every refusal logged whole, as before the
   * tallies) or `none` (no access log, no tallies).
   */
  reload(hooks?: RenderTestHooks, logs?: LogMode): Promise<void>;
}

/** Starts the second edge; `siteId` is the firewall's site (the WAF module's too). */
/**
 * The geo database bench:edge's geo rules use (loopback in the US, 10/8 in CN), written where the
 * agent would keep it under the edge's `prefix` (nginx.conf names the directory): the directory and
 * the database's hash, as a document names it.
 */
export async function writeBenchGeoDatabase(prefix: string): Promise<{ geoDir: string; geoDatabase: string }> {
  const geoDir = path.join(prefix, 'geo');
  await mkdir(geoDir, { recursive: true, mode: 0o755 });
  const mmdb = writeMmdb(
    [
      { cidr: '127.0.0.0/8', data: geoRecord('US') },
      { cidr: '10.0.0.0/8', data: geoRecord('CN') },
    ],
    { databaseType: 'Rampart-Bench-Country' },
  );
  const geoDatabase = createHash('sha256').update(mmdb).digest('hex');
  await writeFile(path.join(geoDir, `${geoDatabase}.mmdb`), mmdb, { mode: 0o644 });
  return { geoDir, geoDatabase };
}

export async function startFirewallEdge(
  workers: number,
  originPort: number,
  siteId: number,
  domains: number,
  name: (i: number) => string,
): Promise<FirewallEdge> {
  const edge = await startEdge({ workerProcesses: workers });
  const { geoDir, geoDatabase } = await writeBenchGeoDatabase(edge.prefix);
  const settings: Partial<NginxSettingsInput> = { geoDir, workerProcesses: workers };
  const reload = async (hooks: RenderTestHooks = {}, logs: LogMode = 'tally') => {
    // `tally`: as a node that ships aggregates; `every`: every refusal logged whole (a node without them).
    let conf = edge.render({ ...settings, refusalTallies: logs === 'tally' }, hooks);
    if (logs === 'none') {
      conf = conf
        .replace(/access_log [^;]*buffer=64k flush=1s[^;]*;/g, 'access_log off;')
        .replace(/log_by_lua_block \{ rampart\.refusal\(\) \}/g, '');
    }
    await edge.nginx.reload(conf);
  };
  await reload();
  const wafDomains = Math.max(0, Math.min(domains, DATA_PLANE_LIMITS.domains - 2 * domains - 1));
  const floodSite = siteId + 1;
  const all = [
    ...Array.from({ length: domains }, (_, i) => [
      domain(i + 1, name(i), [upstream(originPort)], { firewallId: siteId }),
      domain(domains + i + 1, `n${i}.bench.example`, [upstream(originPort)]),
    ]).flat(),
    ...Array.from({ length: wafDomains }, (_, i) =>
      domain(2 * domains + i + 1, `w${i}.bench.example`, [upstream(originPort)], {
        firewallId: siteId,
        modules: moduleRefs({ waf: 1 }),
      }),
    ),
    domain(2 * domains + wafDomains + 1, FLOOD_HOST, [upstream(originPort)], { firewallId: floodSite }),
  ];
  await edge.push({
    ...document('bench-firewall', all, [], [], {
      firewalls: [benchFirewall(siteId), floodFirewall(floodSite)],
      modules: [wafModule(1, { siteId })],
    }),
    geoDatabase,
  });
  const port = edge.httpPort;
  if ((await get(port, name(0))) !== 200) throw new Error('the firewall edge does not serve the first domain');
  if ((await get(port, name(0), 'POST')) !== 403) throw new Error("the firewall edge's rules are not active");
  if ((await get(port, 'n0.bench.example', 'POST')) !== 200)
    throw new Error('the firewall edge applies its rules to every domain');
  if (wafDomains > 0 && (await get(port, 'w0.bench.example')) !== 200)
    throw new Error('the firewall edge does not serve the WAF domains');
  if ((await get(port, FLOOD_HOST)) !== 403) throw new Error("the flood's address is not refused");
  return { edge, domains, wafDomains, reload };
}

/** One wrk run per case on the profiled edge: µs of Lua CPU per request by phase. */
export async function profilePhases(
  fw: FirewallEdge,
  cases: Record<string, { script: string; refused?: boolean }>,
  seconds: number,
): Promise<Record<string, Record<string, number>>> {
  await fw.reload(profileHooks);
  const port = fw.edge.httpPort;
  const out: Record<string, Record<string, number>> = {};
  for (const [label, c] of Object.entries(cases)) {
    // Warm the new workers' caches, then measure.
    await wrk(port, c.script, c.refused, 1);
    const before = await readProfile(port);
    await wrk(port, c.script, c.refused, seconds);
    out[label] = perRequest(before, await readProfile(port));
    log(`profile ${label}: ${JSON.stringify(out[label])}`);
  }
  await fw.reload();
  return out;
}

/**
 * The flood with the node's access log (its repeated refusals tallied), with every refusal logged
 * whole and without the access log, `rounds` times each, alternating on the same edge, so what the
 * log line and the tallies cost a refused request is read in one window.
 */
export async function floodWithoutLog(
  fw: FirewallEdge,
  script: string,
  rounds: number,
): Promise<{ tallyRps: number; everyRps: number; noLogRps: number }> {
  const port = fw.edge.httpPort;
  const runs: Record<LogMode, WrkResult[]> = { none: [], every: [], tally: [] };
  for (let i = 0; i < rounds; i++) {
    for (const mode of ['none', 'every', 'tally'] as const) {
      await fw.reload({}, mode);
      await wrk(port, script, true, 1);
      runs[mode].push(await wrk(port, script, true));
    }
  }
  const median = (rs: WrkResult[]) =>
    percentile(
      rs.map((r) => r.rps).sort((x, y) => x - y),
      50,
    );
  return { tallyRps: median(runs.tally), everyRps: median(runs.every), noLogRps: median(runs.none) };
}
