import type { Locale } from '@rampart/contract';

/** BCP 47 tag of each interface language, for `Accept-Language` and `<html lang>`. */
export const LOCALE_TAGS: Readonly<Record<Locale, string>> = {
  en_US: 'en-US',
  zh_CN: 'zh-CN',
  zh_TW: 'zh-TW',
};
