import 'i18next';
import type { LocaleResources } from './resources';

// Typed keys: t('notFound.title') and friends are checked against the English resources.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: LocaleResources;
    returnNull: false;
  }
}
