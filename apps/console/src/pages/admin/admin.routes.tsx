import type { RouteObject } from 'react-router';
import { ADMIN_PATHS } from '../../app/console-paths';
import { ACCOUNT_PAGES, accountsPage, type ConsolePage, consoleRoutes } from '../../app/console-routes';
import { lazyPage } from '../../app/lazy-page';

/** Pages of the admin (vendor) console behind its session; later issues add theirs here. */
export const ADMIN_PAGES: readonly ConsolePage[] = [
  ...ACCOUNT_PAGES,
  accountsPage('admin'),
  {
    name: 'licenses',
    path: ADMIN_PATHS.licenses,
    lazy: lazyPage(
      () => import('./licenses/LicensesPage'),
      (m) => m.LicensesPage,
    ),
  },
  {
    name: 'offlineLicense',
    path: ADMIN_PATHS.offlineLicense,
    lazy: lazyPage(
      () => import('./licenses/OfflineLicensesPage'),
      (m) => m.OfflineLicensesPage,
    ),
  },
];

/** The admin (vendor) console, /admin. */
export const adminRoutes: RouteObject = consoleRoutes('admin', { pages: ADMIN_PAGES });
