import type { L4IpRule, L4LimitConnRule, L4PositionRule } from '@rampart/contract';
import type { L4RuleRow } from './firewall-l4.repository.js';

/** What each layer-4 kind stores in its `rule` column (the port and the memo have columns). */
export interface StoredL4IpRule {
  ips: string[];
}
export interface StoredL4PositionRule {
  isBlack: boolean;
  positions: string[];
  enabled: boolean;
}
export interface StoredL4LimitConnRule {
  max: number;
  rate: number | null;
  burst: number;
  delay: number;
  enabled: boolean;
}

function fields(row: L4RuleRow) {
  return {
    id: row.id,
    siteID: row.siteId,
    portID: row.portId,
    port: row.port,
    protocol: row.protocol,
    memo: row.memo,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentL4IpRule(row: L4RuleRow): L4IpRule {
  const rule = row.rule as unknown as StoredL4IpRule;
  return { ...fields(row), ips: rule.ips };
}

export function presentL4PositionRule(row: L4RuleRow): L4PositionRule {
  const rule = row.rule as unknown as StoredL4PositionRule;
  return { ...fields(row), isBlack: rule.isBlack, positions: rule.positions, enabled: rule.enabled };
}

export function presentL4LimitConnRule(row: L4RuleRow): L4LimitConnRule {
  const rule = row.rule as unknown as StoredL4LimitConnRule;
  return {
    ...fields(row),
    max: rule.max,
    rate: rule.rate,
    burst: rule.burst,
    delay: rule.delay,
    enabled: rule.enabled,
  };
}
