import { listAuditLogs } from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render-app';

const api = pageTestApi(() => signedInFakeApi('client'));

const record = {
  id: 7,
  accountID: 3,
  accountName: 'alice',
  tier: 'user',
  realAccountID: 2,
  realAccountName: 'operator1',
  action: 'client.site.create',
  method: 'POST',
  url: '/api/v1/client/site',
  target: {},
  changes: { siteName: 'shop' },
  rowChanges: [
    { table: 'sites', op: 'update', id: '41', before: { name: 'old-shop' }, after: { name: 'shop' } },
    { table: 'site_users', op: 'delete', id: '', before: { account_id: 9 }, after: null },
  ],
  ip: '192.0.2.1',
  reqID: 'req-12345678',
  status: 200,
  code: 0,
  pending: false,
  createdAt: '2026-01-02T03:04:05.000Z',
};

describe('logOperation', () => {
  it('lists records with the real actor and sends the URL filters to the server', async () => {
    api.on(listAuditLogs, { auth: 'client' }, okPage([record]));
    renderAt('/client/userManagement/logOperation?method=POST&reqID=req-12345678&page=2');
    expect(await screen.findByText('operator1 as alice')).toBeTruthy();
    // The action by its name; the route id and the path on hover, for support.
    expect(screen.getByText('Create site').getAttribute('title')).toBe('client.site.create\n/api/v1/client/site');
    expect(screen.getByText('Success')).toBeTruthy();
    await waitFor(() => expect(api.sent(listAuditLogs, { auth: 'client' }).length).toBeGreaterThan(0));
    const [sent] = api.sent(listAuditLogs, { auth: 'client' });
    expect(sent?.search.get('reqID')).toBe('req-12345678');
    expect(sent?.search.get('method')).toBe('POST');
    expect(sent?.search.get('page')).toBe('2');
  });

  it('shows the route id of an action that has no name (a route removed since)', async () => {
    api.on(listAuditLogs, { auth: 'client' }, okPage([{ ...record, action: 'user.site.retired' }]));
    renderAt('/client/userManagement/logOperation');
    expect(await screen.findByText('user.site.retired')).toBeTruthy();
  });

  it.each([
    ['zh_CN', '清除 URL 缓存'],
    ['zh_TW', '清除 URL 快取'],
  ] as const)('speaks %s: the action name', async (locale, name) => {
    await i18n.changeLanguage(locale);
    const purge = { ...record, action: 'user.site.purgeCache.create', url: '/api/v1/user/site/3/setting/purgeCache' };
    api.on(listAuditLogs, { auth: 'client' }, okPage([purge]));
    renderAt('/client/userManagement/logOperation');
    const cell = await screen.findByText(name);
    expect(cell.getAttribute('title')).toBe('user.site.purgeCache.create\n/api/v1/user/site/3/setting/purgeCache');
  });

  it('labels the time range it filters on, and sends it to the server', async () => {
    api.on(listAuditLogs, { auth: 'client' }, okPage([record]));
    renderAt('/client/userManagement/logOperation');
    await screen.findByText('operator1 as alice');
    // Visible labels, not only accessible names: an empty date input says nothing of what it is.
    const from = screen.getByLabelText('From');
    expect(from.closest('.ant-input-group-wrapper')?.textContent).toContain('From');
    expect(screen.getByLabelText('To').closest('.ant-input-group-wrapper')?.textContent).toContain('To');
    fireEvent.change(from, { target: { value: '2026-01-02T03:04' } });
    await waitFor(() =>
      expect(api.sent(listAuditLogs, { auth: 'client' }).some((call) => call.search.has('startTime'))).toBe(true),
    );
  });

  it('opens a record on the rows it changed, before and after', async () => {
    api.on(listAuditLogs, { auth: 'client' }, okPage([record]));
    renderAt('/client/userManagement/logOperation');
    await screen.findByText('operator1 as alice');
    fireEvent.click(screen.getByRole('button', { name: /expand row/i }));
    const site = within(await screen.findByRole('table', { name: 'sites #41' }));
    const nameRow = site.getByText('name').closest('tr') as HTMLElement;
    expect(within(nameRow).getByText('old-shop')).toBeTruthy();
    expect(within(nameRow).getByText('shop')).toBeTruthy();
    expect(screen.getByText('changed')).toBeTruthy();
    const removed = within(screen.getByRole('table', { name: 'site_users #' }));
    expect(within(removed.getByText('account_id').closest('tr') as HTMLElement).getByText('9')).toBeTruthy();
    expect(screen.getByText('deleted')).toBeTruthy();
  });
});
