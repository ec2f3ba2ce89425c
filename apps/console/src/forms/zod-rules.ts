import type { FormRule } from 'antd';
import type { z } from 'zod';
import { currentLocale } from '../i18n/i18n';
import { issueKey, validationText } from './validation-text';

/**
 * antd form rules from the contract's request schema, so a form and the API it calls cannot
 * disagree (STYLE.md example 7). Each field's rule validates the whole form (plus `fixed` values
 * the form does not show, e.g. a token from the URL) with the route's body schema and reports the
 * first issue on that field, so object-level checks such as passwordNotMatch land on their field.
 * Issues on fields the form does not have (onePassKey, login2FAType) are ignored.
 */
export function schemaRules(schema: z.ZodType, fixed: Record<string, unknown> = {}) {
  return (field: string): FormRule[] => [
    (form) => ({
      validator: async () => {
        const values = { ...fixed, ...withStrings(form.getFieldsValue(true)) };
        const result = await schema.safeParseAsync(values);
        if (result.success) return;
        const issue = result.error.issues.find((candidate) => candidate.path[0] === field);
        if (!issue) return;
        const { key, params } = issueKey(issue, values[field]);
        throw new Error(validationText(key, currentLocale(), params));
      },
    }),
  ];
}

/** Untouched antd inputs hold undefined; the API receives '' for them, so validate '' too. */
function withStrings(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, value ?? '']));
}
