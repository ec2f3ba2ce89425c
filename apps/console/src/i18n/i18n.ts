import { FALLBACK_LOCALE, isLocale, LOCALES, type Locale } from '@rampart/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { initialLocale, storeLocale } from './locale-storage';
import { LOCALE_TAGS } from './locale-tags';
import { NAMESPACES, resources } from './resources';

/**
 * The console's one i18next instance. Language codes are the contract's locale codes (en_US,
 * zh_CN, zh_TW), so the same value names the i18next language, the stored choice and the
 * `Localized` entry of a contract message.
 */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLocale(),
  fallbackLng: FALLBACK_LOCALE,
  supportedLngs: [...LOCALES],
  // Codes like en_US are whole languages here: no "en" fallback step, no lower-casing.
  load: 'currentOnly',
  ns: NAMESPACES,
  defaultNS: 'common',
  interpolation: { escapeValue: false }, // React escapes
  initAsync: false, // resources are bundled: t() works as soon as this module is loaded
  returnNull: false,
});

function syncDocumentLanguage(language: string): void {
  if (typeof document !== 'undefined' && isLocale(language)) document.documentElement.lang = LOCALE_TAGS[language];
}
syncDocumentLanguage(i18n.language);
i18n.on('languageChanged', syncDocumentLanguage);

/** The interface language in use now. */
export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : FALLBACK_LOCALE;
}

/** Switches the interface language and remembers the choice. */
export async function changeLocale(locale: Locale): Promise<void> {
  storeLocale(locale);
  await i18n.changeLanguage(locale);
}
