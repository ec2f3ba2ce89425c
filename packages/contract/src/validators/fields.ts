import { GENERIC_TEXT_MAX, TEXT_BLOCK_MAX } from '../constants.js';
import type { ValidationResult } from '../validation-messages.js';
import { validateDomainName } from './domain.js';
import { numberedLines } from './lists.js';

// Spec part 1 §5 / §9: a text block holds up to 5000 characters, other text fields 256. The values
// live in constants.ts; they are re-exported here because they are this module's limits.
export { GENERIC_TEXT_MAX, TEXT_BLOCK_MAX };

/** Longest e-mail address that fits the SMTP path (RFC 5321: 254 octets, local part 64). */
const EMAIL_MAX = 254;
const EMAIL_LOCAL_MAX = 64;

const OK: ValidationResult = { ok: true };
const REQUIRED: ValidationResult = { ok: false, key: 'required' };
const WRONG_FORMAT: ValidationResult = { ok: false, key: 'wrongFormat' };

/** Whitespace-only counts as empty: a form field holding just spaces has not been filled in. */
function isBlank(s: string): boolean {
  return s.trim() === '';
}

/** Length in characters (Unicode code points), so an emoji or a rare CJK character counts once. */
export function textLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** At most `max` characters (tooLong with `{max}`). Emptiness is not checked here. */
export function validateTextLength(text: string, max: number): ValidationResult {
  return textLength(text) > max ? { ok: false, key: 'tooLong', params: { max } } : OK;
}

// Dot-atom local part (RFC 5322 without quoted strings or comments, which forms never need).
const EMAIL_LOCAL_RE = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i;

/** Required, then `local@domain` with a dot-atom local part and a valid domain name (emailError). */
export function validateEmail(s: string): ValidationResult {
  if (isBlank(s)) return REQUIRED;
  const bad: ValidationResult = { ok: false, key: 'emailError' };
  const at = s.lastIndexOf('@');
  if (at < 0 || s.length > EMAIL_MAX) return bad;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  if (local.length > EMAIL_LOCAL_MAX || !EMAIL_LOCAL_RE.test(local)) return bad;
  // Surrounding spaces are refused rather than trimmed away (the domain check itself trims).
  if (domain !== domain.trim()) return bad;
  return validateDomainName(domain, { underscore: false }).ok ? OK : bad;
}

const ACCOUNT_RE = /^[A-Za-z0-9-]+$/;

/** Required; ASCII letters, digits and hyphen only (wrongFormat); at most {@link GENERIC_TEXT_MAX}. */
export function validateAccount(s: string): ValidationResult {
  if (isBlank(s)) return REQUIRED;
  if (!ACCOUNT_RE.test(s)) return WRONG_FORMAT;
  return validateTextLength(s, GENERIC_TEXT_MAX);
}

/** Required only: password strength rules are not part of the spec. */
export function validatePassword(s: string): ValidationResult {
  return s === '' ? REQUIRED : OK;
}

/** Shortest password a new one may be (ASVS 5.0 V6.2.1). */
export const PASSWORD_MIN = 8;
/** Longest password accepted; long enough for any passphrase, and never truncated. */
export const PASSWORD_MAX = 256;

/**
 * A password being set (registration, change, reset): {@link PASSWORD_MIN} to {@link PASSWORD_MAX}
 * characters and no composition rules (a 15-character passphrase of lower-case words is fine).
 * The server also refuses the most common passwords (passwordTooCommon).
 */
export function validateNewPassword(s: string): ValidationResult {
  if (s === '') return REQUIRED;
  if (textLength(s) < PASSWORD_MIN) return { ok: false, key: 'passwordTooShort', params: { min: PASSWORD_MIN } };
  return validateTextLength(s, PASSWORD_MAX);
}

/** Required, and equal to the password (passwordNotMatch). */
export function validateConfirmPassword(password: string, confirm: string): ValidationResult {
  if (confirm === '') return REQUIRED;
  return confirm === password ? OK : { ok: false, key: 'passwordNotMatch' };
}

/** Required; spaces are allowed in a display name. At most {@link GENERIC_TEXT_MAX}. */
export function validateName(s: string): ValidationResult {
  if (isBlank(s)) return REQUIRED;
  return validateTextLength(s, GENERIC_TEXT_MAX);
}

/**
 * Batch names (one item per line): required, the whole text at most {@link TEXT_BLOCK_MAX}, and
 * each line a single item with no whitespace inside (wrongFormat, with the 1-based line number).
 * Each item is also held to {@link GENERIC_TEXT_MAX}.
 */
export function validateBatchName(text: string): ValidationResult {
  const lines = numberedLines(text);
  if (lines.length === 0) return REQUIRED;
  const length = validateTextLength(text, TEXT_BLOCK_MAX);
  if (!length.ok) return length;
  for (const { line, value } of lines) {
    if (/\s/.test(value)) return { ok: false, key: 'wrongFormat', line, value };
    if (textLength(value) > GENERIC_TEXT_MAX) {
      return { ok: false, key: 'tooLong', line, value, params: { max: GENERIC_TEXT_MAX } };
    }
  }
  return OK;
}

/** The range of a TCP/UDP port. */
export const PORT_MIN = 1;
export const PORT_MAX = 65535;

/**
 * A TCP/UDP port: required, decimal digits without a leading zero (wrongFormat), 1–65535
 * (invalidPort). Numbers are accepted too, as JSON bodies carry them.
 */
export function validatePort(s: string | number): ValidationResult {
  if (typeof s === 'number') {
    if (!Number.isInteger(s)) return WRONG_FORMAT;
    return s >= PORT_MIN && s <= PORT_MAX ? OK : { ok: false, key: 'invalidPort' };
  }
  if (isBlank(s)) return REQUIRED;
  if (!/^(?:0|[1-9]\d*)$/.test(s)) return WRONG_FORMAT;
  const port = Number(s);
  return port >= PORT_MIN && port <= PORT_MAX ? OK : { ok: false, key: 'invalidPort' };
}
