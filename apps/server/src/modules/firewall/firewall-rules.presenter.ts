import type { BlacklistRule, FirewallMethods, UserAgentRule, WhitelistRule } from '@rampart/contract';
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

/** The fields a user-agent rule stores in its `rule` column. */
export interface StoredUserAgentRule {
  urlRegex: string;
  userAgentRegex: string;
  blockType: number;
  enabled: boolean;
}

export function presentUserAgentRule(row: FirewallRuleRow): UserAgentRule {
  const rule = row.rule as unknown as StoredUserAgentRule;
  return {
    id: row.id,
    siteID: row.siteId,
    urlRegex: rule.urlRegex,
    userAgentRegex: rule.userAgentRegex,
    blockType: rule.blockType,
    enabled: rule.enabled,
    memo: row.memo,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
