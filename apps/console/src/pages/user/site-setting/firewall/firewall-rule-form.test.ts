import { beforeAll, describe, expect, it } from 'vitest';
import { loadConsoleTexts } from '../../../../i18n';
import { firewallFieldOf, NEW_RULE, ruleBody } from './firewall-rule-form';

// The line's text is the console's (loaded with its shell after sign-in).
beforeAll(() => loadConsoleTexts());

describe('firewall rule form', () => {
  it('places an IP error of the add (data.0.ips.N) and of the update (ips.N) on the IPs box, naming its line', () => {
    const fieldOf = firewallFieldOf(() => '10.0.0.1\n\n  10.0.0.2\n10.0.0.2');
    for (const path of ['data.0.ips.2', 'ips.2']) {
      const place = fieldOf(path.split('.'));
      expect(place).toMatchObject({ name: 'ips' });
      const text = typeof place === 'object' && !Array.isArray(place) ? place.text('Duplicate IP') : '';
      expect(text).toBe('Line 4 (10.0.0.2): Duplicate IP');
    }
    expect(fieldOf(['data', '0', 'url'])).toBe('url');
    expect(fieldOf(['id'])).toBeUndefined();
  });

  it('sends every method and the mode only for a kind that has one', () => {
    const values = { ...NEW_RULE, ips: '10.0.0.1', url: ' .* ' };
    const methods = { get: true, post: true, put: false, delete: false, head: false, patch: false, options: false };
    expect(ruleBody({ blockType: false }, values)).toEqual({ ips: ['10.0.0.1'], url: '.*', methods, memo: '' });
    expect(ruleBody({ blockType: true }, values)).toMatchObject({ blockType: 10 });
  });
});
