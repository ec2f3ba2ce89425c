import type { Tier } from '@rampart/contract';
import { type RouteObject, redirect } from 'react-router';
import { NoScreen } from '../components/NoScreen';
import { loadConsoleTexts } from '../i18n';
import { ACCOUNTS_PATHS, CONSOLE_PATHS, consolePath } from './console-paths';
import { lazyPage } from './lazy-page';
import {
  createPasswordGuard,
  guestOnly,
  sessionLoader,
  switchUserLoader,
  verifyAccountGuard,
  verifyMailLoader,
} from './route-guards';
import type { ConsoleHandle } from './tier-context';

/** A page of a console behind its session: the spec's route name (spec part 1 §2), its path and its code. */
export interface ConsolePage {
  readonly name: string;
  readonly path: string;
  readonly lazy: RouteObject['lazy'];
}

/** The account pages every console has (dashboard, changePassword, userManagement/{userInformation,twoFactor}). */
export const ACCOUNT_PAGES: readonly ConsolePage[] = [
  {
    name: 'dashboard',
    path: CONSOLE_PATHS.dashboard,
    lazy: lazyPage(
      () => import('../pages/account/DashboardPage'),
      (m) => m.DashboardPage,
    ),
  },
  {
    name: 'changePassword',
    path: CONSOLE_PATHS.changePassword,
    lazy: lazyPage(
      () => import('../pages/account/ChangePasswordPage'),
      (m) => m.ChangePasswordPage,
    ),
  },
  {
    name: 'userInformation',
    path: CONSOLE_PATHS.userInformation,
    lazy: lazyPage(
      () => import('../pages/account/UserInformationPage'),
      (m) => m.UserInformationPage,
    ),
  },
  {
    name: 'logOperation',
    path: CONSOLE_PATHS.logOperation,
    lazy: lazyPage(
      () => import('../pages/account/LogOperationPage'),
      (m) => m.LogOperationPage,
    ),
  },
  {
    name: 'twoFactor',
    path: CONSOLE_PATHS.twoFactor,
    lazy: lazyPage(
      () => import('../pages/account/two-factor/TwoFactorPage'),
      (m) => m.TwoFactorPage,
    ),
  },
];

/** The account management page of a console (`users`, or `usersList` in the user console). */
export function accountsPage(tier: Tier): ConsolePage {
  return {
    name: tier === 'user' ? 'usersList' : 'users',
    path: ACCOUNTS_PATHS[tier],
    lazy: lazyPage(
      () => import('../pages/account/accounts/AccountsPage'),
      (m) => m.AccountsPage,
    ),
  };
}

/** userManagement/roles and userManagement/apiTokenSetting (the user and client consoles). */
export const ACCESS_PAGES: readonly ConsolePage[] = [
  {
    name: 'roles',
    path: CONSOLE_PATHS.roles,
    lazy: lazyPage(
      () => import('../pages/account/roles/RolesPage'),
      (m) => m.RolesPage,
    ),
  },
  {
    name: 'apiTokenSetting',
    path: CONSOLE_PATHS.apiTokenSetting,
    lazy: lazyPage(
      () => import('../pages/account/api-tokens/ApiTokensPage'),
      (m) => m.ApiTokensPage,
    ),
  },
];

/** The dataAnalysis pages' chunk, imported from this one place (each import() adds its chunk list to the first load). */
const loadAnalyticsPages = () => import('../pages/analytics/analytics-pages');

/** dataAnalysis/statistics, statisticsCustomize, logger, logExport, logPush and securityAnalysis (the user and client consoles). */
export const ANALYTICS_PAGES: readonly ConsolePage[] = [
  { name: 'statistics', path: CONSOLE_PATHS.statistics, lazy: lazyPage(loadAnalyticsPages, (m) => m.StatisticsPage) },
  {
    name: 'statisticsCustomize',
    path: CONSOLE_PATHS.statisticsCustomize,
    lazy: lazyPage(loadAnalyticsPages, (m) => m.StatisticsCustomizePage),
  },
  { name: 'logger', path: CONSOLE_PATHS.logger, lazy: lazyPage(loadAnalyticsPages, (m) => m.LoggerPage) },
  { name: 'logExport', path: CONSOLE_PATHS.logExport, lazy: lazyPage(loadAnalyticsPages, (m) => m.LogExportPage) },
  { name: 'logPush', path: CONSOLE_PATHS.logPush, lazy: lazyPage(loadAnalyticsPages, (m) => m.LogPushPage) },
  {
    name: 'securityAnalysis',
    path: CONSOLE_PATHS.securityAnalysis,
    lazy: lazyPage(loadAnalyticsPages, (m) => m.SecurityAnalysisPage),
  },
];

/** dataAnalysis/l4AttackAnalysis: the user console's (its calls are the user's, spec part 2 §7). */
export const L4_ATTACK_PAGE: ConsolePage = {
  name: 'l4AttackAnalysis',
  path: CONSOLE_PATHS.l4AttackAnalysis,
  lazy: lazyPage(loadAnalyticsPages, (m) => m.L4AttackAnalysisPage),
};

interface ConsoleTree {
  /** Pages behind the session, in the console's shell. */
  pages: readonly ConsolePage[];
  /** Routes outside the session and the shell (e.g. apiDoc). */
  open?: readonly RouteObject[];
}

/**
 * The route tree of one console (spec part 1 §2): `/{tier}` goes to the dashboard; the login
 * pages, verifyMail and switchUser need no session; every page in `pages` restores the session
 * first and renders in the console's shell. A path matching none of them falls through to the
 * app's 404 page.
 */
export function consoleRoutes(tier: Tier, tree: ConsoleTree): RouteObject {
  const handle: ConsoleHandle = { tier };
  return {
    path: tier,
    handle,
    lazy: lazyPage(
      () => import('../layouts/ConsoleFrame'),
      (m) => m.ConsoleFrame,
    ),
    children: [
      { index: true, loader: () => redirect(consolePath(tier, 'dashboard')), Component: NoScreen },
      {
        path: CONSOLE_PATHS.login,
        loader: guestOnly(tier),
        lazy: lazyPage(
          () => import('../pages/auth/LoginPage'),
          (m) => m.LoginPage,
        ),
      },
      {
        path: CONSOLE_PATHS.verifyAccount,
        loader: verifyAccountGuard(tier),
        lazy: lazyPage(
          () => import('../pages/auth/VerifyAccountPage'),
          (m) => m.VerifyAccountPage,
        ),
      },
      {
        path: CONSOLE_PATHS.createPassword,
        loader: createPasswordGuard(tier),
        lazy: lazyPage(
          () => import('../pages/auth/CreatePasswordPage'),
          (m) => m.CreatePasswordPage,
        ),
      },
      { path: CONSOLE_PATHS.verifyMail, loader: verifyMailLoader(tier), Component: NoScreen },
      { path: CONSOLE_PATHS.switchUser, loader: switchUserLoader(tier), Component: NoScreen },
      ...(tree.open ?? []),
      {
        id: `${tier}.session`,
        loader: sessionLoader(tier),
        // The shell and every page in it show the console's texts: loaded with the shell's chunk.
        lazy: lazyPage(
          () => Promise.all([import('../layouts/shell/ConsoleShell'), loadConsoleTexts()]).then(([m]) => m),
          (m) => m.ConsoleShell,
        ),
        children: tree.pages.map((page) => ({ id: `${tier}.${page.name}`, path: page.path, lazy: page.lazy })),
      },
    ],
  };
}
