/**
 * The English texts of the signed-out pages (login, password, 404, a route's error page) and the
 * shared words every page uses: a chunk of their own, loaded before the first render; the rest of
 * the console's texts load with its shell after sign-in (`./load`). The shape every locale's entry
 * texts match.
 */
export const enUSEntry = {
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
    yes: 'Yes',
    no: 'No',
    cancel: 'Cancel',
    tiers: {
      user: 'User console',
      client: 'Client console',
      admin: 'Admin console',
    },
    defaultCopyright: 'Copyright © Rampart',
    actions: {
      title: 'Actions',
      edit: 'Edit',
      delete: 'Delete',
      retry: 'Retry',
      close: 'Close',
      copy: 'Copy',
      copied: 'Copied',
      copyFailed: 'The browser did not allow copying; select the text and copy it.',
    },
    list: {
      total: '{{total}} in total',
      loadFailed: 'The list could not be loaded.',
      columns: 'Columns',
      columnsTitle: 'Shown columns',
      columnsAll: 'Show all',
    },
    portTypes: {
      '7': 'Layer 7 (HTTP/HTTPS)',
      '4': 'Layer 4 (TCP/UDP)',
    },
    picker: {
      pick: 'Add selected ({{count}})',
    },
  },
  toasts: {
    created: 'Create Success!',
  },
  auth: {
    account: 'Account',
    password: 'Password',
    logIn: 'Log in',
    verifyTitle: 'Verify your sign-in',
    code: 'Verification code',
    codeHintEmail: 'Enter the 6-digit code sent to the e-mail address of {{account}}.',
    codeHintTotp: 'Enter the 6-digit code shown by your authenticator app.',
    verify: 'Verify',
    resendCode: 'Resend code',
    backToLogin: 'Back to login',
    createPasswordTitle: 'Create your password',
    createPasswordFor: 'For {{name}} ({{email}})',
    newPassword: 'New password',
    confirmPassword: 'Confirm password',
    createPassword: 'Create password',
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

export type Texts<T> = { readonly [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };

/** The entry namespaces and keys every locale provides. */
export type EntryResources = Texts<typeof enUSEntry>;
