import type {
  BlacklistRule,
  FirewallMethods,
  GeoRule,
  IntervalLimit,
  SecondLimit,
  UserAgentRule,
  WhitelistRule,
} from '@rampart/contract';
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

/** The fields every frequency limit stores in its `rule` column, and each kind's own. */
interface StoredFrequencyBase {
  urlRegex: string;
  priority: number;
  blockType: number;
  enabled: boolean;
}
export interface StoredIntervalLimit extends StoredFrequencyBase {
  seconds: number;
  times: number;
}
export interface StoredSecondLimit extends StoredFrequencyBase {
  rate: number;
  burst: number;
  blockSeconds: number;
}

function frequencyFields(row: FirewallRuleRow, rule: StoredFrequencyBase) {
  return {
    id: row.id,
    siteID: row.siteId,
    urlRegex: rule.urlRegex,
    priority: rule.priority,
    blockType: rule.blockType,
    enabled: rule.enabled,
    memo: row.memo,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentIntervalLimit(row: FirewallRuleRow): IntervalLimit {
  const rule = row.rule as unknown as StoredIntervalLimit;
  return { ...frequencyFields(row, rule), seconds: rule.seconds, times: rule.times };
}

export function presentSecondLimit(row: FirewallRuleRow): SecondLimit {
  const rule = row.rule as unknown as StoredSecondLimit;
  return { ...frequencyFields(row, rule), rate: rule.rate, burst: rule.burst, blockSeconds: rule.blockSeconds };
}

/** The fields a geo rule stores in its `rule` column (routes/firewall-geos.ts). */
export interface StoredGeoRule {
  isBlack: boolean;
  geoIDs: string[];
  urlRegex: string;
  blockType: number;
  enabled: boolean;
}

export function presentGeoRule(row: FirewallRuleRow): GeoRule {
  const rule = row.rule as unknown as StoredGeoRule;
  return {
    id: row.id,
    siteID: row.siteId,
    isBlack: rule.isBlack,
    geoIDs: rule.geoIDs,
    urlRegex: rule.urlRegex,
    blockType: rule.blockType,
    enabled: rule.enabled,
    memo: row.memo,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
