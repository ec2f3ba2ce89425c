/**
 * English interface texts, one namespace per feature. This object defines the shape every other
 * locale must match (the type below, plus the parity test in `resources.test.ts`). Toasts and
 * validation messages are not here: they come from the contract (TOASTS, VALIDATION_MESSAGES).
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
    yes: 'Yes',
    no: 'No',
    cancel: 'Cancel',
    tiers: {
      user: 'User console',
      client: 'Client console',
      admin: 'Admin console',
    },
    defaultCopyright: 'Copyright © Rampart',
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
  shell: {
    menu: {
      dashboard: 'Dashboard',
      userManagement: 'User management',
      userInformation: 'User information',
      twoFactor: 'Two-factor authentication',
      changePassword: 'Change password',
    },
    navigation: 'Navigation',
    accountMenu: 'Account menu',
    logout: 'Log out',
  },
  account: {
    summary: {
      title: 'Account summary',
      account: 'Account',
      name: 'Name',
      email: 'E-mail',
      console: 'Console',
      status: 'Status',
      root: 'Root account',
      secondFactor: 'Second factor',
      createdAt: 'Created at',
    },
    twoFactorTypes: {
      none: 'None',
      email: 'E-mail code',
      auto: 'Automatic',
      totp: 'Authenticator app',
    },
    changePassword: {
      oldPassword: 'Current password',
      newPassword: 'New password',
      confirmPassword: 'Confirm new password',
      hint: 'Your other sessions are signed out when the password changes.',
      submit: 'Change password',
    },
    userInformation: {
      account: 'Account',
      name: 'Name',
      email: 'E-mail',
      password: 'Current password',
      passwordHint: 'Needed because the e-mail address changes.',
      save: 'Save',
    },
    twoFactor: {
      current: 'Current second factor:',
      choose: 'New second factor',
      password: 'Current password',
      passwordHint: 'Confirm your password to change the second factor.',
      next: 'Continue',
      scan: 'Scan the QR code with your authenticator app, or add this setup URI to it.',
      qrAlt: 'QR code of the authenticator setup',
      setupUri: 'Setup URI',
      code: 'Code from the app',
      confirm: 'Confirm',
    },
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
