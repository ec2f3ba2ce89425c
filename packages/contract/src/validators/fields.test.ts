import { describe, expect, it } from 'vitest';
import type { ValidationResult } from '../validation-messages.js';
import {
  GENERIC_TEXT_MAX,
  TEXT_BLOCK_MAX,
  textLength,
  validateAccount,
  validateBatchName,
  validateConfirmPassword,
  validateEmail,
  validateName,
  validatePassword,
  validatePort,
  validateTextLength,
} from './fields.js';

const OK: ValidationResult = { ok: true };
const REQUIRED: ValidationResult = { ok: false, key: 'required' };
const WRONG_FORMAT: ValidationResult = { ok: false, key: 'wrongFormat' };
const EMAIL_ERROR: ValidationResult = { ok: false, key: 'emailError' };

describe('limits', () => {
  it('match the spec', () => {
    expect([TEXT_BLOCK_MAX, GENERIC_TEXT_MAX]).toEqual([5000, 256]);
  });
});

describe('validateEmail', () => {
  it.each<[string, ValidationResult]>([
    ['', REQUIRED],
    ['   ', REQUIRED],
    ['a@example.com', OK],
    ['first.last+tag@sub.example.co', OK],
    ['A_B-c@Example.COM', OK],
    ['user@münchen.de', OK],
    ['a@example', EMAIL_ERROR],
    ['a@example.c', EMAIL_ERROR],
    ['a@exa_mple.com', EMAIL_ERROR],
    ['a@_x.example.com', EMAIL_ERROR],
    ['example.com', EMAIL_ERROR],
    ['@example.com', EMAIL_ERROR],
    ['a@', EMAIL_ERROR],
    ['a@@example.com', EMAIL_ERROR],
    ['a b@example.com', EMAIL_ERROR],
    [' a@example.com', EMAIL_ERROR],
    ['a@example.com ', EMAIL_ERROR],
    ['.a@example.com', EMAIL_ERROR],
    ['a..b@example.com', EMAIL_ERROR],
    ['a.@example.com', EMAIL_ERROR],
    [`${'a'.repeat(64)}@example.com`, OK],
    [`${'a'.repeat(65)}@example.com`, EMAIL_ERROR],
    // 254 characters in all is the longest address; 255 is refused although the domain itself is valid.
    [`a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(56)}.com`, OK],
    [`a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(57)}.com`, EMAIL_ERROR],
  ])('%j → %o', (input, result) => {
    expect(validateEmail(input)).toEqual(result);
  });
});

describe('validateAccount', () => {
  it.each<[string, ValidationResult]>([
    ['', REQUIRED],
    ['  ', REQUIRED],
    ['alice', OK],
    ['Alice-01', OK],
    ['-', OK],
    ['alice bob', WRONG_FORMAT],
    [' alice', WRONG_FORMAT],
    ['alice_bob', WRONG_FORMAT],
    ['alice.bob', WRONG_FORMAT],
    ['alice@example.com', WRONG_FORMAT],
    ['émile', WRONG_FORMAT],
    ['用户', WRONG_FORMAT],
    ['a'.repeat(256), OK],
    ['a'.repeat(257), { ok: false, key: 'tooLong', params: { max: 256 } }],
  ])('%j → %o', (input, result) => {
    expect(validateAccount(input)).toEqual(result);
  });
});

describe('validatePassword', () => {
  it.each<[string, ValidationResult]>([
    ['', REQUIRED],
    ['x', OK],
    ['  spaces are fine  ', OK],
  ])('%j → %o', (input, result) => {
    expect(validatePassword(input)).toEqual(result);
  });
});

describe('validateConfirmPassword', () => {
  it.each<[string, string, ValidationResult]>([
    ['secret', '', REQUIRED],
    ['secret', 'secret', OK],
    ['secret', 'Secret', { ok: false, key: 'passwordNotMatch' }],
    ['secret', 'secret ', { ok: false, key: 'passwordNotMatch' }],
    ['', 'secret', { ok: false, key: 'passwordNotMatch' }],
  ])('%j / %j → %o', (password, confirm, result) => {
    expect(validateConfirmPassword(password, confirm)).toEqual(result);
  });
});

describe('validateName', () => {
  it.each<[string, ValidationResult]>([
    ['', REQUIRED],
    ['   ', REQUIRED],
    ['Alice', OK],
    ['Alice Bob', OK],
    ['王小明', OK],
    ['名'.repeat(256), OK],
    ['名'.repeat(257), { ok: false, key: 'tooLong', params: { max: 256 } }],
  ])('%j → %o', (input, result) => {
    expect(validateName(input)).toEqual(result);
  });
});

describe('validateBatchName', () => {
  it.each<[string, ValidationResult]>([
    ['', REQUIRED],
    ['\n \r\n', REQUIRED],
    ['alice', OK],
    ['alice\r\nbob\n\n  carol  ', OK],
    ['alice\nbob smith', { ok: false, key: 'wrongFormat', line: 2, value: 'bob smith' }],
    ['alice\n\nbob\tsmith', { ok: false, key: 'wrongFormat', line: 3, value: 'bob\tsmith' }],
    [`alice\n${'b'.repeat(257)}`, { ok: false, key: 'tooLong', line: 2, value: 'b'.repeat(257), params: { max: 256 } }],
    [`${'a\n'.repeat(2500)}b`, { ok: false, key: 'tooLong', params: { max: 5000 } }],
    ['a\n'.repeat(2500), OK],
  ])('%j → %o', (input, result) => {
    expect(validateBatchName(input)).toEqual(result);
  });
});

describe('validateTextLength', () => {
  it.each<[string, number, ValidationResult]>([
    ['', 256, OK],
    ['a'.repeat(256), 256, OK],
    ['a'.repeat(257), 256, { ok: false, key: 'tooLong', params: { max: 256 } }],
    ['x'.repeat(5000), TEXT_BLOCK_MAX, OK],
    ['x'.repeat(5001), TEXT_BLOCK_MAX, { ok: false, key: 'tooLong', params: { max: 5000 } }],
    ['😀'.repeat(256), 256, OK],
    ['😀'.repeat(257), 256, { ok: false, key: 'tooLong', params: { max: 256 } }],
  ])('%d chars (max %d) → %o', (text, max, result) => {
    expect(validateTextLength(text, max)).toEqual(result);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(['😀'.length, textLength('😀'), textLength('a😀b')]).toEqual([2, 1, 3]);
  });
});

describe('validatePort', () => {
  it.each<[string | number, ValidationResult]>([
    ['', REQUIRED],
    [' ', REQUIRED],
    ['1', OK],
    ['80', OK],
    ['65535', OK],
    [443, OK],
    ['0', { ok: false, key: 'invalidPort' }],
    ['65536', { ok: false, key: 'invalidPort' }],
    ['99999999999999999999', { ok: false, key: 'invalidPort' }],
    [0, { ok: false, key: 'invalidPort' }],
    [65536, { ok: false, key: 'invalidPort' }],
    [-1, { ok: false, key: 'invalidPort' }],
    [80.5, WRONG_FORMAT],
    ['080', WRONG_FORMAT],
    ['8o', WRONG_FORMAT],
    ['-1', WRONG_FORMAT],
    ['+80', WRONG_FORMAT],
    ['80.0', WRONG_FORMAT],
    ['1e3', WRONG_FORMAT],
    [' 80', WRONG_FORMAT],
    ['8 0', WRONG_FORMAT],
  ])('%j → %o', (input, result) => {
    expect(validatePort(input)).toEqual(result);
  });
});
