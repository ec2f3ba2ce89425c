/** Interface languages of the consoles (spec part 1 §1). zh_TW is the fallback. */
export const LOCALES = ['en_US', 'zh_CN', 'zh_TW'] as const;
export type Locale = (typeof LOCALES)[number];
export const FALLBACK_LOCALE: Locale = 'zh_TW';
/** Text in every interface language. */
export type Localized = Readonly<Record<Locale, string>>;

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * Picks the best interface language for a BCP 47 tag or Accept-Language header:
 * zh-TW / zh-HK / zh-Hant → zh_TW, other zh → zh_CN, en → en_US, anything else → `fallback`.
 */
export function localeFromLanguageTag(tag: string | null | undefined, fallback: Locale = FALLBACK_LOCALE): Locale {
  if (!tag) return fallback;
  for (const part of tag.split(',')) {
    const lang = part.split(';')[0]?.trim().toLowerCase().replace(/_/g, '-') ?? '';
    if (lang === '' || lang === '*') continue;
    if (lang.startsWith('zh')) {
      return /^zh-(tw|hk|mo|hant)/.test(lang) ? 'zh_TW' : 'zh_CN';
    }
    if (lang.startsWith('en')) return 'en_US';
  }
  return fallback;
}

/** Replaces `{name}` placeholders in a message. Unknown placeholders are left as they are. */
export function formatMessage(template: string, params?: Readonly<Record<string, string | number>>): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}
