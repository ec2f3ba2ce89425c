import type { FormRule } from 'antd';
import { z } from 'zod';
import { currentLocale } from '../i18n/i18n';
import { fieldAt } from './number-bounds';
import { issueKey, validationText } from './validation-text';

/**
 * antd form rules from the contract's request schema, so a form and the API it calls cannot
 * disagree (STYLE.md example 7). Each field's rule validates the whole form (plus `fixed` values
 * the form does not show, e.g. a token from the URL) with the route's body schema and reports the
 * first issue on that field, so object-level checks such as passwordNotMatch land on their field.
 * Issues on fields the form does not have (onePassKey, login2FAType) are ignored. A form whose
 * values are not the body passes a schema that first converts them (`z.preprocess`) and `bodyField`.
 */
export function schemaRules(
  schema: z.ZodType,
  fixed: Record<string, unknown> = {},
  /** The body field a form field becomes, where the names differ (`mainGroups` → `mainGroupIDs`). */
  bodyField: (field: string) => string = (field) => field,
) {
  // The fields' rules of one form check the same values (all of them on submit): one parse serves
  // them all while no value changed, so a form holding a list of 5,000 addresses parses it once.
  let last: { values: Record<string, unknown>; result: ReturnType<typeof schema.safeParseAsync> } | undefined;
  const parse = (values: Record<string, unknown>) => {
    if (!last || !sameValues(last.values, values)) last = { values, result: schema.safeParseAsync(values) };
    return last.result;
  };
  return (field: string): FormRule[] => [
    (form) => ({
      validator: async () => {
        const values = { ...fixed, ...withStrings(form.getFieldsValue(true)) };
        const result = await parse(values);
        if (result.success) return;
        const issue = result.error.issues.find((candidate) => candidate.path[0] === bodyField(field));
        if (!issue) return;
        const { key, params } = issueKey(issue, values[field]);
        throw new Error(validationText(key, currentLocale(), params));
      },
    }),
  ];
}

/** The same fields holding the same values (antd keeps an unchanged value's object as it was). */
function sameValues(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.is(a[key], b[key]));
}

/** Untouched antd inputs hold undefined; the API receives '' for them, so validate '' too. */
function withStrings(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, value ?? '']));
}

/**
 * An antd rule that checks one field's own value with a schema of the contract (a list row's
 * `ip` or `port`, one line of a text area), for fields whose form shape differs from the body.
 */
export function valueRules(schema: z.ZodType): FormRule[] {
  return [
    {
      validator: async (_rule, value: unknown) => {
        const result = await schema.safeParseAsync(value ?? '');
        if (result.success) return;
        const issue = result.error.issues[0];
        if (!issue) return;
        const { key, params } = issueKey(issue, value);
        throw new Error(validationText(key, currentLocale(), params));
      },
    },
  ];
}

/**
 * The rules of a number box that fills the field at `path` of a route's body (number-bounds.ts
 * `fieldAt`: `value.workerConnections`, `conditions.count`): the contract's own field, so its
 * bounds refuse what was typed before anything is sent. An empty box is a field left out (its
 * default, or `required` where it has none).
 */
export function numberFieldRules(body: z.ZodType, path: string): FormRule[] {
  const field = fieldAt(body, path);
  if (!field) throw new Error(`the contract's body has no field ${path}`);
  return valueRules(z.preprocess((value) => (value === '' || value === null ? undefined : value), field));
}
