import { isLocale, type Locale, localeFromLanguageTag } from '@rampart/contract';

/** localStorage key that keeps the visitor's interface language (spec part 1 §1: stored locally). */
export const LOCALE_STORAGE_KEY = 'rampart.locale';

/** The stored choice, or undefined when there is none (or storage is unavailable, e.g. blocked cookies). */
export function readStoredLocale(): Locale | undefined {
  try {
    const value = globalThis.localStorage?.getItem(LOCALE_STORAGE_KEY);
    return isLocale(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function storeLocale(locale: Locale): void {
  try {
    globalThis.localStorage?.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Storage can be full or forbidden; the choice then lasts for this page only.
  }
}

/**
 * The language to start with: the stored choice, else the browser's preference. All of
 * `navigator.languages` is consulted (first en/zh entry wins) so that, e.g., "fr, en" gets English
 * rather than the zh_TW fallback.
 */
export function initialLocale(): Locale {
  const stored = readStoredLocale();
  if (stored) return stored;
  const nav = globalThis.navigator;
  const tags = nav?.languages?.length ? nav.languages.join(',') : nav?.language;
  return localeFromLanguageTag(tags);
}
