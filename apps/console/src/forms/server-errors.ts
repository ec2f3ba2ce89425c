import { type FieldError, fieldErrorSchema, isValidationKey } from '@rampart/contract';
import type { FormInstance } from 'antd';
import { z } from 'zod';
import { ApiError } from '../api/client';
import { currentLocale } from '../i18n/i18n';
import { validationText } from './validation-text';

const parameterErrorExtra = z.object({ fields: z.array(fieldErrorSchema) });

/** The per-field errors of a 101003 reply (`extra.fields`); empty for any other failure. */
export function fieldErrorsOf(error: unknown): FieldError[] {
  if (!(error instanceof ApiError) || error.code !== 101003) return [];
  const parsed = parameterErrorExtra.safeParse(error.extra);
  return parsed.success ? parsed.data.fields : [];
}

/**
 * Shows each field error of a 101003 reply under its form field (the first segment of its dotted
 * path names the field; `fields` are the names the form shows). The server's message is already in the reader's language; the key's
 * catalogue text stands in when it is empty. Returns false when the failure is not a 101003 or
 * names a field the form does not have, so the caller shows it another way.
 */
export function applyFieldErrors(form: FormInstance, error: unknown, fields: readonly string[]): boolean {
  const errors = fieldErrorsOf(error);
  if (errors.length === 0) return false;
  const shown = new Set(fields);
  const byField = new Map<string, string[]>();
  for (const entry of errors) {
    const name = entry.field.split('.')[0] ?? '';
    if (entry.in !== 'body' || !shown.has(name)) return false;
    const text = entry.message || (isValidationKey(entry.key) ? validationText(entry.key, currentLocale()) : '');
    byField.set(name, [...(byField.get(name) ?? []), text]);
  }
  form.setFields([...byField].map(([name, texts]) => ({ name, errors: texts })));
  return true;
}
