import { getSelf, logo, logout } from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readTokenSet } from '../../session';
import { type FakeApi, ok, restoreFakeApi, selfInfo, signedInCookies, signedInFakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render-app';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds).
vi.setConfig({ testTimeout: 20_000 });

let api: FakeApi;
const branding = {
  backgroundImage: '',
  copyright: '© 2026 Example Networks',
  favicon: '',
  logo: '',
  title: 'Example CDN',
  sidebarLogo: 'data:image/png;base64,c2lkZWJhcg==',
  sidebarSimpleLogo: '',
  version: '',
  subTitle: '',
  description: '',
};

beforeEach(() => {
  api = signedInFakeApi('client');
});

afterEach(() => restoreFakeApi());

describe('console shell', () => {
  it('lists the working pages in the sidebar and shows the default title and copyright without branding', async () => {
    renderAt('/client/dashboard');
    const nav = within(await screen.findByRole('menu', { name: 'Navigation' }));
    expect(nav.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/client/dashboard');
    expect(nav.getByRole('link', { name: 'Change password' }).getAttribute('href')).toBe('/client/changePassword');
    expect(nav.getByText('User management')).toBeTruthy();
    expect(screen.getByText('Copyright © Rampart')).toBeTruthy();
    expect(screen.getByText('Rampart')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Language' })).toBeTruthy();
  });

  it('orders the client console’s groups as the spec does and opens the group of the current page', async () => {
    renderAt('/client/nodeManage/nodesList');
    const nav = await screen.findByRole('menu', { name: 'Navigation' });
    const top = [...nav.querySelectorAll(':scope > li')].map(
      (item) => item.querySelector('.ant-menu-submenu-title, .ant-menu-title-content')?.textContent,
    );
    expect(top).toEqual([
      'Dashboard',
      'Node management',
      'Site management',
      'Data analysis',
      'Traffic packages',
      'Monitoring',
      'System settings',
      'User management',
      'Change password',
    ]);
    expect(within(nav).getByRole('link', { name: 'Zones' }).getAttribute('href')).toBe('/client/nodeManage/zonesList');
    expect(within(nav).getByRole('link', { name: 'Nodes' }).closest('li')?.className).toContain(
      'ant-menu-item-selected',
    );
  });

  it('lists only the pages the caller holds the key of, and drops groups left empty', async () => {
    api.on(
      getSelf,
      { auth: 'client' },
      ok(selfInfo('client', { isRoot: false, permissions: ['account.self', 'client.nodes.read'] })),
    );
    renderAt('/client/dashboard');
    const nav = await screen.findByRole('menu', { name: 'Navigation' });
    const top = [...nav.querySelectorAll(':scope > li')].map(
      (item) => item.querySelector('.ant-menu-submenu-title, .ant-menu-title-content')?.textContent,
    );
    // System settings holds the version upgrade page, which reads nodes; nothing else of the group.
    expect(top).toEqual(['Dashboard', 'Node management', 'System settings', 'User management', 'Change password']);
    fireEvent.click(within(nav).getByText('Node management'));
    expect(await within(nav).findByRole('link', { name: 'Nodes' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Zones' })).toBeNull();
    fireEvent.click(within(nav).getByText('System settings'));
    expect(await within(nav).findByRole('link', { name: 'Version upgrade' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Predefined settings' })).toBeNull();
  });

  it('keeps the user console’s site list selected on a site’s settings', async () => {
    signedInCookies('user');
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user')));
    renderAt('/user/sitesManagement/sitesSetting/3/shop');
    const nav = await screen.findByRole('menu', { name: 'Navigation' });
    const sites = within(nav).getByRole('link', { name: 'Sites' });
    expect(sites.getAttribute('href')).toBe('/user/sitesManagement/sites');
    expect(sites.closest('li')?.className).toContain('ant-menu-item-selected');
  });

  /** The links of the user console's Data analysis group, opened, for an operator's switch. */
  async function dataAnalysisLinks(l4AttackPage: boolean) {
    signedInCookies('user');
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { l4AttackPage })));
    renderAt('/user/sitesManagement/sites');
    const nav = within(await screen.findByRole('menu', { name: 'Navigation' }));
    fireEvent.click(nav.getByText('Data analysis'));
    await nav.findByRole('link', { name: 'Statistics' });
    return nav;
  }

  it("lists the layer-4 attack page in the user console's menu when the operator's switch is on", async () => {
    const nav = await dataAnalysisLinks(true);
    expect(nav.getByRole('link', { name: 'Layer-4 attack analysis' }).getAttribute('href')).toBe(
      '/user/dataAnalysis/l4AttackAnalysis',
    );
  });

  it("leaves the layer-4 attack page out of the user console's menu when the operator's switch is off", async () => {
    const nav = await dataAnalysisLinks(false);
    expect(nav.getByRole('link', { name: 'Security analysis' })).toBeTruthy();
    expect(nav.queryByRole('link', { name: 'Layer-4 attack analysis' })).toBeNull();
  });

  it('shows the console’s branding: sidebar logo, title and copyright', async () => {
    api.on(logo, { auth: 'client' }, ok(branding));
    renderAt('/client/dashboard');
    expect(await screen.findByText('© 2026 Example Networks')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Example CDN' }).getAttribute('src')).toBe(branding.sidebarLogo);
    expect(document.title).toBe('Example CDN');
  });

  it("shows the signed-in account's own operator's branding, not the one a login link named earlier", async () => {
    // A login link of another operator was opened in this browser before.
    localStorage.setItem('rampart.operator', 'someone-else');
    signedInCookies('user');
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { operator: 'acme-operator' })));
    api.on(logo, { auth: 'user' }, (request) =>
      request.search.get('operator') === 'acme-operator'
        ? ok({ ...branding, title: 'Acme Edge' })
        : ok({ ...branding, title: 'Someone Else CDN' }),
    );
    renderAt('/user/dashboard');
    await waitFor(() => expect(document.title).toBe('Acme Edge'));
    expect(api.sent(logo, { auth: 'user' }).every((r) => r.search.get('operator') === 'acme-operator')).toBe(true);
    // Remembered for the login page after a logout.
    expect(localStorage.getItem('rampart.operator')).toBe('acme-operator');
  });

  it('opens the account pages from the account menu', async () => {
    const router = renderAt('/client/dashboard');
    fireEvent.click(await screen.findByTestId('account-menu'));
    fireEvent.click(await screen.findByRole('menuitem', { name: /Two-factor authentication/ }));
    expect(await screen.findByRole('button', { name: 'Continue' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/client/userManagement/twoFactor');
  });

  it('logs out: revokes the session, clears the cookies and says goodbye on the login form', async () => {
    api.on(logout, { auth: 'client' }, ok(true));
    const router = renderAt('/client/dashboard');
    fireEvent.click(await screen.findByTestId('account-menu'));
    fireEvent.click(await screen.findByRole('menuitem', { name: /Log out/ }));
    expect(await screen.findByText('Logout success! See you!')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/client/login');
    // The refresh token is not the page's to send: the server reads it from its HttpOnly cookie.
    expect(api.sent(logout, { auth: 'client' })[0]?.body).toEqual({ accessToken: 'access-1' });
    expect(readTokenSet('client')).toBeNull();
  });
});
