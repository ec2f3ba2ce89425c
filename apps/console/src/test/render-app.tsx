import { render } from '@testing-library/react';
import { App } from '../app/App';
import { createTestRouter } from '../app/router';

/** The whole console in memory at `path`; returns its router (for the current location). */
export function renderAt(path: string) {
  const router = createTestRouter(path);
  render(<App router={router} />);
  return router;
}
