import {
  type BLACKLIST_BLOCK_TYPES,
  type EdgeFirewall,
  FIREWALL_METHODS,
  ipListRanges,
  splitGeoIds,
} from '@rampart/contract';
import type {
  StoredGeoRule,
  StoredIntervalLimit,
  StoredListRule,
  StoredSecondLimit,
  StoredUserAgentRule,
} from './firewall-rules.presenter.js';
import type { FirewallRulesRepository } from './firewall-rules.repository.js';

type ActionBlockType = (typeof BLACKLIST_BLOCK_TYPES)[number];
/** The non-challenge actions the edge takes for a blockType (enums.ts FIREWALL_ACTIONS). */
const ACTIONS: Record<ActionBlockType, 'deny' | 'drop'> = { 10: 'deny', 11: 'drop' };

/**
 * The edge's firewall of the given sites: only those with a rule that acts (a disabled rule does
 * not), so a site without any costs its domains nothing. IP lists travel as merged ranges
 * (edge/ip-ranges.ts); rules keep their age order, which is the order the edge tries them in.
 */
export async function edgeFirewalls(repo: FirewallRulesRepository, siteIds: number[]): Promise<EdgeFirewall[]> {
  if (siteIds.length === 0) return [];
  const out = new Map<number, EdgeFirewall>();
  const of = (siteId: number): EdgeFirewall => {
    let entry = out.get(siteId);
    if (!entry) {
      entry = { id: siteId, whitelist: [], blacklist: [], userAgents: [], intervals: [], rates: [] };
      out.set(siteId, entry);
    }
    return entry;
  };
  // Frequency limits are tried by priority, higher first, then oldest first (rows come oldest first).
  const priorities = new Map<number, number>();
  for (const row of await repo.rulesOf(siteIds)) {
    if (row.kind === 'intervalLimit' || row.kind === 'secondLimit') {
      const rule = row.rule as unknown as StoredIntervalLimit | StoredSecondLimit;
      if (!rule.enabled) continue;
      priorities.set(row.id, rule.priority);
      const base = { id: row.id, url: rule.urlRegex, action: ACTIONS[rule.blockType as ActionBlockType] };
      if (row.kind === 'intervalLimit') {
        const { seconds, times } = rule as StoredIntervalLimit;
        of(row.siteId).intervals.push({ ...base, seconds, times });
      } else {
        const { rate, burst, blockSeconds } = rule as StoredSecondLimit;
        of(row.siteId).rates.push({ ...base, rate, burst, blockSeconds });
      }
      continue;
    }
    if (row.kind === 'geo') {
      const rule = row.rule as unknown as StoredGeoRule;
      if (!rule.enabled) continue;
      const entry = of(row.siteId);
      entry.geos ??= [];
      entry.geos.push({
        id: row.id,
        url: rule.urlRegex,
        white: !rule.isBlack,
        ...splitGeoIds(rule.geoIDs),
        action: ACTIONS[rule.blockType as ActionBlockType],
      });
      continue;
    }
    if (row.kind === 'userAgent') {
      const rule = row.rule as unknown as StoredUserAgentRule;
      if (!rule.enabled) continue;
      of(row.siteId).userAgents.push({
        id: row.id,
        url: rule.urlRegex,
        userAgent: rule.userAgentRegex,
        action: ACTIONS[rule.blockType as ActionBlockType],
      });
      continue;
    }
    const rule = row.rule as unknown as StoredListRule;
    const listRule = {
      id: row.id,
      url: rule.url,
      methods: FIREWALL_METHODS.filter((m) => rule.methods[m]).map((m) => m.toUpperCase()),
      ...ipListRanges(rule.ips),
    };
    if (row.kind === 'whitelist') of(row.siteId).whitelist.push(listRule);
    else of(row.siteId).blacklist.push({ ...listRule, action: ACTIONS[rule.blockType as ActionBlockType] });
  }
  const byPriority = (a: { id: number }, b: { id: number }) =>
    (priorities.get(b.id) ?? 0) - (priorities.get(a.id) ?? 0) || a.id - b.id;
  for (const entry of out.values()) {
    entry.intervals.sort(byPriority);
    entry.rates.sort(byPriority);
  }
  return [...out.values()];
}
