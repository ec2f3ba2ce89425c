import { LOCALES } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import { antdLocale } from './antd-locale';
import { changeLocale, currentLocale, i18n } from './i18n';
import { LOCALE_TAGS } from './locale-tags';
import { resources } from './resources';

const ANTD_CODES = { en_US: 'en', zh_CN: 'zh-cn', zh_TW: 'zh-tw' } as const;

describe('loading a language', () => {
  it.each(LOCALES)('%s: its texts and antd’s are there once the switch resolves', async (locale) => {
    await changeLocale(locale);
    expect(currentLocale()).toBe(locale);
    expect(i18n.t('logIn', { ns: 'auth' })).toBe(resources[locale].auth.logIn);
    expect(i18n.t('title', { ns: 'routeError' })).toBe(resources[locale].routeError.title);
    expect(document.documentElement.lang).toBe(LOCALE_TAGS[locale]);
    expect(antdLocale(locale)?.locale).toBe(ANTD_CODES[locale]);
  });
});
