import {
  FIREWALL_ACTIONS,
  FIREWALL_METHODS,
  type FirewallMethod,
  type FirewallMethods,
  numberedLines,
  type WhitelistRuleInput,
} from '@rampart/contract';
import type { FormRule } from 'antd';
import { z } from 'zod';
import type { FieldNameOf } from '../../../../forms/server-errors';
import { issueKey, validationText } from '../../../../forms/validation-text';
import { schemaRules } from '../../../../forms/zod-rules';
import { currentLocale, i18n } from '../../../../i18n/i18n';
import type { FirewallKind, FirewallRule } from './firewall-kinds';

/** The rule form: the IPs as a text box (one a line), the methods as the ticked names. */
export interface FirewallRuleValues {
  ips: string;
  url: string;
  methods: FirewallMethod[];
  memo: string;
  blockType: number;
}

export const RULE_FIELDS = ['ips', 'url', 'methods', 'memo', 'blockType'] as const;

/** A new rule: GET and POST, and the blacklist's DENY. */
export const NEW_RULE: FirewallRuleValues = {
  ips: '',
  url: '',
  methods: ['get', 'post'],
  memo: '',
  blockType: FIREWALL_ACTIONS.deny,
};

export function ruleValues(rule: FirewallRule): FirewallRuleValues {
  return {
    ips: rule.ips.join('\n'),
    url: rule.url,
    methods: FIREWALL_METHODS.filter((method) => rule.methods[method]),
    memo: rule.memo,
    blockType: rule.blockType ?? FIREWALL_ACTIONS.deny,
  };
}

/** The IPs of the text box as the body takes them: one a line, trimmed, blank lines left out. */
function ipLines(text: unknown) {
  return numberedLines(typeof text === 'string' ? text : '');
}

export type FirewallRuleBody = WhitelistRuleInput & { methods: FirewallMethods; blockType?: number };

/** The body of a rule of `kind`: every method named (true or false), the mode only where the kind has one. */
export function ruleBody(kind: Pick<FirewallKind, 'blockType'>, values: FirewallRuleValues): FirewallRuleBody {
  const ticked = Array.isArray(values.methods) ? values.methods : [];
  const methods = Object.fromEntries(FIREWALL_METHODS.map((method) => [method, ticked.includes(method)]));
  const body = {
    ips: ipLines(values.ips).map(({ value }) => value),
    url: typeof values.url === 'string' ? values.url.trim() : '',
    methods: methods as FirewallMethods,
    memo: values.memo ?? '',
  };
  return kind.blockType ? { ...body, blockType: values.blockType } : body;
}

/** Rules of the form's fields from the kind's rule schema (the IPs have their own, naming the line). */
export function firewallRuleRules(kind: Pick<FirewallKind, 'blockType' | 'schema'>) {
  return schemaRules(z.preprocess((values) => ruleBody(kind, values as FirewallRuleValues), kind.schema));
}

/** "Line 3 (10.0.0.1): Duplicate IP": the entry at `index` of the body's IPs, where the text box has it. */
function ipLineText(text: unknown, index: number, message: string): string {
  const entry = ipLines(text)[index];
  return entry ? i18n.t('firewall:form.lineError', { line: entry.line, value: entry.value, message }) : message;
}

/**
 * The IPs box, checked with the kind's schema of the list: the first issue, naming the line and
 * the entry at fault for a malformed or repeated one (the schema reports `ips.N`).
 */
export function ipsRules(kind: Pick<FirewallKind, 'schema'>): FormRule[] {
  return [
    {
      validator: async (_rule, text: unknown) => {
        const ips = ipLines(text).map(({ value }) => value);
        const result = kind.schema.shape.ips.safeParse(ips);
        const issue = result.success ? undefined : result.error.issues[0];
        if (!issue) return;
        const { key, params } = issueKey(issue, ips.length === 0 ? '' : ips);
        const message = validationText(key, currentLocale(), params);
        const index = issue.path[0];
        throw new Error(typeof index === 'number' ? ipLineText(text, index, message) : message);
      },
    },
  ];
}

/**
 * Where a field error of the add (`data.0.ips.2`) or the update (`ips.2`) lands: on its field, an
 * IP entry's with the line and value the text box (`ips`, as it was sent) holds it at.
 */
export function firewallFieldOf(ipsText: () => unknown): FieldNameOf {
  return (path) => {
    const [field, index] = path[0] === 'data' ? path.slice(2) : path;
    if (!(RULE_FIELDS as readonly string[]).includes(field ?? '')) return undefined;
    if (field === 'ips' && index !== undefined && /^\d+$/.test(index)) {
      return { name: 'ips', text: (message: string) => ipLineText(ipsText(), Number(index), message) };
    }
    return field;
  };
}
