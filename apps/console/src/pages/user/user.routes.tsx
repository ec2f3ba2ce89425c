import type { RouteObject } from 'react-router';
import { apiDocRoute } from '../../app/api-doc-route';
import { ACCOUNT_PAGES, type ConsolePage, consoleRoutes } from '../../app/console-routes';

/** Pages of the user (customer) console behind its session; later issues add theirs here. */
export const USER_PAGES: readonly ConsolePage[] = [...ACCOUNT_PAGES];

/** The user (customer) console, /user. */
export const userRoutes: RouteObject = consoleRoutes('user', { pages: USER_PAGES, open: [apiDocRoute()] });
