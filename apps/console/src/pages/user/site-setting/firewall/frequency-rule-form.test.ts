import { intervalLimitInputSchema } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import {
  intervalLimitBody,
  intervalLimitFieldOf,
  NEW_INTERVAL_LIMIT,
  NEW_SECOND_LIMIT,
  secondLimitBody,
  secondLimitFieldOf,
} from './frequency-rule-form';

describe('frequency limit forms', () => {
  it('places a field error of the add (data.0.field) and of the update (field) on its field', () => {
    expect(intervalLimitFieldOf(['data', '0', 'seconds'])).toBe('seconds');
    expect(intervalLimitFieldOf(['times'])).toBe('times');
    expect(intervalLimitFieldOf(['data', '0', 'rate'])).toBeUndefined();
    expect(secondLimitFieldOf(['data', '0', 'blockSeconds'])).toBe('blockSeconds');
    expect(secondLimitFieldOf(['priority'])).toBe('priority');
    expect(secondLimitFieldOf(['id'])).toBeUndefined();
  });

  it('names every default in the body and trims the URL pattern', () => {
    expect(secondLimitBody({ ...NEW_SECOND_LIMIT, urlRegex: ' .* ', rate: 5 })).toEqual({
      urlRegex: '.*',
      rate: 5,
      burst: 0,
      blockSeconds: 0,
      priority: 0,
      blockType: 10,
      enabled: true,
      memo: '',
    });
  });

  it('makes an empty number box a number the contract refuses as missing', () => {
    const body = intervalLimitBody({ ...NEW_INTERVAL_LIMIT, urlRegex: '.*', times: 10 });
    expect(body.seconds).toBeNaN();
    const issues = intervalLimitInputSchema.safeParse(body).error?.issues ?? [];
    expect(issues.map((issue) => [issue.path.join('.'), issue.code])).toEqual([['seconds', 'invalid_type']]);
  });
});
