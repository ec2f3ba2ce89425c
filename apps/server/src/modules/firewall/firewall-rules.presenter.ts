import type { BlacklistRule, FirewallMethods, WhitelistRule } from '@rampart/contract';
import type { FirewallRuleRow } from './firewall-rules.repository.js';

/** The fields a whitelist or blacklist rule stores in its `rule` column. */
export interface StoredListRule {
  ips: string[];
  url: string;
  methods: FirewallMethods;
  blockType?: number;
}

export function presentWhitelistRule(row: FirewallRuleRow): WhitelistRule {
  const rule = row.rule as unknown as StoredListRule;
  return {
    id: row.id,
    siteID: row.siteId,
    ips: rule.ips,
    url: rule.url,
    methods: rule.methods,
    memo: row.memo,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentBlacklistRule(row: FirewallRuleRow): BlacklistRule {
  const rule = row.rule as unknown as StoredListRule;
  return { ...presentWhitelistRule(row), blockType: rule.blockType ?? 0 };
}
