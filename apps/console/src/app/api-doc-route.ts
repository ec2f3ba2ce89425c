import { API_BASE } from '@rampart/contract';
import type { RouteObject } from 'react-router';
import { documentNavigation } from './document-navigation';

/** The API reference page, served by the control plane (not part of the SPA). */
export const API_DOCS_URL = `${API_BASE}/docs`;

/** The browser is on its way to another document; nothing to show meanwhile. */
function Leaving() {
  return null;
}

/** `{console}/apiDoc`: no screen of its own (spec part 1 §2); it sends the browser to the server's docs page. */
export function apiDocRoute(): RouteObject {
  return {
    path: 'apiDoc',
    // A loader rather than an effect: it runs once per visit, before anything renders.
    loader: () => {
      documentNavigation.assign(API_DOCS_URL);
      return null;
    },
    Component: Leaving,
  };
}
