import {
  formatMessage,
  isValidationKey,
  type Locale,
  VALIDATION_MESSAGES,
  type ValidationKey,
} from '@rampart/contract';
import type { z } from 'zod';

type Params = Record<string, string | number>;

/** The localized text of a validation key (contract VALIDATION_MESSAGES), placeholders filled. */
export function validationText(key: ValidationKey, locale: Locale, params?: Params): string {
  return formatMessage(VALIDATION_MESSAGES[key][locale], params);
}

/**
 * The validation key of a zod issue. The contract's field schemas report the key as the issue
 * message (with `params`); plain zod checks of route bodies (`min(1)`, `max(n)`, a regex) are
 * mapped to the key a person would expect, so every form message comes from one catalogue.
 */
export function issueKey(issue: z.core.$ZodIssue, value: unknown): { key: ValidationKey; params?: Params } {
  if (isValidationKey(issue.message)) {
    return { key: issue.message, params: numericOrTextParams(issue.code === 'custom' ? issue.params : undefined) };
  }
  const empty = value === undefined || value === null || value === '';
  switch (issue.code) {
    case 'invalid_type':
      return { key: empty ? 'required' : 'invalid_type' };
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'number' || issue.origin === 'int') return { key: 'tooSmall', params: { min } };
      return { key: empty || min <= 1 ? 'required' : 'wrongFormat' };
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return { key: 'tooLong', params: { max } };
      if (issue.origin === 'array' || issue.origin === 'set') return { key: 'tooMany', params: { max } };
      return { key: 'tooBig', params: { max } };
    }
    case 'invalid_format':
      return { key: empty ? 'required' : 'wrongFormat' };
    case 'invalid_value':
    case 'invalid_union':
      return { key: empty ? 'required' : 'invalidValue' };
    default:
      return { key: 'wrongFormat' };
  }
}

function numericOrTextParams(params: Record<string, unknown> | undefined): Params | undefined {
  if (!params) return undefined;
  const out: Params = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string' || typeof value === 'number') out[name] = value;
  }
  return out;
}
