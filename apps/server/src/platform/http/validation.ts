import { type FieldError, VALIDATION_MESSAGES, type ValidationKey } from '@rampart/contract';
import type { z } from 'zod';
import { AppError } from '../errors/app-error.js';

type Part = FieldError['in'];

/**
 * A field refused by a schema or a service, before it is put in words: the error handler writes
 * its `message` in the caller's language (platform/errors/error-handler.ts), so nothing below the
 * HTTP edge needs to know the language.
 */
export interface FieldIssue {
  readonly in: Part;
  readonly field: string;
  readonly key: ValidationKey;
  readonly params?: Readonly<Record<string, string | number>>;
}

function isValidationKey(key: unknown): key is ValidationKey {
  return typeof key === 'string' && Object.hasOwn(VALIDATION_MESSAGES, key);
}

/**
 * Maps a zod issue to a message key of the contract. Validators of the contract put their key in
 * `params.key`; zod's own issues are mapped by kind so the console can show the same text.
 */
function keyOf(
  issue: z.core.$ZodIssue,
  input: unknown,
): { key: ValidationKey; params: Record<string, string | number> } {
  const params: Record<string, string | number> = {};
  if (issue.code === 'custom') {
    const custom = (issue.params ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(custom)) {
      if (typeof value === 'string' || typeof value === 'number') params[name] = value;
    }
    const key = custom.key ?? issue.message;
    return { key: isValidationKey(key) ? key : 'wrongFormat', params };
  }
  switch (issue.code) {
    case 'invalid_type':
      return { key: input === undefined ? 'required' : 'wrongFormat', params };
    case 'too_big':
      params.max = Number(issue.maximum);
      return { key: issue.origin === 'string' ? 'tooLong' : issue.origin === 'array' ? 'tooMany' : 'tooBig', params };
    case 'too_small':
      params.min = Number(issue.minimum);
      if ((issue.origin === 'string' || issue.origin === 'array') && Number(issue.minimum) <= 1) {
        return { key: 'required', params };
      }
      return { key: 'tooSmall', params };
    case 'invalid_value':
      return { key: 'invalidValue', params };
    case 'unrecognized_keys':
      return { key: 'invalidValue', params };
    default:
      return { key: 'wrongFormat', params };
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

/** Turns a failed parse into the field issues of a 101003 reply. */
export function fieldErrors(part: Part, error: z.ZodError, input: unknown): FieldIssue[] {
  return error.issues.map((issue) => {
    const { key, params } = keyOf(issue, valueAt(input, issue.path));
    return { in: part, field: issue.path.map(String).join('.'), key, params };
  });
}

/** The field issues for strings holding a NUL or an unpaired surrogate (contract `unsafeTextPaths`). */
export function invalidCharacterErrors(part: Part, paths: readonly string[]): FieldIssue[] {
  return paths.map((field) => ({ in: part, field, key: 'invalidCharacter' }));
}

type FieldInput = { field: string; key: ValidationKey; in?: Part; params?: Record<string, string | number> };

/**
 * A 101003 raised by a service for fields the schema could not judge (a wrong current password, a
 * wrong code). The service names the message key; the error handler words it for the caller.
 */
export function invalidFields(fields: readonly FieldInput[]): AppError {
  return new AppError(101003, {
    fields: fields.map((f) => ({ in: f.in ?? 'body', field: f.field, key: f.key, params: f.params })),
  });
}
