import {
  L4_RULE_KINDS,
  type L4IpRule,
  type L4IpRuleInput,
  type L4LimitConnRule,
  type L4LimitConnRuleInput,
  type L4PositionRule,
  type L4PositionRuleInput,
  numberedLines,
} from '@rampart/contract';
import type { FormRule } from 'antd';
import type { FieldNameOf } from '../../../../forms/server-errors';
import { ruleFieldOf } from './firewall-rule-form';
import { wholeNumber } from './frequency-rule-form';
import { ipsRules, listRuleFieldOf } from './list-rule-form';

// The dialogs of a layer-4 site's rules (contract rule-kinds/site-firewall-l4.ts): each names one
// of the site's ports by its id, chosen by number and protocol. Numbers are null while their box
// is empty (the contract refuses the NaN they become).

/** An L4 whitelist or blacklist rule's form: the addresses as a text box, one a line. */
export interface L4IpRuleValues {
  portID: number | null;
  ips: string;
  memo: string;
}

export const NEW_L4_IP_RULE: L4IpRuleValues = { portID: null, ips: '', memo: '' };

export function l4IpRuleValues(rule: L4IpRule): L4IpRuleValues {
  return { portID: rule.portID, ips: rule.ips.join('\n'), memo: rule.memo };
}

export function l4IpRuleBody(values: L4IpRuleValues): L4IpRuleInput {
  return {
    portID: wholeNumber(values.portID),
    ips: numberedLines(typeof values.ips === 'string' ? values.ips : '').map(({ value }) => value),
    memo: values.memo ?? '',
  };
}

/** The addresses box, checked with the contract's schema: every bad line, each with its line number. */
export function l4IpsRules(): FormRule[] {
  return ipsRules(L4_RULE_KINDS.l4Whitelist.input.shape.ips);
}

/** A server error at `data.0.ips.2` (add) or `ips.2` (update): on the box, with the line it came from. */
export function l4IpRuleFieldOf(ipsText: () => unknown): FieldNameOf {
  return listRuleFieldOf(ipsText, ['portID', 'ips', 'memo']);
}

/** A position rule's form: the countries as their codes. */
export interface L4PositionRuleValues {
  portID: number | null;
  isBlack: boolean;
  positions: string[];
  enabled: boolean;
  memo: string;
}

/** A new position rule: deny (the listed countries are dropped), on. */
export const NEW_L4_POSITION_RULE: L4PositionRuleValues = {
  portID: null,
  isBlack: true,
  positions: [],
  enabled: true,
  memo: '',
};

export function l4PositionRuleValues(rule: L4PositionRule): L4PositionRuleValues {
  return {
    portID: rule.portID,
    isBlack: rule.isBlack,
    positions: rule.positions,
    enabled: rule.enabled,
    memo: rule.memo,
  };
}

export function l4PositionRuleBody(values: L4PositionRuleValues): L4PositionRuleInput {
  return {
    portID: wholeNumber(values.portID),
    isBlack: values.isBlack ?? true,
    positions: values.positions ?? [],
    enabled: values.enabled ?? true,
    memo: values.memo ?? '',
  };
}

export const l4PositionRuleFieldOf = ruleFieldOf(['portID', 'isBlack', 'positions', 'enabled', 'memo']);

/** A connection limit's form: `rate` empty is no rate. */
export interface L4LimitConnRuleValues {
  portID: number | null;
  max: number | null;
  rate: number | null;
  burst: number | null;
  delay: number | null;
  enabled: boolean;
  memo: string;
}

/** A new limit: the maximum to be typed; no rate, no burst, no block beyond the connection over it, on. */
export const NEW_L4_LIMIT_CONN_RULE: L4LimitConnRuleValues = {
  portID: null,
  max: null,
  rate: null,
  burst: 0,
  delay: 0,
  enabled: true,
  memo: '',
};

export function l4LimitConnRuleValues(rule: L4LimitConnRule): L4LimitConnRuleValues {
  return {
    portID: rule.portID,
    max: rule.max,
    rate: rule.rate,
    burst: rule.burst,
    delay: rule.delay,
    enabled: rule.enabled,
    memo: rule.memo,
  };
}

export function l4LimitConnRuleBody(values: L4LimitConnRuleValues): L4LimitConnRuleInput {
  return {
    portID: wholeNumber(values.portID),
    max: wholeNumber(values.max),
    rate: typeof values.rate === 'number' ? values.rate : null,
    burst: wholeNumber(values.burst),
    delay: wholeNumber(values.delay),
    enabled: values.enabled ?? true,
    memo: values.memo ?? '',
  };
}

export const l4LimitConnRuleFieldOf = ruleFieldOf(['portID', 'max', 'rate', 'burst', 'delay', 'enabled', 'memo']);
