import type { RouteObject } from 'react-router';
import { ACCOUNT_PAGES, accountsPage, type ConsolePage, consoleRoutes } from '../../app/console-routes';

/** Pages of the admin (vendor) console behind its session; later issues add theirs here. */
export const ADMIN_PAGES: readonly ConsolePage[] = [...ACCOUNT_PAGES, accountsPage('admin')];

/** The admin (vendor) console, /admin. */
export const adminRoutes: RouteObject = consoleRoutes('admin', { pages: ADMIN_PAGES });
