import type { Locale } from '@rampart/contract';
import type { ConfigProviderProps } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import zhTW from 'antd/locale/zh_TW';

type AntdLocale = NonNullable<ConfigProviderProps['locale']>;

/** antd's own texts (pagination, pickers, empty states) for each interface language. */
export const ANTD_LOCALES: Readonly<Record<Locale, AntdLocale>> = {
  en_US: enUS,
  zh_CN: zhCN,
  zh_TW: zhTW,
};
