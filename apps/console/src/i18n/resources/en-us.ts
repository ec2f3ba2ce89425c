/**
 * English interface texts, one namespace per feature. This object defines the shape every other
 * locale must match (the type below, plus the parity test in `resources.test.ts`).
 */
export const enUS = {
  common: {
    productName: 'Rampart',
    language: 'Language',
    languageNames: {
      en_US: 'English',
      zh_CN: '简体中文',
      zh_TW: '繁體中文',
    },
    backHome: 'Back home',
    reload: 'Reload',
  },
  home: {
    description: 'Self-hosted CDN, DDoS protection and web application firewall.',
    apiDocs: 'API documentation',
  },
  notFound: {
    title: 'Page not found',
    subTitle: 'Sorry, the page you visited does not exist.',
  },
  routeError: {
    title: 'Something went wrong',
    subTitle: 'This page could not be loaded. Reload to try again.',
  },
};

type Texts<T> = { readonly [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };

/** The namespaces and keys every locale provides. */
export type LocaleResources = Texts<typeof enUS>;
