import { describe, expect, it } from 'vitest';
import { hasUnsafeCharacter, unsafeTextPaths } from './text.js';
import { zName, zText } from './zod.js';

describe('hasUnsafeCharacter', () => {
  it.each([
    ['a\u0000b', true],
    ['\ud800', true],
    ['x\udfff', true],
    ['\ude00\ud83d', true], // a low then a high surrogate: two unpaired halves
    ['😀', false],
    ['plain text, 中文', false],
    ['\u0001\t\n', false],
    ['', false],
  ])('%j → %s', (text, unsafe) => {
    expect(hasUnsafeCharacter(text)).toBe(unsafe);
  });
});

describe('unsafeTextPaths', () => {
  it('names nested fields, array entries and keys, and ignores other values', () => {
    const value = {
      ok: 'fine',
      n: 1,
      nested: { deep: ['a', 'b\u0000'], flag: true },
      'bad\ud800key': 'x',
      buffer: Buffer.from([0]),
    };
    expect(unsafeTextPaths(value)).toEqual(['nested.deep.1', 'bad\ufffdkey']);
  });

  it('names every path beside and after one found, deep in arrays of objects', () => {
    const value = { a: [{ b: 1 }, { c: ['x', '\u0000', 2] }, 'y\u0000'], d: { e: '\ud800', f: ['ok'] }, g: null };
    expect(unsafeTextPaths(value)).toEqual(['a.1.c.1', 'a.2', 'd.e']);
  });

  it('reads objects without Object.prototype (parsed query strings and path parameters)', () => {
    const query = Object.assign(Object.create(null), { q: '\u0000' });
    expect(unsafeTextPaths(query)).toEqual(['q']);
    expect(unsafeTextPaths('\u0000')).toEqual(['']);
  });
});

describe('text schemas refuse unsafe characters first', () => {
  it.each([zName, zText(10)])('with the invalidCharacter key', (schema) => {
    const result = schema.safeParse('a\u0000');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('invalidCharacter');
  });
});
