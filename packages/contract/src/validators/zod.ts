import { z } from 'zod';
import type { ValidationKey, ValidationResult } from '../validation-messages.js';
import { type DomainNameOptions, validateDomainName } from './domain.js';
import {
  validateAccount,
  validateBatchName,
  validateEmail,
  validateName,
  validateNewPassword,
  validatePassword,
  validatePort,
  validateTextLength,
} from './fields.js';
import {
  ipEntryProblems,
  validateBlacklistIPs,
  validateIPList,
  validateIPListText,
  validateWhitelistUrls,
} from './lists.js';
import { hasUnsafeCharacter } from './text.js';
import { type HostPortResult, normalizeCorsOrigin, normalizeRedirectTarget } from './url.js';

/**
 * Zod schemas over the validators, for route declarations. A failed rule is reported as a custom
 * issue whose `message` is the ValidationKey and whose `params` hold `{ key, ...params }` (plus
 * `line` and `value` for list entries), so the server can look up the localized text in
 * VALIDATION_MESSAGES. A value of the wrong JSON type fails the base `z.string()` instead: that
 * issue keeps zod's code `invalid_type` but its message is still a key (`required` when the value
 * is missing, else `invalid_type`).
 */

type Ctx = z.core.$RefinementCtx;

/** Adds the custom issue for a failed result; array entries get their index as the issue path. */
export function addValidationIssue(
  ctx: Ctx,
  result: Exclude<ValidationResult, { ok: true }>,
  opts: { readonly pathFromLine?: boolean } = {},
): void {
  const params: Record<string, string | number> = { key: result.key, ...result.params };
  if (result.line !== undefined) params.line = result.line;
  if (result.value !== undefined) params.value = result.value;
  ctx.addIssue({
    code: 'custom',
    message: result.key,
    params,
    input: ctx.value,
    ...(opts.pathFromLine && result.line !== undefined ? { path: [result.line - 1] } : {}),
  });
}

function baseString(missing: ValidationKey = 'required') {
  return z.string({ error: (issue) => (issue.input === undefined ? missing : 'invalid_type') });
}

const INVALID_CHARACTER: Exclude<ValidationResult, { ok: true }> = { ok: false, key: 'invalidCharacter' };

/**
 * A string schema checked by one of the validators; the value passes through unchanged. A NUL or
 * an unpaired surrogate fails first (invalidCharacter), whatever the validator would say; the
 * server's binder also refuses them in every string of a request, declared or not.
 */
export function zValidatedString(validate: (s: string) => ValidationResult) {
  return baseString().superRefine((value, ctx) => {
    const result = hasUnsafeCharacter(value) ? INVALID_CHARACTER : validate(value);
    if (!result.ok) addValidationIssue(ctx, result);
  });
}

/** A domain name (spec §5); the output is its ASCII (Punycode) form, e.g. `xn--mnchen-3ya.de`. */
export function zDomainName(opts: DomainNameOptions = {}) {
  return baseString('invalid_type').transform((value, ctx) => {
    if (hasUnsafeCharacter(value)) {
      addValidationIssue(ctx, INVALID_CHARACTER);
      return z.NEVER;
    }
    const result = validateDomainName(value, opts);
    if (result.ok) return result.ascii;
    addValidationIssue(ctx, { ok: false, key: result.reason });
    return z.NEVER;
  });
}

/** An IP list as text, one entry per line: required, no duplicates, at most 5000. */
export const zIPListText = zValidatedString(validateIPListText);

/**
 * An IP list as an array: required, no duplicates, at most 5000. Every bad entry is an issue of its
 * own, its path the entry's index, so a form (or an API client) learns all of them at once.
 */
export const zIPList = z.array(baseString()).superRefine((entries, ctx) => {
  const result = validateIPList(entries);
  if (result.ok) return;
  if (result.line === undefined) {
    addValidationIssue(ctx, result);
    return;
  }
  for (const problem of ipEntryProblems(entries.map((value, i) => ({ line: i + 1, value })))) {
    addValidationIssue(ctx, problem, { pathFromLine: true });
  }
});

/** Blacklist IPs text: IPs, ranges or CIDRs one per line; may be empty. */
export const zBlacklistIPs = zValidatedString(validateBlacklistIPs);

/** Whitelist URLs text: http(s) URLs one per line; may be empty. */
export const zWhitelistUrls = zValidatedString(validateWhitelistUrls);

/** An e-mail address; the output has its domain in ASCII (UTS #46, Punycode), as SMTP needs it. */
export const zEmail = zValidatedString(validateEmail).transform((email) => {
  const at = email.lastIndexOf('@');
  const domain = validateDomainName(email.slice(at + 1), { underscore: false });
  return domain.ok ? `${email.slice(0, at)}@${domain.ascii}` : email;
});
export const zAccount = zValidatedString(validateAccount);
export const zPassword = zValidatedString(validatePassword);
export const zNewPassword = zValidatedString(validateNewPassword);
export const zName = zValidatedString(validateName);
export const zBatchName = zValidatedString(validateBatchName);

/** A port given as a number or a decimal string; the output is the number. */
export const zPort = z
  .union([z.number(), z.string()], { error: (issue) => (issue.input === undefined ? 'required' : 'invalid_type') })
  .transform((value, ctx) => {
    const result = validatePort(value);
    if (result.ok) return Number(value);
    addValidationIssue(ctx, result);
    return z.NEVER;
  });

/** Text of at most `max` characters (tooLong); may be empty. */
export function zText(max: number) {
  return zValidatedString((s) => validateTextLength(s, max));
}

/** A memo: text of at most 256 characters, '' when left out. */
export const zMemo = zText(256).default('');

function zNormalizedUrl(normalize: (s: string) => HostPortResult) {
  return baseString().transform((value, ctx) => {
    if (hasUnsafeCharacter(value)) {
      addValidationIssue(ctx, INVALID_CHARACTER);
      return z.NEVER;
    }
    const result = normalize(value);
    if (result.ok) return result.value;
    addValidationIssue(ctx, { ok: false, key: result.key });
    return z.NEVER;
  });
}

/** A CORS origin (`*` or `http(s)://[*.]host[:port]`); the output is its canonical ASCII form. */
export const zCorsOrigin = zNormalizedUrl(normalizeCorsOrigin);

/** A redirect target (a path, or an absolute http(s) URL); the output has its host in ASCII. */
export const zRedirectTarget = zNormalizedUrl(normalizeRedirectTarget);
