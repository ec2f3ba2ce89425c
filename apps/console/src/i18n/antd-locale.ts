import type { Locale } from '@rampart/contract';
import type { ConfigProviderProps } from 'antd';

export type AntdLocale = NonNullable<ConfigProviderProps['locale']>;

/**
 * antd's own texts (pagination, pickers, empty states) for each interface language, each a chunk
 * of its own loaded with the language's interface texts. The ES modules (antd/es), not
 * `antd/locale/*`, which are CommonJS and bring a second copy of antd's locale files.
 */
const LOAD_ANTD_LOCALE: Readonly<Record<Locale, () => Promise<AntdLocale>>> = {
  en_US: () => import('antd/es/locale/en_US').then((m) => m.default),
  zh_CN: () => import('antd/es/locale/zh_CN').then((m) => m.default),
  zh_TW: () => import('antd/es/locale/zh_TW').then((m) => m.default),
};

const loaded = new Map<Locale, AntdLocale>();

export async function loadAntdLocale(locale: Locale): Promise<void> {
  if (!loaded.has(locale)) loaded.set(locale, await LOAD_ANTD_LOCALE[locale]());
}

/** antd's texts for `locale` once loaded (the interface switches language only after loading them). */
export function antdLocale(locale: Locale): AntdLocale | undefined {
  return loaded.get(locale);
}
