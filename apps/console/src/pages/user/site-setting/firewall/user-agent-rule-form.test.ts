import { describe, expect, it } from 'vitest';
import { NEW_USER_AGENT_RULE, userAgentRuleBody, userAgentRuleFieldOf } from './user-agent-rule-form';

describe('user-agent rule form', () => {
  it('places a field error of the add (data.0.field) and of the update (field) on its field', () => {
    expect(userAgentRuleFieldOf(['data', '0', 'userAgentRegex'])).toBe('userAgentRegex');
    expect(userAgentRuleFieldOf(['urlRegex'])).toBe('urlRegex');
    expect(userAgentRuleFieldOf(['id'])).toBeUndefined();
    expect(userAgentRuleFieldOf(['data'])).toBeUndefined();
  });

  it('trims the URL pattern but sends the User-Agent pattern as typed (a space is a character it matches)', () => {
    const values = { ...NEW_USER_AGENT_RULE, urlRegex: ' .* ', userAgentRegex: ' bot' };
    expect(userAgentRuleBody(values)).toEqual({
      urlRegex: '.*',
      userAgentRegex: ' bot',
      blockType: 10,
      enabled: true,
      memo: '',
    });
  });
});
