import type { Locale } from '@rampart/contract';
import { enUS, type LocaleResources } from './en-us';
import { zhCN } from './zh-cn';
import { zhTW } from './zh-tw';

export type { LocaleResources } from './en-us';
export { NAMESPACES, type Namespace } from './namespaces';

/**
 * Interface texts of every locale, keyed by the contract's locale codes, loaded together (tests).
 * The console itself loads one locale at a time (`./load`).
 */
export const resources: Readonly<Record<Locale, LocaleResources>> = {
  en_US: enUS,
  zh_CN: zhCN,
  zh_TW: zhTW,
};
