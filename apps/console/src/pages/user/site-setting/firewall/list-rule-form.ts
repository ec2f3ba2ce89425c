import {
  type BLACKLIST_BLOCK_TYPES,
  type BlacklistRule,
  type BlacklistRuleInput,
  FIREWALL_ACTIONS,
  FIREWALL_METHODS,
  type FirewallMethod,
  type FirewallMethods,
  numberedLines,
  type WhitelistRule,
  type WhitelistRuleInput,
  whitelistRuleInputSchema,
} from '@rampart/contract';
import type { FormRule } from 'antd';
import type { z } from 'zod';
import { LIST_VALIDATE_TRIGGER, refuseLines } from '../../../../forms/line-rules';
import type { FieldNameOf } from '../../../../forms/server-errors';
import { issueKey, validationText } from '../../../../forms/validation-text';
import { currentLocale, i18n } from '../../../../i18n/i18n';
import { ruleFieldOf } from './firewall-rule-form';

/** The whitelist's and blacklist's form: the IPs as a text box (one a line), the methods as the ticked names. */
export interface ListRuleValues {
  ips: string;
  url: string;
  methods: FirewallMethod[];
  memo: string;
  /** The blacklist's mode; the whitelist's form leaves it out of the body. */
  blockType: (typeof BLACKLIST_BLOCK_TYPES)[number];
}

export const LIST_RULE_FIELDS = ['ips', 'url', 'methods', 'memo', 'blockType'] as const;

/** A new rule: GET and POST, and the blacklist's DENY. */
export const NEW_LIST_RULE: ListRuleValues = {
  ips: '',
  url: '',
  methods: ['get', 'post'],
  memo: '',
  blockType: FIREWALL_ACTIONS.deny,
};

export function listRuleValues(rule: WhitelistRule & Partial<Pick<BlacklistRule, 'blockType'>>): ListRuleValues {
  return {
    ips: rule.ips.join('\n'),
    url: rule.url,
    methods: FIREWALL_METHODS.filter((method) => rule.methods[method]),
    memo: rule.memo,
    // A stored blacklist rule holds one of the modes the contract accepts.
    blockType: (rule.blockType ?? FIREWALL_ACTIONS.deny) as ListRuleValues['blockType'],
  };
}

/** The IPs of the text box as the body takes them: one a line, trimmed, blank lines left out. */
function ipLines(text: unknown) {
  return numberedLines(typeof text === 'string' ? text : '');
}

/** The body of a whitelist rule: every method named (true or false). */
export function whitelistRuleBody(values: ListRuleValues): WhitelistRuleInput & { methods: FirewallMethods } {
  const ticked = Array.isArray(values.methods) ? values.methods : [];
  const methods = Object.fromEntries(FIREWALL_METHODS.map((method) => [method, ticked.includes(method)]));
  return {
    ips: ipLines(values.ips).map(({ value }) => value),
    url: typeof values.url === 'string' ? values.url.trim() : '',
    methods: methods as FirewallMethods,
    memo: values.memo ?? '',
  };
}

/** The body of a blacklist rule: the whitelist's and the mode. */
export function blacklistRuleBody(values: ListRuleValues): BlacklistRuleInput & { methods: FirewallMethods } {
  return { ...whitelistRuleBody(values), blockType: values.blockType };
}

/** "Line 3 (10.0.0.1): Duplicate IP": the entry at `index` of the body's IPs, where the text box has it. */
function ipLineText(text: unknown, index: number, message: string): string {
  const entry = ipLines(text)[index];
  return entry ? lineErrorText(entry, message) : message;
}

function lineErrorText(entry: { line: number; value: string }, message: string): string {
  return i18n.t('firewall:form.lineError', { line: entry.line, value: entry.value, message });
}

/**
 * The IPs box, checked with the lists' schema of the IPs (or another list's: the layer-4 lists'):
 * every malformed or repeated entry, each naming its line and the entry (the schema reports
 * `ips.N`), or the list's own issue (none, too many). Checked on blur and on submit, in one pass.
 */
export function ipsRules(schema: z.ZodType = whitelistRuleInputSchema.shape.ips): FormRule[] {
  return [
    {
      validateTrigger: LIST_VALIDATE_TRIGGER,
      validator: (_rule, text: unknown) => {
        const lines = ipLines(text);
        const ips = lines.map(({ value }) => value);
        const result = schema.safeParse(ips);
        if (result.success) return Promise.resolve();
        const locale = currentLocale();
        return refuseLines(result.error.issues, (issue) => {
          const { key, params } = issueKey(issue, ips.length === 0 ? '' : ips);
          const message = validationText(key, locale, params);
          const index = issue.path[0];
          const entry = typeof index === 'number' ? lines[index] : undefined;
          return entry ? lineErrorText(entry, message) : message;
        });
      },
    },
  ];
}

/**
 * Where a field error of the add (`data.0.ips.2`) or the update (`ips.2`) lands: on its field, an
 * IP entry's with the line and value the text box (`ips`, as it was sent) holds it at.
 */
export function listRuleFieldOf(ipsText: () => unknown, fields: readonly string[] = LIST_RULE_FIELDS): FieldNameOf {
  const fieldOf = ruleFieldOf(fields);
  return (path) => {
    const field = fieldOf(path);
    const index = path[0] === 'data' ? path[3] : path[1];
    if (field === 'ips' && index !== undefined && /^\d+$/.test(index)) {
      return { name: 'ips', text: (message: string) => ipLineText(ipsText(), Number(index), message) };
    }
    return field;
  };
}
