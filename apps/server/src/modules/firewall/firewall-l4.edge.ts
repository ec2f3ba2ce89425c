import {
  type EdgeStreamPort,
  L4_GUARDED_PORTS_MAX,
  L4_IP_LIST_MAX,
  L4_REGION_CIDRS_MAX,
  L4_REGION_CIDRS_TOTAL_MAX,
  L4_REGIONS_MAX,
  L4_RULE_KINDS,
  type L4PortRules,
  type L4Rate,
  type L4Rules,
  type L4WantedRegions,
  l4RulesSchema,
} from '@rampart/contract';
import type { FirewallL4Repository } from './firewall-l4.repository.js';

/** The zone's side of a node's layer-4 document (the zone's row; routes/firewall-l4.ts). */
export interface L4ZoneInput {
  /** The zone's HTTP and HTTPS listen ports: where the zone's rates and the blocked addresses act too. */
  guardedPorts: readonly number[];
  synFlood: L4Rate | null;
  newConnections: L4Rate | null;
  kernelBlocks: boolean;
  /** The zone escalates floods to the kernel (routes/firewall-l4.ts l4EscalationSchema): its blocked sets are used. */
  escalation?: boolean;
}

/** A site's layer-4 rule the node cannot enforce, and why (named on the node like a site left out). */
export interface L4LeftOut {
  siteId: number;
  reason: string;
}

/** Each country's CIDR blocks from the operator's geo database, or null without one. */
export type CountryNetworks = () => Promise<Map<string, { v4: string[]; v6: string[] }> | null>;

/**
 * The node's layer-4 document (snapshot `l4`, edge/l4-rules.ts) for the stream ports it serves
 * (the snapshot's `streamPorts`, already the node's served ports): per port its whitelist and its
 * blacklist (every rule of the kind merged, each address once), its enabled position rule (white:
 * `allow`, black: `deny`; the oldest when several were left enabled) and its enabled connection
 * limit (`delay` is the kernel's `blockSeconds`); the zone's rates on its listen ports; for every
 * region a port names, its CIDR blocks from the operator's geo database.
 *
 * A region rule the node cannot enforce is left out of the port — the port's other rules stay —
 * and named in `leftOut` (the node's snapshot problem, shown to the operator): without a geo
 * database, or when its regions would take the document over L4_REGION_CIDRS_MAX blocks for one
 * region or L4_REGION_CIDRS_TOTAL_MAX in all (ports in number order; the first ones keep theirs).
 * A rule whose stored form breaks its kind's schema (a row written around the API) leaves every
 * port's rules out, the zone's stay, and is named in `leftOut`.
 * Null when the node has no stream port, no zone rate, no kernel blocks and no escalation: nothing for the kernel.
 */
export async function edgeL4(
  repo: FirewallL4Repository,
  streamPorts: readonly EdgeStreamPort[],
  zone: L4ZoneInput,
  countryNetworks: CountryNetworks,
): Promise<{ l4: L4Rules | null; leftOut: L4LeftOut[] }> {
  const leftOut: L4LeftOut[] = [];
  const zoneRules = {
    guardedPorts: [...new Set(zone.guardedPorts)].sort((a, b) => a - b).slice(0, L4_GUARDED_PORTS_MAX),
    synFlood: zone.synFlood,
    newConnections: zone.newConnections,
  };
  if (streamPorts.length === 0 && !zone.synFlood && !zone.newConnections && !zone.kernelBlocks && !zone.escalation) {
    return { l4: null, leftOut };
  }
  const rules = await repo.rulesOfPorts(streamPorts.map((p) => p.id));
  const byPort = new Map<number, typeof rules>();
  for (const rule of rules) {
    const list = byPort.get(rule.portId) ?? [];
    list.push(rule);
    byPort.set(rule.portId, list);
  }
  const siteOfPort = new Map(rules.map((r) => [r.portId, r.siteId]));
  const wanted = new Map<number, L4WantedRegions>();
  const unreadable: L4LeftOut[] = [];
  const ports: L4PortRules[] = streamPorts.map((p) => {
    const port: L4PortRules = {
      id: p.id,
      port: p.port,
      protocol: p.protocol,
      whitelist: [],
      blacklist: [],
      regions: null,
      connectionLimit: null,
    };
    // Each kind's part (contract rule-kinds/site-firewall-l4.ts), the rules oldest first.
    for (const row of byPort.get(p.id) ?? []) {
      const part = L4_RULE_KINDS[row.kind].edgeOf(row);
      if ('unreadable' in part) {
        unreadable.push({
          siteId: row.siteId,
          reason: `its layer-4 rule ${row.id} is unreadable (${part.unreadable})`,
        });
      } else if ('addresses' in part) {
        port[part.addresses].push(...part.entry);
      } else if (part.enabled && part.one === 'regions') {
        if (!wanted.has(p.id)) wanted.set(p.id, part.entry);
      } else if (part.enabled && part.one === 'connectionLimit') {
        port.connectionLimit ??= part.entry;
      }
    }
    // Each address once, at most L4_IP_LIST_MAX (the API keeps a port's lists within it).
    port.whitelist = [...new Set(port.whitelist)].slice(0, L4_IP_LIST_MAX);
    port.blacklist = [...new Set(port.blacklist)].slice(0, L4_IP_LIST_MAX);
    return port;
  });
  if (unreadable.length > 0) {
    // A row written around the API: the node keeps its zone's protection without the ports' rules.
    return { l4: { zone: zoneRules, regions: [], ports: [] }, leftOut: unreadable };
  }

  const regions: L4Rules['regions'] = [];
  if (wanted.size > 0) {
    const networks = await countryNetworks();
    const taken = new Set<string>();
    let total = 0;
    for (const port of ports) {
      const rule = wanted.get(port.id);
      if (!rule) continue;
      const siteId = siteOfPort.get(port.id) ?? 0;
      const unenforced = (why: string) =>
        leftOut.push({ siteId, reason: `its layer-4 region rule on port ${port.port} is not enforced: ${why}` });
      if (networks === null) {
        unenforced('the operator has no geo database');
        continue;
      }
      const fresh = rule.codes.filter((code) => !taken.has(code));
      const sizes = fresh.map((code) => {
        const n = networks.get(code);
        return n ? n.v4.length + n.v6.length : 0;
      });
      const added = sizes.reduce((a, b) => a + b, 0);
      if (sizes.some((n) => n > L4_REGION_CIDRS_MAX)) {
        unenforced(`a region holds more than ${L4_REGION_CIDRS_MAX} CIDR blocks`);
        continue;
      }
      if (total + added > L4_REGION_CIDRS_TOTAL_MAX || taken.size + fresh.length > L4_REGIONS_MAX) {
        unenforced(`the node's regions would hold more than ${L4_REGION_CIDRS_TOTAL_MAX} CIDR blocks`);
        continue;
      }
      total += added;
      for (const code of fresh) {
        taken.add(code);
        const n = networks.get(code);
        // A region the database places no address in is an empty set: `allow` lets none of it in.
        regions.push({ code, cidrs: n ? [...n.v4, ...n.v6] : [] });
      }
      port.regions = rule;
    }
  }
  const document = { zone: zoneRules, regions, ports };
  const parsed = l4RulesSchema.safeParse(document);
  if (!parsed.success) {
    // Built within the contract's bounds from checked rows: a refusal is a row written around the
    // API. The node keeps its zone's protection without the ports' rules rather than no table.
    const issue = parsed.error.issues[0];
    const portIndex = issue?.path[0] === 'ports' ? Number(issue.path[1]) : -1;
    const siteId = siteOfPort.get(ports[portIndex]?.id ?? 0) ?? 0;
    leftOut.push({
      siteId,
      reason: `its layer-4 rules are not enforced: ${issue?.path.join('.')}: ${issue?.message}`,
    });
    return { l4: { zone: zoneRules, regions: [], ports: [] }, leftOut };
  }
  return { l4: parsed.data, leftOut };
}
