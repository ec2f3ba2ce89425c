import {
  EDGE_ACTION_OF,
  type EdgeBlockAction,
  type EdgeFirewall,
  type EdgeRuleAction,
  emptyEdgeFirewall,
  FIREWALL_METHODS,
  ipListRanges,
  splitGeoIds,
} from '@rampart/contract';
import type {
  StoredAntiCCRule,
  StoredGeoRule,
  StoredHeaderRule,
  StoredIntervalLimit,
  StoredListRule,
  StoredSecondLimit,
  StoredUserAgentRule,
} from './firewall-rules.presenter.js';
import type { FirewallRulesRepository } from './firewall-rules.repository.js';
import type { StoredAbuseIPSetting } from './reputation.service.js';

/**
 * What the edge does for a stored blockType (edge/challenge.ts EDGE_ACTION_OF); each kind's input
 * schema admits only its own modes. A value the edge has no action for (a row written by hand)
 * goes out as itself: the data plane's schema refuses it and the snapshot leaves that site out,
 * named to the operator, instead of failing every site of the node (snapshot-fit.ts).
 */
function actionOf(blockType: number): EdgeRuleAction {
  return EDGE_ACTION_OF[blockType] ?? (`blockType ${blockType}` as EdgeRuleAction);
}

/** A header rule (the site's or a domain's anti-header) as the edge reads it. */
export function edgeHeaderRule(id: number, rule: StoredHeaderRule) {
  return {
    id,
    url: rule.urlRegex,
    name: rule.header.toLowerCase(),
    value: rule.match === 'absent' ? null : rule.valueRegex,
    action: actionOf(rule.blockType) as 'deny' | 'drop',
  };
}

/** The edge's action for a stored blockType. */
export const edgeAction = (blockType: number) => actionOf(blockType) as 'deny' | 'drop';

/**
 * The edge's firewall of the given sites: only those with a rule that acts (a disabled rule does
 * not), so a site without any costs its domains nothing, and those with a block that has not ended
 * (`blockedSites`; an entry without rules: the edge still drops its blocked addresses after the
 * rule that blocked them was deleted). IP lists travel as merged ranges (edge/ip-ranges.ts); rules
 * keep their age order, which is the order the edge tries them in.
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
  // Frequency limits are tried by priority, higher first, then oldest first (rows come oldest first).
  const priorities = new Map<number, number>();
  for (const row of await repo.rulesOf(siteIds)) {
    if (row.kind === 'intervalLimit' || row.kind === 'secondLimit') {
      const rule = row.rule as unknown as StoredIntervalLimit | StoredSecondLimit;
      if (!rule.enabled) continue;
      priorities.set(row.id, rule.priority);
      const base = { id: row.id, url: rule.urlRegex, action: actionOf(rule.blockType) as EdgeBlockAction };
      if (row.kind === 'intervalLimit') {
        const { seconds, times } = rule as StoredIntervalLimit;
        of(row.siteId).intervals.push({ ...base, seconds, times });
      } else {
        const { rate, burst, blockSeconds } = rule as StoredSecondLimit;
        of(row.siteId).rates.push({ ...base, rate, burst, blockSeconds });
      }
      continue;
    }
    if (row.kind === 'antiCC') {
      const rule = row.rule as unknown as StoredAntiCCRule;
      if (!rule.enabled) continue;
      of(row.siteId).antiCC.push({
        id: row.id,
        url: rule.urlRegex,
        seconds: rule.seconds,
        times: rule.frequency === 'full' ? 0 : rule.times,
        challenge: actionOf(rule.blockType) as EdgeFirewall['antiCC'][number]['challenge'],
        errorSeconds: rule.errorSeconds,
        errorTimes: rule.errorTimes,
        errorAction: actionOf(rule.errorBlockType) as EdgeBlockAction,
      });
      continue;
    }
    if (row.kind === 'header') {
      const rule = row.rule as unknown as StoredHeaderRule;
      if (rule.enabled) of(row.siteId).headers.push(edgeHeaderRule(row.id, rule));
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
        action: actionOf(rule.blockType),
      });
      continue;
    }
    if (row.kind === 'abuseIP') {
      // IP trust protection (routes/firewall-reputation.ts): the site's one setting, when it is on.
      const setting = row.rule as unknown as StoredAbuseIPSetting;
      if (setting.enabled) {
        of(row.siteId).reputation = { threshold: setting.threshold, action: actionOf(setting.blockType) };
      }
      continue;
    }
    if (row.kind === 'userAgent') {
      const rule = row.rule as unknown as StoredUserAgentRule;
      if (!rule.enabled) continue;
      of(row.siteId).userAgents.push({
        id: row.id,
        url: rule.urlRegex,
        userAgent: rule.userAgentRegex,
        action: actionOf(rule.blockType),
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
    else of(row.siteId).blacklist.push({ ...listRule, action: actionOf(rule.blockType ?? 0) });
  }
  for (const siteId of await blockedSites(siteIds)) of(siteId);
  const byPriority = (a: { id: number }, b: { id: number }) =>
    (priorities.get(b.id) ?? 0) - (priorities.get(a.id) ?? 0) || a.id - b.id;
  for (const entry of out.values()) {
    entry.intervals.sort(byPriority);
    entry.rates.sort(byPriority);
  }
  return [...out.values()];
}
