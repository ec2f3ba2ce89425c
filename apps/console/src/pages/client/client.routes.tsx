import type { RouteObject } from 'react-router';
import { apiDocRoute } from '../../app/api-doc-route';
import { ACCOUNT_PAGES, type ConsolePage, consoleRoutes } from '../../app/console-routes';

/**
 * Pages of the client (operator) console behind its session; later issues add theirs here. The
 * DNS setting page, when it arrives, must be named `dnsSetting`: the after-login rule looks for
 * that name (app/landing.ts).
 */
export const CLIENT_PAGES: readonly ConsolePage[] = [...ACCOUNT_PAGES];

/** The client (operator) console, /client. */
export const clientRoutes: RouteObject = consoleRoutes('client', { pages: CLIENT_PAGES, open: [apiDocRoute()] });
