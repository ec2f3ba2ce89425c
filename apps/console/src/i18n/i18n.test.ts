import { LOCALES } from '@rampart/contract';
import { describe, expect, it } from 'vitest';
import { antdLocale } from './antd-locale';
import { changeLocale, currentLocale, i18n, loadConsoleTexts } from './i18n';
import { LOCALE_TAGS } from './locale-tags';
import { NAMESPACES, resources } from './resources';
import { ENTRY_NAMESPACES } from './resources/namespaces';

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

  it('loads only the signed-out texts before sign-in, and the console’s with its shell', async () => {
    const loaded = (locale: string) => NAMESPACES.filter((namespace) => i18n.hasResourceBundle(locale, namespace));
    expect(loaded('en_US')).toEqual([...ENTRY_NAMESPACES]);
    await loadConsoleTexts();
    expect(loaded('en_US')).toEqual(NAMESPACES);
    expect(i18n.t('menu.dashboard', { ns: 'shell' })).toBe(resources.en_US.shell.menu.dashboard);
    // From then on a language switched to comes with every namespace, not only the signed-out ones.
    await changeLocale('zh_TW');
    expect(loaded('zh_TW')).toEqual(NAMESPACES);
    await changeLocale('en_US');
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
