import { describe, expect, it } from 'vitest';
import * as contract from './index.js';
import { latinWordsIn, textLeaves, untranslatedWords } from './testing/untranslated.js';

describe('Chinese texts of the contract', () => {
  // Every Localized text the contract exports (toasts, validation messages, the error catalogue,
  // labels, permission names, line names...): the zh_CN and zh_TW entries of each.
  const chinese = textLeaves(contract).filter(([path]) => /\.zh_(CN|TW)$/.test(path));

  it('finds the localized texts', () => {
    expect(chinese.some(([path]) => path.startsWith('TOASTS.'))).toBe(true);
    expect(chinese.some(([path]) => path.startsWith('VALIDATION_MESSAGES.'))).toBe(true);
    expect(chinese.some(([path]) => path.startsWith('ERROR_CATALOGUE.'))).toBe(true);
  });

  it('hold no English word beyond names, formats and acronyms', () => {
    expect(untranslatedWords(chinese)).toEqual([]);
  });
});

describe('latinWordsIn', () => {
  it('reports English words and leaves allowed ones, placeholders, markup and literals out', () => {
    expect(latinWordsIn('自定义 Header')).toEqual(['Header']);
    expect(latinWordsIn('web (default)')).toEqual(['web', 'default']);
    expect(latinWordsIn('清除 URL 缓存：{{count}} 个，$t(common:yes)，<0>{{name}}</0>，<b>HTTP/2</b>')).toEqual([]);
    expect(latinWordsIn('该账号仍有 {count} 个站点')).toEqual([]);
    expect(latinWordsIn('以 https://app.example.com、*.example.com 或 /downloads/*.iso 开头')).toEqual([]);
    expect(latinWordsIn('按原样以 text/html; charset=utf-8 发送，Cache-Control 优先')).toEqual([]);
    expect(latinWordsIn('a 1 x2 2FA IPv6')).toEqual(['2FA']);
    expect(latinWordsIn('操作符 $ne、$where 与 __schema、_type，而非 schema')).toEqual(['schema']);
  });
});
