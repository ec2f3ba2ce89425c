import { type BLACKLIST_BLOCK_TYPES, type EdgeFirewall, FIREWALL_METHODS, ipListRanges } from '@rampart/contract';
import type { StoredListRule } from './firewall-rules.presenter.js';
import type { FirewallRulesRepository } from './firewall-rules.repository.js';

type BlacklistBlockType = (typeof BLACKLIST_BLOCK_TYPES)[number];
const BLACKLIST_ACTIONS: Record<BlacklistBlockType, 'deny' | 'drop'> = { 10: 'deny', 11: 'drop' };

/**
 * The edge's firewall of the given sites: only those with a rule, so a site without any costs its
 * domains nothing. IP lists travel as merged ranges (edge/ip-ranges.ts); rules keep their age order.
 */
export async function edgeFirewalls(repo: FirewallRulesRepository, siteIds: number[]): Promise<EdgeFirewall[]> {
  if (siteIds.length === 0) return [];
  const out = new Map<number, EdgeFirewall>();
  for (const row of await repo.rulesOf(siteIds)) {
    let entry = out.get(row.siteId);
    if (!entry) {
      entry = { id: row.siteId, whitelist: [], blacklist: [] };
      out.set(row.siteId, entry);
    }
    const rule = row.rule as unknown as StoredListRule;
    const edgeRule = {
      id: row.id,
      url: rule.url,
      methods: FIREWALL_METHODS.filter((m) => rule.methods[m]).map((m) => m.toUpperCase()),
      ...ipListRanges(rule.ips),
    };
    if (row.kind === 'whitelist') entry.whitelist.push(edgeRule);
    else entry.blacklist.push({ ...edgeRule, action: BLACKLIST_ACTIONS[rule.blockType as BlacklistBlockType] });
  }
  return [...out.values()];
}
