import { FALLBACK_LOCALE, isLocale, LOCALES, type Locale } from '@rampart/contract';
import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { loadAntdLocale } from './antd-locale';
import { initialLocale, storeLocale } from './locale-storage';
import { LOCALE_TAGS } from './locale-tags';
import { LOAD_ENTRY_RESOURCES, LOAD_RESOURCES } from './resources/load';
import { ENTRY_NAMESPACES, isEntryNamespace, NAMESPACES } from './resources/namespaces';

type Chunk = Promise<Readonly<Record<string, object>>>;

/** Loads a chunk once; a failed load (a chunk that did not arrive) is tried again on the next read. */
function once<K>(load: (key: K) => Chunk): (key: K) => Chunk {
  const loads = new Map<K, Chunk>();
  return (key) => {
    let chunk = loads.get(key);
    if (!chunk) {
      chunk = load(key);
      chunk.catch(() => loads.delete(key));
      loads.set(key, chunk);
    }
    return chunk;
  };
}

/** A locale's signed-out texts together with antd's, both before the language is shown. */
const loadEntry = once((locale: Locale) =>
  Promise.all([LOAD_ENTRY_RESOURCES[locale](), loadAntdLocale(locale)]).then(([texts]) => texts),
);
/** A locale's texts of every namespace (the console's, after sign-in). */
const loadAll = once((locale: Locale) => LOAD_RESOURCES[locale]());

/**
 * i18next reads a namespace through this backend when a language or a namespace is first used:
 * the signed-out namespaces from the locale's small entry chunk, the others from its whole chunk,
 * each chunk loaded once.
 */
const localeChunks: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    if (!isLocale(language)) {
      callback(new Error(`no interface texts for ${language}`), false);
      return;
    }
    (isEntryNamespace(namespace) ? loadEntry : loadAll)(language).then(
      (texts) => callback(null, (texts as Record<string, object>)[namespace] ?? {}),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/**
 * The console's one i18next instance. Language codes are the contract's locale codes (en_US,
 * zh_CN, zh_TW), so the same value names the i18next language, the stored choice and the
 * `Localized` entry of a contract message.
 */
export const i18n = i18next.createInstance();

/**
 * Settles when the first language's texts are loaded: main.tsx renders after it, so no text is
 * drawn before it can be translated. Every locale has every key (resources.test.ts), so only the
 * language in use is loaded, never the fallback as well.
 */
export const i18nReady: Promise<unknown> = i18n
  .use(localeChunks)
  .use(initReactI18next)
  .init({
    lng: initialLocale(),
    // No fallback language: i18next would load its texts as well, and every locale has every key.
    fallbackLng: false,
    supportedLngs: [...LOCALES],
    // Codes like en_US are whole languages here: no "en" fallback step, no lower-casing.
    load: 'currentOnly',
    // Only what a signed-out page shows; the rest comes with the console's shell (loadConsoleTexts).
    ns: [...ENTRY_NAMESPACES],
    defaultNS: 'common',
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
  });

function syncDocumentLanguage(language: string): void {
  if (typeof document !== 'undefined' && isLocale(language)) document.documentElement.lang = LOCALE_TAGS[language];
}
syncDocumentLanguage(i18n.language);
i18n.on('languageChanged', syncDocumentLanguage);

/**
 * Loads the texts of every namespace in the language in use (and, from then on, in every language
 * switched to). The console's shell waits for it before it renders, so a page never shows a key.
 */
export function loadConsoleTexts(): Promise<void> {
  return i18n.loadNamespaces(NAMESPACES);
}

/** The interface language in use now. */
export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : FALLBACK_LOCALE;
}

/** Switches the interface language (loading its texts first) and remembers the choice. */
export async function changeLocale(locale: Locale): Promise<void> {
  storeLocale(locale);
  await i18n.changeLanguage(locale);
}
