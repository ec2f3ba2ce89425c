import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';
import { documentNavigation } from './document-navigation';
import { createTestRouter } from './router';

function renderAt(path: string) {
  const router = createTestRouter(path);
  render(<App router={router} />);
  return router;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('routes', () => {
  it('shows the start page at / with the product, the API docs link and the language switch', async () => {
    renderAt('/');
    expect(await screen.findByRole('heading', { name: 'Rampart' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'API documentation' }).getAttribute('href')).toBe('/api/v1/docs');
    expect(screen.getByRole('button', { name: 'Language' })).toBeTruthy();
  });

  it.each(['/404', '/no/such/page', '/user/no-such-page', '/admin/no-such-page'])(
    'shows the 404 page at %s without changing the address',
    async (path) => {
      const router = renderAt(path);
      expect(await screen.findByText('Page not found')).toBeTruthy();
      expect(router.state.location.pathname).toBe(path);
    },
  );

  it.each(['/user', '/client', '/admin'])('sends the console root %s to the start page for now', async (path) => {
    const router = renderAt(path);
    expect(await screen.findByRole('heading', { name: 'Rampart' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it.each(['/user/apiDoc', '/client/apiDoc'])('leaves %s for the server-served API docs', async (path) => {
    const assign = vi.spyOn(documentNavigation, 'assign').mockImplementation(() => {});
    renderAt(path);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/v1/docs'));
  });

  it('goes back to the start page from the 404 page', async () => {
    const router = renderAt('/nowhere');
    (await screen.findByRole('button', { name: 'Back home' })).click();
    expect(await screen.findByRole('heading', { name: 'Rampart' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });
});
