import {
  type AntiReferer,
  type AntiRefererInput,
  FIREWALL_ACTIONS,
  type HEADER_BLOCK_TYPES,
  type HeaderMatch,
  type HeaderRule,
  type HeaderRuleInput,
  type RefererMode,
} from '@rampart/contract';
import { ruleFieldOf } from './firewall-rule-form';

/** A header rule's form (the site's header rules and a domain's anti-header list). */
export interface HeaderRuleValues {
  urlRegex: string;
  header: string;
  match: HeaderMatch;
  valueRegex: string;
  blockType: (typeof HEADER_BLOCK_TYPES)[number];
  enabled: boolean;
  memo: string;
}

/** A new rule: every URL, "value matches", DENY, on. */
export const NEW_HEADER_RULE: HeaderRuleValues = {
  urlRegex: '.*',
  header: '',
  match: 'matches',
  valueRegex: '',
  blockType: FIREWALL_ACTIONS.deny,
  enabled: true,
  memo: '',
};

export function headerRuleValues(rule: Omit<HeaderRule, 'siteID'>): HeaderRuleValues {
  return {
    urlRegex: rule.urlRegex,
    header: rule.header,
    match: rule.match,
    valueRegex: rule.valueRegex,
    // A stored rule holds one of the modes the contract accepts.
    blockType: rule.blockType as HeaderRuleValues['blockType'],
    enabled: rule.enabled,
    memo: rule.memo,
  };
}

/** The body: URL and name trimmed; the value pattern as typed (a space may be what it matches), none for "absent". */
export function headerRuleBody(values: HeaderRuleValues): HeaderRuleInput {
  const match = values.match ?? 'matches';
  return {
    urlRegex: typeof values.urlRegex === 'string' ? values.urlRegex.trim() : '',
    header: typeof values.header === 'string' ? values.header.trim() : '',
    match,
    valueRegex: match === 'absent' ? '' : (values.valueRegex ?? ''),
    blockType: values.blockType,
    enabled: values.enabled ?? true,
    memo: values.memo ?? '',
  };
}

export const headerRuleFieldOf = ruleFieldOf([
  'urlRegex',
  'header',
  'match',
  'valueRegex',
  'blockType',
  'enabled',
  'memo',
]);

/** An anti-referer rule's form: the hosts one a line. */
export interface AntiRefererValues {
  urlRegex: string;
  mode: RefererMode;
  referers: string;
  allowEmpty: boolean;
  blockType: HeaderRuleValues['blockType'];
  enabled: boolean;
  memo: string;
}

/** A new rule: every URL, an allow list, empty referers allowed, DENY, on. */
export const NEW_ANTI_REFERER: AntiRefererValues = {
  urlRegex: '.*',
  mode: 'allow',
  referers: '',
  allowEmpty: true,
  blockType: FIREWALL_ACTIONS.deny,
  enabled: true,
  memo: '',
};

export function antiRefererValues(rule: AntiReferer): AntiRefererValues {
  return {
    urlRegex: rule.urlRegex,
    mode: rule.mode,
    referers: rule.referers.join('\n'),
    allowEmpty: rule.allowEmpty,
    blockType: rule.blockType as AntiRefererValues['blockType'],
    enabled: rule.enabled,
    memo: rule.memo,
  };
}

/** The hosts of the text box: one a line, trimmed, blank lines left out. */
export function refererLines(text: unknown): string[] {
  return typeof text === 'string'
    ? text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '')
    : [];
}

export function antiRefererBody(values: AntiRefererValues): AntiRefererInput {
  return {
    urlRegex: typeof values.urlRegex === 'string' ? values.urlRegex.trim() : '',
    mode: values.mode,
    referers: refererLines(values.referers),
    allowEmpty: values.allowEmpty ?? true,
    blockType: values.blockType,
    enabled: values.enabled ?? true,
    memo: values.memo ?? '',
  };
}

export const antiRefererFieldOf = ruleFieldOf([
  'urlRegex',
  'mode',
  'referers',
  'allowEmpty',
  'blockType',
  'enabled',
  'memo',
]);
