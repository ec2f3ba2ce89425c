import { authRoutes, zNewPassword } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueKey, validationText } from './validation-text';

function firstIssue(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected a failure');
  const issue = result.error.issues[0];
  if (!issue) throw new Error('no issue');
  return issueKey(issue, value);
}

describe('form messages from zod issues', () => {
  it('takes the key and parameters the contract’s field schemas report', () => {
    expect(firstIssue(zNewPassword, 'short')).toEqual({
      key: 'passwordTooShort',
      params: { key: 'passwordTooShort', min: 8 },
    });
    const confirm = authRoutes.changePassword.request.body.safeParse({
      oldPassword: 'a',
      password: 'a long passphrase',
      confirmPassword: 'other',
    });
    const issue = confirm.error?.issues.find((i) => i.path[0] === 'confirmPassword');
    expect(issue && issueKey(issue, 'other').key).toBe('passwordNotMatch');
  });

  it('maps plain zod checks of route bodies to catalogue keys', () => {
    expect(firstIssue(z.string().min(1), '')).toEqual({ key: 'required' });
    expect(firstIssue(z.string(), undefined)).toEqual({ key: 'required' });
    expect(firstIssue(z.string().max(256), 'x'.repeat(257))).toEqual({ key: 'tooLong', params: { max: 256 } });
    expect(firstIssue(z.string().regex(/^\d{6}$/), '12a')).toEqual({ key: 'wrongFormat' });
    expect(firstIssue(z.string().regex(/^\d{6}$/), '')).toEqual({ key: 'required' });
    expect(firstIssue(z.number().min(3), 1)).toEqual({ key: 'tooSmall', params: { min: 3 } });
  });

  it('fills the placeholders of the localized text', () => {
    expect(validationText('passwordTooShort', 'en_US', { min: 8 })).toBe('The password needs at least 8 characters');
    expect(validationText('tooLong', 'zh_TW', { max: 256 })).toBe('最多 256 個字元');
  });
});
