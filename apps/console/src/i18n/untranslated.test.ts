import * as contract from '@rampart/contract';
import { LATIN_WORDS_ALLOWED, latinWords, textLeaves, untranslatedWords } from '@rampart/contract/testing';
import { describe, expect, it } from 'vitest';
import { resources } from './resources';

const CHINESE = ['zh_CN', 'zh_TW'] as const;

describe('Chinese interface texts', () => {
  it.each(CHINESE)('%s holds no English word beyond names, formats and acronyms', (locale) => {
    expect(untranslatedWords(textLeaves(resources[locale]))).toEqual([]);
  });

  it('allow only Latin words that some Chinese text of the console or the contract uses', () => {
    const texts = [
      ...CHINESE.flatMap((locale) => textLeaves(resources[locale])),
      ...textLeaves(contract).filter(([path]) => /\.zh_(CN|TW)$/.test(path)),
    ];
    const used = new Set(texts.flatMap(([, text]) => latinWords(text)));
    expect(Object.keys(LATIN_WORDS_ALLOWED).filter((word) => !used.has(word))).toEqual([]);
  });
});
