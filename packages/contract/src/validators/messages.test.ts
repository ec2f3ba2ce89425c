import { describe, expect, it } from 'vitest';
import { formatMessage, LOCALES } from '../locale.js';
import { isValidationKey, VALIDATION_MESSAGES, type ValidationKey } from '../validation-messages.js';
import { DOMAIN_REASONS } from './domain.js';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('VALIDATION_MESSAGES', () => {
  const required: ValidationKey[] = [
    'required',
    'wrongFormat',
    'duplicateIP',
    'max5000IPs',
    'emailError',
    'passwordNotMatch',
    'tooLong',
    'tooMany',
    'tooSmall',
    'tooBig',
    'mustBePositive',
    'notInteger',
    'invalidValue',
    'invalidIP',
    'invalidURL',
    'invalidCIDR',
    'invalidPort',
    ...DOMAIN_REASONS,
  ];

  it.each(required)('has %s', (key) => {
    expect(isValidationKey(key)).toBe(true);
  });

  it.each(Object.entries(VALIDATION_MESSAGES))('%s: every locale has text with the same placeholders', (_, texts) => {
    const expected = placeholders(texts.en_US);
    for (const locale of LOCALES) {
      expect(texts[locale].trim()).not.toBe('');
      expect(placeholders(texts[locale])).toEqual(expected);
    }
  });

  it.each<[ValidationKey, string, string]>([
    ['tooLong', 'max', 'At most 256 characters'],
    ['tooMany', 'max', 'At most 10 items'],
    ['tooSmall', 'min', 'Must be at least 256'],
  ])('%s takes {%s}', (key, name, text) => {
    const value = key === 'tooMany' ? 10 : 256;
    expect(formatMessage(VALIDATION_MESSAGES[key].en_US, { [name]: value })).toBe(text);
  });

  it.each([
    ['required', true],
    ['toString', false],
    ['nope', false],
    [42, false],
  ])('isValidationKey(%j) → %s', (value, expected) => {
    expect(isValidationKey(value)).toBe(expected);
  });
});
