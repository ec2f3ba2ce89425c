import type { Locale } from '@rampart/contract';
import { enUS, type LocaleResources } from './en-us';
import { zhCN } from './zh-cn';
import { zhTW } from './zh-tw';

export type { LocaleResources } from './en-us';

/** Interface texts of every locale, keyed by the contract's locale codes. */
export const resources: Readonly<Record<Locale, LocaleResources>> = {
  en_US: enUS,
  zh_CN: zhCN,
  zh_TW: zhTW,
};

export type Namespace = keyof LocaleResources;
export const NAMESPACES = Object.keys(enUS) as Namespace[];
