import type { Locale } from '@rampart/contract';
import type { LocaleResources } from './en-us';

/**
 * Each locale's texts as a chunk of its own, so a browser loads only the language it shows (the
 * three together were a fifth of the first load); switching languages loads the other one.
 */
export const LOAD_RESOURCES: Readonly<Record<Locale, () => Promise<LocaleResources>>> = {
  en_US: () => import('./en-us').then((m) => m.enUS),
  zh_CN: () => import('./zh-cn').then((m) => m.zhCN),
  zh_TW: () => import('./zh-tw').then((m) => m.zhTW),
};
