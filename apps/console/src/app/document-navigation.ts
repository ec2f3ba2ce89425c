/**
 * Leaves the single-page app for a document the server serves (e.g. the API docs). An object
 * rather than a bare function so tests can spy on it: jsdom's `location.assign` cannot be replaced.
 */
export const documentNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
