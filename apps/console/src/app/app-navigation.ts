/**
 * In-app navigation for code that runs outside React (the session layer ends a session from
 * inside an API call). The router registers itself when it is created; until then, and in unit
 * tests that have no router, the browser is sent to the path with a full page load.
 */
type Navigate = (path: string) => void;

let navigateImpl: Navigate | null = null;

export const appNavigation = {
  /** Replaces the current entry with `path` (used to send the visitor to a login form). */
  replace(path: string): void {
    if (navigateImpl) navigateImpl(path);
    else window.location.replace(path);
  },
};

export function registerAppNavigation(navigate: Navigate): void {
  navigateImpl = navigate;
}
