import {
  type ANTI_CC_ERROR_BLOCK_TYPES,
  type AntiCCFrequency,
  type AntiCCRule,
  type AntiCCRuleInput,
  BLOCK_TYPES,
  type BUILT_CHALLENGES,
  FIREWALL_ACTIONS,
} from '@rampart/contract';
import { ruleFieldOf } from './firewall-rule-form';

/** An anti-CC rule's form: the body's fields as they are. */
export interface AntiCCRuleValues {
  urlRegex: string;
  frequency: AntiCCFrequency;
  seconds: number;
  times: number;
  blockType: (typeof BUILT_CHALLENGES)[number];
  errorSeconds: number;
  errorTimes: number;
  errorBlockType: (typeof ANTI_CC_ERROR_BLOCK_TYPES)[number];
  enabled: boolean;
  memo: string;
}

/** A new rule: the contract's defaults (30 requests in 60 s, 5 errors in 60 s, then DENY), the shield, on. */
export const NEW_ANTI_CC_RULE: AntiCCRuleValues = {
  urlRegex: '',
  frequency: 'custom',
  seconds: 60,
  times: 30,
  blockType: BLOCK_TYPES.fiveSecondShield,
  errorSeconds: 60,
  errorTimes: 5,
  errorBlockType: FIREWALL_ACTIONS.deny,
  enabled: true,
  memo: '',
};

/** A listed rule's fields as a body takes them (the row's switch sends them back with `enabled` changed). */
export function antiCCRuleValues(rule: AntiCCRule): AntiCCRuleValues {
  return {
    urlRegex: rule.urlRegex,
    frequency: rule.frequency,
    seconds: rule.seconds,
    times: rule.times,
    // A stored rule holds one of the modes the contract accepts.
    blockType: rule.blockType as AntiCCRuleValues['blockType'],
    errorSeconds: rule.errorSeconds,
    errorTimes: rule.errorTimes,
    errorBlockType: rule.errorBlockType as AntiCCRuleValues['errorBlockType'],
    enabled: rule.enabled,
    memo: rule.memo,
  };
}

/** The body of a rule: the URL pattern trimmed; the window and count kept with full verification too. */
export function antiCCRuleBody(values: AntiCCRuleValues): AntiCCRuleInput {
  return {
    urlRegex: typeof values.urlRegex === 'string' ? values.urlRegex.trim() : '',
    frequency: values.frequency,
    seconds: values.seconds,
    times: values.times,
    blockType: values.blockType,
    errorSeconds: values.errorSeconds,
    errorTimes: values.errorTimes,
    errorBlockType: values.errorBlockType,
    enabled: values.enabled ?? true,
    memo: values.memo ?? '',
  };
}

export const antiCCRuleFieldOf = ruleFieldOf([
  'urlRegex',
  'frequency',
  'seconds',
  'times',
  'blockType',
  'errorSeconds',
  'errorTimes',
  'errorBlockType',
  'enabled',
  'memo',
]);
