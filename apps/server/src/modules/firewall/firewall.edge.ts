import {
  type EdgeFirewall,
  type EdgeRuleList,
  edgeActionOf,
  emptyEdgeFirewall,
  SITE_RULE_KINDS,
  type SiteRuleKind,
} from '@rampart/contract';
import type { FirewallRulesRepository } from './firewall-rules.repository.js';
import type { StoredAbuseIPSetting } from './reputation.service.js';

const isRuleKind = (kind: string): kind is SiteRuleKind => Object.hasOwn(SITE_RULE_KINDS, kind);

/**
 * The edge's firewall of the given sites: only those with a rule that acts (a disabled rule does
 * not), so a site without any costs its domains nothing, and those with a block that has not ended
 * (`blockedSites`; an entry without rules: the edge still drops its blocked addresses after the
 * rule that blocked them was deleted). Each rule's entry comes from its kind's declaration
 * (contract rule-kinds/site-firewall.ts); rules keep their age order, which is the order the edge
 * tries them in, but in the lists a kind orders by priority (higher first, then oldest first).
 */
export async function edgeFirewalls(
  repo: FirewallRulesRepository,
  siteIds: number[],
  blockedSites: (siteIds: number[]) => Promise<number[]> = async () => [],
): Promise<EdgeFirewall[]> {
  if (siteIds.length === 0) return [];
  const out = new Map<number, EdgeFirewall>();
  const of = (siteId: number): EdgeFirewall => {
    let entry = out.get(siteId);
    if (!entry) {
      entry = emptyEdgeFirewall(siteId);
      out.set(siteId, entry);
    }
    return entry;
  };
  const priorities = new Map<number, number>();
  const ordered = new Set<EdgeRuleList>();
  for (const row of await repo.rulesOf(siteIds)) {
    if (row.kind === 'abuseIP') {
      // IP trust protection (routes/firewall-reputation.ts): the site's one setting, when it is on.
      const setting = row.rule as unknown as StoredAbuseIPSetting;
      if (setting.enabled) {
        of(row.siteId).reputation = { threshold: setting.threshold, action: edgeActionOf(setting.blockType) };
      }
      continue;
    }
    if (!isRuleKind(row.kind)) continue;
    const placed = SITE_RULE_KINDS[row.kind].edgeOf(row);
    if (!placed) continue;
    if (placed.priority !== undefined) {
      priorities.set(row.id, placed.priority);
      ordered.add(placed.list);
    }
    const firewall = of(row.siteId);
    // Each list holds its kind's entries: the declaration typed the entry for its list.
    firewall[placed.list] ??= [];
    (firewall[placed.list] as unknown[]).push(placed.entry);
  }
  for (const siteId of await blockedSites(siteIds)) of(siteId);
  const byPriority = (a: { id: number }, b: { id: number }) =>
    (priorities.get(b.id) ?? 0) - (priorities.get(a.id) ?? 0) || a.id - b.id;
  for (const entry of out.values()) {
    for (const list of ordered) entry[list]?.sort(byPriority);
  }
  return [...out.values()];
}
