import { isIP } from 'node:net';
import { DEFAULT_LINE } from '@rampart/contract';
import { inZone, type RecordSet, recordSet } from './dns-provider.js';

/**
 * The record sets an operator's configuration asks for (docs/decisions.md "Publishing DNS records"),
 * computed from a snapshot of the config store by a pure function, so the reconciler only compares.
 *
 * For each enabled domain of the operator's sites, its CNAME target `<label>.<CNAME domain>` answers,
 * on each DNS line the provider has and the site's groups use:
 * - the addresses (A for IPv4, AAAA for IPv6) of the healthy, enabled nodes placed on that line of
 *   the product's main groups, with their sub-nodes' addresses, and of the healthy nodes a node-IP
 *   virtual node placed there references;
 * - if none of them is healthy (or the site has `forceBackup`), the same from the backup groups;
 * - with no address at all, the CNAME of a CNAME virtual node placed there (the first by id);
 * - when every candidate is down, the main groups' addresses anyway (failing open: a name with no
 *   answer is worse than one that may reach a node the monitors lost).
 * A line the provider does not have is not published (PowerDNS and RFC 2136 have only `default`).
 */

export interface DomainTarget {
  readonly label: string;
  readonly productId: number;
  readonly forceBackup: boolean;
}
export interface ProductGroup {
  readonly productId: number;
  readonly groupId: number;
  readonly isBackup: boolean;
}
export interface NodePlacement {
  readonly groupId: number;
  readonly nodeId: number;
  readonly line: string;
}
export interface VirtualPlacement {
  readonly groupId: number;
  readonly virtualNodeId: number;
  readonly line: string;
}
export interface VirtualRecord {
  readonly virtualNodeId: number;
  readonly type: 'cname' | 'node';
  readonly value: string;
  readonly nodeId: number | null;
}

export interface PublishInput {
  /** The operator's CNAME domain (names outside the provider's zone are left out). */
  readonly cnameDomain: string;
  readonly zone: string;
  readonly lines: readonly string[];
  readonly ttl: number;
  readonly domains: readonly DomainTarget[];
  readonly productGroups: readonly ProductGroup[];
  readonly nodePlacements: readonly NodePlacement[];
  readonly virtualPlacements: readonly VirtualPlacement[];
  readonly virtualRecords: readonly VirtualRecord[];
  /** The addresses of each enabled, initialised node of the operator (its own and its sub-nodes'). */
  readonly nodeAddresses: ReadonlyMap<number, readonly string[]>;
  /** Nodes the monitors hold down. */
  readonly down: ReadonlySet<number>;
}

interface Answer {
  addresses: string[];
  cname: string | null;
}

/** The record sets the configuration asks for, sorted by name, type and line. */
export function desiredRecords(input: PublishInput): RecordSet[] {
  const groupsOf = new Map<number, { main: number[]; backup: number[] }>();
  for (const pg of input.productGroups) {
    const entry = groupsOf.get(pg.productId) ?? { main: [], backup: [] };
    (pg.isBackup ? entry.backup : entry.main).push(pg.groupId);
    groupsOf.set(pg.productId, entry);
  }
  const recordsOf = new Map<number, VirtualRecord[]>();
  for (const record of input.virtualRecords) {
    recordsOf.set(record.virtualNodeId, [...(recordsOf.get(record.virtualNodeId) ?? []), record]);
  }

  /** The answer of `groups` on `line`: addresses of their nodes (healthy only unless `all`), or a CNAME. */
  const answer = (groups: readonly number[], line: string, all: boolean): Answer => {
    const wanted = new Set(groups);
    const addresses: string[] = [];
    const nodeIds = new Set<number>();
    for (const p of input.nodePlacements) if (wanted.has(p.groupId) && p.line === line) nodeIds.add(p.nodeId);
    let cname: string | null = null;
    const virtuals = input.virtualPlacements
      .filter((p) => wanted.has(p.groupId) && p.line === line)
      .map((p) => p.virtualNodeId)
      .sort((a, b) => a - b);
    for (const id of virtuals) {
      for (const record of recordsOf.get(id) ?? []) {
        if (record.type === 'node' && record.nodeId !== null) nodeIds.add(record.nodeId);
        if (record.type === 'cname' && cname === null) cname = record.value;
      }
    }
    for (const nodeId of nodeIds) {
      if (!all && input.down.has(nodeId)) continue;
      addresses.push(...(input.nodeAddresses.get(nodeId) ?? []));
    }
    return { addresses, cname };
  };

  const sets: RecordSet[] = [];
  const seen = new Set<string>();
  for (const domain of input.domains) {
    const name = `${domain.label}.${input.cnameDomain}`.toLowerCase();
    if (seen.has(name) || !inZone(name, input.zone)) continue;
    seen.add(name);
    const groups = groupsOf.get(domain.productId) ?? { main: [], backup: [] };
    for (const line of input.lines) {
      let chosen: Answer | null = null;
      const main = answer(groups.main, line, false);
      const backup = answer(groups.backup, line, false);
      if (!domain.forceBackup && main.addresses.length > 0) chosen = main;
      else if (backup.addresses.length > 0) chosen = backup;
      else if (domain.forceBackup ? backup.cname : main.cname) chosen = domain.forceBackup ? backup : main;
      else if (!domain.forceBackup && backup.cname) chosen = backup;
      else {
        const fallback = answer(domain.forceBackup ? groups.backup : groups.main, line, true);
        if (fallback.addresses.length > 0 || fallback.cname) chosen = fallback;
      }
      if (!chosen) continue;
      if (chosen.addresses.length > 0) {
        const v4 = chosen.addresses.filter((a) => isIP(a) === 4);
        const v6 = chosen.addresses.filter((a) => isIP(a) === 6);
        if (v4.length > 0) sets.push(recordSet(name, 'A', input.ttl, v4, line));
        if (v6.length > 0) sets.push(recordSet(name, 'AAAA', input.ttl, v6, line));
      } else if (chosen.cname) {
        sets.push(recordSet(name, 'CNAME', input.ttl, [chosen.cname], line));
      }
    }
  }
  return sets.sort((a, b) => setKey(a).localeCompare(setKey(b)));
}

/** The identity of a record set at a provider: name, type and line. */
export function setKey(set: { name: string; type: string; line: string }): string {
  return `${set.name} ${set.type} ${set.line}`;
}

/** The lines published for a provider: its own, `default` first. */
export function publishedLines(providerLines: readonly string[]): string[] {
  return [DEFAULT_LINE, ...providerLines.filter((l) => l !== DEFAULT_LINE)];
}
