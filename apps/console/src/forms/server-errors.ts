import { type FieldError, isValidationKey } from '@rampart/contract';
import type { FormInstance, FormItemProps } from 'antd';
import { ApiError } from '../api/client';
import { parameterErrorFields } from '../api/errors';
import { currentLocale } from '../i18n/i18n';
import { validationText } from './validation-text';

type NamePath = NonNullable<FormItemProps['name']>;

/** The per-field errors of a 101003 reply (`extra.fields`); empty for any other failure. */
export function fieldErrorsOf(error: unknown): FieldError[] {
  if (!(error instanceof ApiError) || error.code !== 101003) return [];
  return parameterErrorFields(error.extra);
}

/**
 * Where a server field error goes in a form: the field, or the field with the text shown there
 * made from the server's (what the form knows about the entry at fault: a list's line and value).
 */
export type FieldPlace = NamePath | { name: NamePath; text: (message: string) => string };

/** Where a server field path (split on dots) goes in a form; undefined when the form does not show it. */
export type FieldNameOf = (path: readonly string[]) => FieldPlace | undefined;

/**
 * The fields of a form: the names it shows (a server path lands on its first segment), or a
 * function for forms whose names differ from the body (lists, fields the form builds the body from).
 */
export type FieldNames = readonly string[] | FieldNameOf;

/**
 * For forms with list fields (antd Form.List): a path whose first segment is one of `fields` lands
 * on its whole path, indexes as numbers (`upstreams.1.ip` → `['upstreams', 1, 'ip']`).
 */
export function nestedFieldNames(fields: readonly string[]): FieldNameOf {
  return (path) =>
    fields.includes(path[0] ?? '') ? path.map((part) => (/^\d+$/.test(part) ? Number(part) : part)) : undefined;
}

/**
 * Shows each field error of a 101003 reply under its form field (by default the first segment of
 * its dotted path names the field; `fields` are the names the form shows, or a function that
 * places a path). The server's message is already in the reader's language; the key's catalogue
 * text stands in when it is empty. Returns false when the failure is not a 101003 or names a
 * field the form does not have, so the caller shows it another way.
 */
export function applyFieldErrors(form: FormInstance, error: unknown, fields: FieldNames): boolean {
  const errors = fieldErrorsOf(error);
  if (errors.length === 0) return false;
  const nameOf: FieldNameOf = typeof fields === 'function' ? fields : firstSegmentOf(fields);
  const byField = new Map<string, { name: NamePath; texts: string[] }>();
  for (const entry of errors) {
    const place = entry.in === 'body' ? nameOf(entry.field.split('.')) : undefined;
    if (place === undefined) return false;
    const { name, text: describe } = isDescribed(place) ? place : { name: place, text: undefined };
    const message = entry.message || (isValidationKey(entry.key) ? validationText(entry.key, currentLocale()) : '');
    const text = describe ? describe(message) : message;
    const key = JSON.stringify(name);
    const slot = byField.get(key) ?? { name, texts: [] };
    slot.texts.push(text);
    byField.set(key, slot);
  }
  form.setFields([...byField.values()].map(({ name, texts }) => ({ name, errors: texts })));
  return true;
}

function isDescribed(place: FieldPlace): place is Extract<FieldPlace, { text: unknown }> {
  return typeof place === 'object' && !Array.isArray(place);
}

function firstSegmentOf(fields: readonly string[]): FieldNameOf {
  const shown = new Set(fields);
  return (path) => {
    const name = path[0] ?? '';
    return shown.has(name) ? name : undefined;
  };
}
