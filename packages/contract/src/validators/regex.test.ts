import { describe, expect, it } from 'vitest';
import { isSafeModuleRegex } from '../routes/site-modules.js';
import { pcreRegexProblem } from './regex.js';

// The full agreement with nginx's PCRE2 is tested at the edge (apps/edge/test/module-regex.test.ts);
// these cases keep the contract's own tests meaningful without nginx.
describe('pcreRegexProblem', () => {
  it.each(['^/item/(\\d+)$', '[]a]', '[\\d-z]', '[a-c-e]', '[[:alpha:]]', 'a{65535}', 'a{2}+', 'a{,3}', '}'])(
    '%s compiles',
    (source) => {
      expect(pcreRegexProblem(source)).toBeNull();
    },
  );

  it.each([
    ['[]', 'syntax'],
    ['[^]', 'syntax'],
    ['[a-\\d]', 'syntax'],
    ['a{1,100000}', 'syntax'],
    ['a{2,1}', 'syntax'],
    ['[z-a]', 'syntax'],
    ['[:alpha:]', 'syntax'],
    ['[[:foo:]]', 'syntax'],
    ['[[.a.]]', 'syntax'],
    ['^*', 'syntax'],
    ['a**', 'syntax'],
    ['(a', 'syntax'],
    ['a)', 'syntax'],
    ['a\\', 'syntax'],
    ['(?i)a', 'subset'],
    ['(*ACCEPT)', 'subset'],
    ['(a)\\1', 'subset'],
    ['\\x41', 'subset'],
  ])('%s is refused (%s)', (source, problem) => {
    expect(pcreRegexProblem(source)).toBe(problem);
    expect(isSafeModuleRegex(source)).toBe(false);
  });
});
