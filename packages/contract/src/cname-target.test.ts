import { describe, expect, it } from 'vitest';
import { isPlaceholderCnameTarget, PLACEHOLDER_CNAME_DOMAIN } from './routes/cname-settings.js';

describe('CNAME targets', () => {
  it('takes every name under .invalid for a placeholder, the default one among them', () => {
    expect(isPlaceholderCnameTarget(`0123456789abcdef.${PLACEHOLDER_CNAME_DOMAIN}`)).toBe(true);
    expect(isPlaceholderCnameTarget('a1.cname.example.INVALID.')).toBe(true);
    expect(isPlaceholderCnameTarget('invalid')).toBe(true);
  });

  it('takes a target under a real domain for a real one', () => {
    expect(isPlaceholderCnameTarget('0123456789abcdef.cname.example.net')).toBe(false);
    expect(isPlaceholderCnameTarget('a1.notinvalid.example')).toBe(false);
    expect(isPlaceholderCnameTarget('a1.cname.myinvalid')).toBe(false);
  });
});
