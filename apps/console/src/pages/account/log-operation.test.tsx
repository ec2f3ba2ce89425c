import { listAuditLogs } from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApiForEachTest, okPage, signedInFakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render-app';

vi.setConfig({ testTimeout: 20_000 });

const api = fakeApiForEachTest(() => signedInFakeApi('client'));

const record = {
  id: 7,
  accountID: 3,
  accountName: 'alice',
  tier: 'user',
  realAccountID: 2,
  realAccountName: 'operator1',
  action: 'user.site.create',
  method: 'POST',
  url: '/api/v1/user/site',
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
    expect(screen.getByText('user.site.create')).toBeTruthy();
    expect(screen.getByText('Success')).toBeTruthy();
    await waitFor(() => expect(api.sent(listAuditLogs, { auth: 'client' }).length).toBeGreaterThan(0));
    const [sent] = api.sent(listAuditLogs, { auth: 'client' });
    expect(sent?.search.get('reqID')).toBe('req-12345678');
    expect(sent?.search.get('method')).toBe('POST');
    expect(sent?.search.get('page')).toBe('2');
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
