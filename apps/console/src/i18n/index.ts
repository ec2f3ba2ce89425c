export { type AntdLocale, antdLocale } from './antd-locale';
export { changeLocale, currentLocale, i18n, i18nReady, loadConsoleTexts } from './i18n';
export { LOCALE_STORAGE_KEY } from './locale-storage';
export { LOCALE_TAGS } from './locale-tags';
export { useLocale } from './use-locale';
