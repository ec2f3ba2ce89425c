import type { Locale } from '@rampart/contract';
import type { LocaleResources } from './en-us';
import type { EntryResources } from './en-us-entry';

/**
 * Each locale's texts as chunks of their own, so a browser loads only the language it shows (the
 * three together were a fifth of the first load); switching languages loads the other one. A
 * locale comes in two parts: the few namespaces the signed-out pages show (`ENTRY_NAMESPACES`:
 * login, 404, a route's error page), loaded before the first render, and the whole console's,
 * loaded with the console's shell after sign-in (`loadConsoleTexts`).
 */
export const LOAD_ENTRY_RESOURCES: Readonly<Record<Locale, () => Promise<EntryResources>>> = {
  en_US: () => import('./en-us-entry').then((m) => m.enUSEntry),
  zh_CN: () => import('./zh-cn-entry').then((m) => m.zhCNEntry),
  zh_TW: () => import('./zh-tw-entry').then((m) => m.zhTWEntry),
};

export const LOAD_RESOURCES: Readonly<Record<Locale, () => Promise<LocaleResources>>> = {
  en_US: () => import('./en-us').then((m) => m.enUS),
  zh_CN: () => import('./zh-cn').then((m) => m.zhCN),
  zh_TW: () => import('./zh-tw').then((m) => m.zhTW),
};
