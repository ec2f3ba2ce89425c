import type { RouteObject } from 'react-router';
import { apiDocRoute } from '../../app/api-doc-route';
import { USER_PATHS } from '../../app/console-paths';
import {
  ACCESS_PAGES,
  ACCOUNT_PAGES,
  ANALYTICS_PAGES,
  accountsPage,
  type ConsolePage,
  consoleRoutes,
  L4_ATTACK_PAGE,
} from '../../app/console-routes';
import { lazyPage } from '../../app/lazy-page';

/** Pages of the user (customer) console behind its session; later issues add theirs here. */
export const USER_PAGES: readonly ConsolePage[] = [
  ...ACCOUNT_PAGES,
  accountsPage('user'),
  ...ACCESS_PAGES,
  {
    name: 'sites',
    path: USER_PATHS.sites,
    lazy: lazyPage(
      () => import('./sites/SitesPage'),
      (m) => m.SitesPage,
    ),
  },
  {
    name: 'sitesSetting',
    path: `${USER_PATHS.sitesSetting}/:id?/:name?`,
    lazy: lazyPage(
      () => import('./site-setting/SiteSettingPage'),
      (m) => m.SiteSettingPage,
    ),
  },
  {
    name: 'blockList',
    path: USER_PATHS.blockList,
    lazy: lazyPage(
      () => import('./block-list/BlockListPage'),
      (m) => m.BlockListPage,
    ),
  },
  ...ANALYTICS_PAGES,
  L4_ATTACK_PAGE,
  {
    name: 'notifySetting',
    path: USER_PATHS.notifySetting,
    lazy: lazyPage(
      () => import('./notify-setting/NotifySettingPage'),
      (m) => m.NotifySettingPage,
    ),
  },
  {
    name: 'trafficPkgList',
    path: USER_PATHS.trafficPkgList,
    lazy: lazyPage(
      () => import('./traffic/UserTrafficPkgListPage'),
      (m) => m.UserTrafficPkgListPage,
    ),
  },
];

/** The user (customer) console, /user. */
export const userRoutes: RouteObject = consoleRoutes('user', { pages: USER_PAGES, open: [apiDocRoute()] });
