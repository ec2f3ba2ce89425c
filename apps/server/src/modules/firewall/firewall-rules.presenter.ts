import type {
  AntiCCFrequency,
  AntiCCRule,
  BlacklistRule,
  FirewallMethods,
  GeoRule,
  HeaderMatch,
  HeaderRule,
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

/** The fields a header rule (the site's or a domain's anti-header) stores in its `rule` column. */
export interface StoredHeaderRule {
  urlRegex: string;
  header: string;
  match: HeaderMatch;
  valueRegex: string;
  blockType: number;
  enabled: boolean;
}

/** A header rule's reply fields but its owner's ids (from either table). */
export function headerRuleFields(row: { id: number; rule: unknown; memo: string; createdAt: Date; updatedAt: Date }) {
  const rule = row.rule as StoredHeaderRule;
  return {
    id: row.id,
    urlRegex: rule.urlRegex,
    header: rule.header,
    match: rule.match,
    valueRegex: rule.valueRegex,
    blockType: rule.blockType,
    enabled: rule.enabled,
    memo: row.memo,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentHeaderRule(row: FirewallRuleRow): HeaderRule {
  return { ...headerRuleFields(row), siteID: row.siteId };
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

/** The fields an anti-CC rule stores in its `rule` column. */
export interface StoredAntiCCRule {
  urlRegex: string;
  frequency: AntiCCFrequency;
  seconds: number;
  times: number;
  blockType: number;
  errorSeconds: number;
  errorTimes: number;
  errorBlockType: number;
  enabled: boolean;
}

export function presentAntiCCRule(row: FirewallRuleRow): AntiCCRule {
  const rule = row.rule as unknown as StoredAntiCCRule;
  return {
    id: row.id,
    siteID: row.siteId,
    urlRegex: rule.urlRegex,
    frequency: rule.frequency,
    seconds: rule.seconds,
    times: rule.times,
    blockType: rule.blockType,
    errorSeconds: rule.errorSeconds,
    errorTimes: rule.errorTimes,
    errorBlockType: rule.errorBlockType,
    enabled: rule.enabled,
    memo: row.memo,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
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
