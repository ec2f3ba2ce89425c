import type { RouteObject } from 'react-router';
import { ACCOUNT_PAGES, type ConsolePage, consoleRoutes } from '../../app/console-routes';

/** Pages of the admin (vendor) console behind its session; later issues add theirs here. */
export const ADMIN_PAGES: readonly ConsolePage[] = [...ACCOUNT_PAGES];

/** The admin (vendor) console, /admin. */
export const adminRoutes: RouteObject = consoleRoutes('admin', { pages: ADMIN_PAGES });
