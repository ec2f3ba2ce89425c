import { LOCALES } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import { antdLocale } from './antd-locale';
import { changeLocale, currentLocale, i18n } from './i18n';
import { LOCALE_TAGS } from './locale-tags';
import { resources } from './resources';

const ANTD_CODES = { en_US: 'en', zh_CN: 'zh-cn', zh_TW: 'zh-tw' } as const;

describe('loading a language', () => {
  // First in this file: the setup has switched to English, and nothing else has been loaded yet.
  it('loads the language in use and no other, the fallback included', () => {
    expect(i18n.language).toBe('en_US');
    expect(i18n.hasResourceBundle('en_US', 'auth')).toBe(true);
    expect(i18n.hasResourceBundle('zh_TW', 'common')).toBe(false);
    expect(i18n.hasResourceBundle('zh_CN', 'common')).toBe(false);
    expect(antdLocale('zh_TW')).toBeUndefined();
  });

  it.each(LOCALES)('%s: its texts and antd’s are there once the switch resolves', async (locale) => {
    await changeLocale(locale);
    expect(currentLocale()).toBe(locale);
    expect(i18n.t('logIn', { ns: 'auth' })).toBe(resources[locale].auth.logIn);
    expect(i18n.t('title', { ns: 'routeError' })).toBe(resources[locale].routeError.title);
    expect(document.documentElement.lang).toBe(LOCALE_TAGS[locale]);
    expect(antdLocale(locale)?.locale).toBe(ANTD_CODES[locale]);
  });
});
