import { describe, expect, it } from 'vitest';
import { zId, zIdParam, zIds } from './ids.js';

describe('id schemas', () => {
  it('takes positive whole numbers, from a path as text', () => {
    expect(zId.safeParse(7).success).toBe(true);
    for (const bad of [0, -1, 1.5, '7']) expect(zId.safeParse(bad).success).toBe(false);
    expect(zIdParam.parse('12')).toBe(12);
    expect(zIdParam.safeParse('0').success).toBe(false);
  });

  it('names each id of a list once, counting the limit on what was sent', () => {
    expect(zIds(4).parse([5, 2, 5, 2])).toEqual([5, 2]);
    expect(zIds(4).parse([5, 5, 5, 5])).toEqual([5]);
    expect(zIds(3).safeParse([1, 1, 1, 1]).success).toBe(false);
    expect(zIds(3).safeParse([]).success).toBe(false);
    expect(zIds(3, 0).parse([])).toEqual([]);
    expect(zIds(3).safeParse([1, 0]).success).toBe(false);
  });
});
