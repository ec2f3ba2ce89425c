import { beforeAll, describe, expect, it } from 'vitest';
import { loadConsoleTexts } from '../../../../i18n';
import { blacklistRuleBody, listRuleFieldOf, NEW_LIST_RULE, whitelistRuleBody } from './list-rule-form';

// The line's text is the console's (loaded with its shell after sign-in).
beforeAll(() => loadConsoleTexts());

describe('whitelist and blacklist rule form', () => {
  it('places an IP error of the add (data.0.ips.N) and of the update (ips.N) on the IPs box, naming its line', () => {
    const fieldOf = listRuleFieldOf(() => '10.0.0.1\n\n  10.0.0.2\n10.0.0.2');
    for (const path of ['data.0.ips.2', 'ips.2']) {
      const place = fieldOf(path.split('.'));
      expect(place).toMatchObject({ name: 'ips' });
      const text = typeof place === 'object' && !Array.isArray(place) ? place.text('Duplicate IP') : '';
      expect(text).toBe('Line 4 (10.0.0.2): Duplicate IP');
    }
    expect(fieldOf(['data', '0', 'url'])).toBe('url');
    expect(fieldOf(['id'])).toBeUndefined();
  });

  it('sends every method, and the mode only in a blacklist rule', () => {
    const values = { ...NEW_LIST_RULE, ips: '10.0.0.1', url: ' .* ' };
    const methods = { get: true, post: true, put: false, delete: false, head: false, patch: false, options: false };
    expect(whitelistRuleBody(values)).toEqual({ ips: ['10.0.0.1'], url: '.*', methods, memo: '' });
    expect(blacklistRuleBody(values)).toEqual({ ips: ['10.0.0.1'], url: '.*', methods, memo: '', blockType: 10 });
  });
});
