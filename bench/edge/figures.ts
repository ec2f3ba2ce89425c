import type { floodWithoutLog } from './firewall-edge.js';
import { percentile, round, type WrkResult } from './load.js';

/** The rounds of each load bench:edge runs, side by side. */
export interface Rounds {
  /** The plain nginx proxy, the edge without rules, the firewall edge (rule mix), its domains without rules, and with the WAF. */
  baseline: WrkResult[];
  edge: WrkResult[];
  firewall: WrkResult[];
  noRules: WrkResult[];
  withWaf: WrkResult[];
  /** A blacklisted client's flood on the firewall edge, and nginx's own `return 403` to the same flood. */
  flood: WrkResult[];
  baselineFlood: WrkResult[];
}

/** Medians over the rounds: one round disturbed by the shared machine moves neither figure. */
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** bench:edge's throughput and latency figures, each beside the baseline measured in the same rounds. */
export function throughputFigures(r: Rounds, floodLog: Awaited<ReturnType<typeof floodWithoutLog>> | null) {
  const edgeRps = median(r.edge.map((x) => x.rps));
  const nginxRps = median(r.baseline.map((x) => x.rps));
  const firewallRps = median(r.firewall.map((x) => x.rps));
  const floodRps = median(r.flood.map((x) => x.rps));
  const floodNginxRps = median(r.baselineFlood.map((x) => x.rps));
  const waf = r.withWaf.length > 0;
  return {
    edge_rps: round(edgeRps, 0),
    nginx_rps: round(nginxRps, 0),
    ratio: round(edgeRps / nginxRps, 3),
    edge_p99_ms: round(median(r.edge.map((x) => x.p99ms))),
    nginx_p99_ms: round(median(r.baseline.map((x) => x.p99ms))),
    firewall_rps: round(firewallRps, 0),
    firewall_ratio: round(firewallRps / nginxRps, 3),
    firewall_p99_ms: round(median(r.firewall.map((x) => x.p99ms))),
    firewall_vs_no_rules: round(firewallRps / median(r.noRules.map((x) => x.rps)), 3),
    firewall_waf_rps: waf ? round(median(r.withWaf.map((x) => x.rps)), 0) : null,
    firewall_waf_ratio: waf ? round(median(r.withWaf.map((x) => x.rps)) / nginxRps, 3) : null,
    firewall_waf_p99_ms: waf ? round(median(r.withWaf.map((x) => x.p99ms))) : null,
    flood_rps: round(floodRps, 0),
    flood_nginx_rps: round(floodNginxRps, 0),
    flood_ratio: round(floodRps / floodNginxRps, 3),
    flood_p99_ms: round(median(r.flood.map((x) => x.p99ms))),
    flood_nginx_p99_ms: round(median(r.baselineFlood.map((x) => x.p99ms))),
    // The flood on the same edge without its access log, and with every refusal logged whole.
    flood_no_log_rps: floodLog ? round(floodLog.noLogRps, 0) : null,
    flood_log_share: floodLog ? round(1 - floodLog.tallyRps / floodLog.noLogRps, 3) : null,
    flood_log_every_rps: floodLog ? round(floodLog.everyRps, 0) : null,
  };
}
