import {
  FIREWALL_ACTIONS,
  type USER_AGENT_BLOCK_TYPES,
  type UserAgentRule,
  type UserAgentRuleInput,
} from '@rampart/contract';
import { ruleFieldOf } from './firewall-rule-form';

/** A user-agent rule's form: the body's fields as they are. */
export interface UserAgentRuleValues {
  urlRegex: string;
  userAgentRegex: string;
  blockType: (typeof USER_AGENT_BLOCK_TYPES)[number];
  enabled: boolean;
  memo: string;
}

/** A new rule: DENY, on. */
export const NEW_USER_AGENT_RULE: UserAgentRuleValues = {
  urlRegex: '',
  userAgentRegex: '',
  blockType: FIREWALL_ACTIONS.deny,
  enabled: true,
  memo: '',
};

/** A listed rule's fields as a body takes them (the switch in its row sends them back with `enabled` changed). */
export function userAgentRuleValues(rule: UserAgentRule): UserAgentRuleValues {
  return {
    urlRegex: rule.urlRegex,
    userAgentRegex: rule.userAgentRegex,
    // A stored rule holds one of the modes the contract accepts.
    blockType: rule.blockType as UserAgentRuleValues['blockType'],
    enabled: rule.enabled,
    memo: rule.memo,
  };
}

/**
 * The body of a rule: the URL pattern trimmed as the lists' is; the User-Agent pattern as typed,
 * since a space is a character it may match.
 */
export function userAgentRuleBody(values: UserAgentRuleValues): UserAgentRuleInput {
  return {
    urlRegex: typeof values.urlRegex === 'string' ? values.urlRegex.trim() : '',
    userAgentRegex: values.userAgentRegex ?? '',
    blockType: values.blockType,
    enabled: values.enabled ?? true,
    memo: values.memo ?? '',
  };
}

export const userAgentRuleFieldOf = ruleFieldOf(['urlRegex', 'userAgentRegex', 'blockType', 'enabled', 'memo']);
