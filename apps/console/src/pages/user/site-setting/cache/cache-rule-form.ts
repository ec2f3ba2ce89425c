import {
  CACHE_TTL_SECONDS,
  type CacheRule,
  type CacheRuleInput,
  type CacheScope,
  cacheRuleInputSchema,
  cacheRuleValuesSchema,
  FILE_TYPE_GROUPS,
} from '@rampart/contract';
import type { FormRule } from 'antd';
import { z } from 'zod';
import { refuseEntries } from '../../../../forms/line-rules';
import type { FieldNameOf } from '../../../../forms/server-errors';
import { schemaRules } from '../../../../forms/zod-rules';
import { i18n } from '../../../../i18n/i18n';

/** The rule form: the body's fields, `values` edited as tags (paths, suffixes) or picked groups. */
export interface CacheRuleValues {
  scope: CacheScope;
  values: string[];
  ttl: number;
  queryString: 'ignore' | 'include';
  bypass: boolean;
  respectOrigin: boolean;
  priority: number;
  memo: string;
}

/** A new rule: the contract's defaults. */
export const NEW_RULE: CacheRuleValues = {
  scope: 'suffix',
  values: [],
  ttl: 3600,
  queryString: 'include',
  bypass: false,
  respectOrigin: true,
  priority: 0,
  memo: '',
};

export const RULE_FIELDS = [
  'scope',
  'values',
  'ttl',
  'queryString',
  'bypass',
  'respectOrigin',
  'priority',
  'memo',
] as const;

export function ruleValues(rule: CacheRule): CacheRuleValues {
  const { scope, values, ttl, queryString, bypass, respectOrigin, priority, memo } = rule;
  return { scope, values, ttl, queryString, bypass, respectOrigin, priority, memo };
}

/**
 * The body of a rule. `values` go only with a scope that takes them; a suffix is sent without a
 * leading dot and in lower case (people type ".JPG"), a path as typed but trimmed.
 */
export function ruleBody(form: CacheRuleValues): CacheRuleInput & { values: string[] } {
  const typed = form.scope === 'all' || !Array.isArray(form.values) ? [] : form.values;
  const values = typed.map((value) =>
    form.scope === 'suffix' ? value.trim().replace(/^\.+/, '').toLowerCase() : value.trim(),
  );
  return {
    scope: form.scope,
    values,
    ttl: form.ttl,
    queryString: form.queryString,
    bypass: form.bypass === true,
    respectOrigin: form.respectOrigin === true,
    priority: form.priority,
    memo: form.memo,
  };
}

const formSchema = z.preprocess((values) => ruleBody(values as CacheRuleValues), cacheRuleInputSchema);

/** Rules of the form's fields from the contract's rule schema (STYLE.md example 7). */
export const ruleRules = schemaRules(formSchema);

/**
 * The values field: every bad value named with its place and value (as the body sends it: a
 * suffix without its dot, in lower case), checked with the contract's list of the rule's scope.
 */
export const valuesRules: FormRule[] = [
  (form) => ({
    validator: () => {
      const body = ruleBody(form.getFieldsValue(true) as CacheRuleValues);
      return refuseEntries(cacheRuleValuesSchema(body.scope), body.values, (position, value, message) =>
        i18n.t('cache:form.valueError', { position, value, message }),
      );
    },
  }),
];

/** Where a field error of `POST .../caches` (`data.0.ttl`) lands on the form of its one rule. */
export const addFieldOf: FieldNameOf = (path) => {
  const [root, , field] = path;
  return root === 'data' && (RULE_FIELDS as readonly string[]).includes(field ?? '') ? field : undefined;
};

/** The label of a file-type group with its suffixes: "Images (gif, png, …)". */
export function fileTypeLabel(group: string): string {
  const suffixes = FILE_TYPE_GROUPS[group as keyof typeof FILE_TYPE_GROUPS];
  const name = i18n.t(`cache:fileTypes.${group as keyof typeof FILE_TYPE_GROUPS}`);
  return suffixes ? `${name} (${suffixes.join(', ')})` : group;
}

type CacheTtl = (typeof CACHE_TTL_SECONDS)[number];

/** A rule's lifetime as its preset's name ("1 hour"); seconds for a value no preset has. */
export function ttlLabel(ttl: number): string {
  return (CACHE_TTL_SECONDS as readonly number[]).includes(ttl) ? i18n.t(`cache:ttls.${ttl as CacheTtl}`) : `${ttl} s`;
}
