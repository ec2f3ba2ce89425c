import {
  clientStatisticsInfo,
  getClientOverview,
  getOwnLicense,
  type LicenseInfo,
  listClientMonthlyUsages,
  listInitializedNodes,
  listUserMonthlyUsages,
  type MonthlyUsage,
  userStatisticsInfo,
} from '@rampart/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, fail, ok, okPage, restoreFakeApi, signedInFakeApi } from '../../test/fake-api';
import { initializedNode } from '../../test/fixtures';
import { renderAt } from '../../test/render-app';
import { card, stubStatistics, topRow } from '../../test/statistics';

// The dashboard's live figures: traffic now and over 24 hours, the most attacked domains, nodes and
// their configuration, licence and traffic-plan use, each from the caller's own calls.
vi.mock('../../features/statistics/EChartView', () => ({
  default: ({ label }: { label: string }) => <div data-testid="echart" role="img" aria-label={label} />,
}));
vi.setConfig({ testTimeout: 30_000 });

const MINUTE_MS = 60_000;
const span = (body: { startTime: string; endTime: string }) => Date.parse(body.endTime) - Date.parse(body.startTime);
let api: FakeApi;
afterEach(() => restoreFakeApi());

const usage = (used: number, limit: number) => ({ used, limit, left: limit < 0 ? -1 : Math.max(0, limit - used) });
const LICENSE: LicenseInfo = {
  source: 'offline',
  licenseSetting: {
    nodes: 5,
    sites: 10,
    domains: 50,
    autoSSLDomains: 5,
    ports: 5,
    zones: 5,
    expiredAt: '2026-12-05T23:59:59.999Z',
  },
  expired: false,
  daysLeft: 10,
  usage: {
    nodes: usage(2, 5),
    sites: usage(4, 10),
    domains: usage(9, 50),
    autoSSLDomains: usage(0, 5),
    ports: usage(0, 5),
    zones: usage(1, 5),
  },
  installID: '6f1c2f1e-1b2c-4d5e-8f90-1234567890ab',
  operator: 'acme-cdn',
  key: 'RL1.a.b',
};
const monthly = (over: Partial<MonthlyUsage>): MonthlyUsage => ({
  year: 2026,
  month: 11,
  userID: 7,
  userName: 'alice',
  siteID: 3,
  siteName: 'shop',
  productID: 2,
  productName: 'CDN',
  used: 4_000_000_000,
  planBytes: 5_000_000_000,
  extraBytes: 0,
  allowance: 5_000_000_000,
  left: 1_000_000_000,
  restriction: null,
  ...over,
});

/** The statistics answer 3 requests and 1 blocked for a 5-minute range, 1,200 and 40 for 24 hours. */
function stubTraffic(tier: 'user' | 'client') {
  stubStatistics(api, tier, {
    card: (type, body) =>
      span(body as { startTime: string; endTime: string }) === 5 * MINUTE_MS
        ? card(type, { requests: 3, blocked: 1 })
        : card(type, { requests: 1200, blocked: 40 }),
    top: (type) => (type === 24 ? [topRow('12', 0, { name: 'attacked.example', blocked: 40 })] : []),
  });
}

describe('the dashboard opens on live figures', () => {
  it('operator: traffic now and over 24 hours, the most attacked domain, nodes with their configuration, licence and traffic use', async () => {
    api = signedInFakeApi('client');
    stubTraffic('client');
    api.on(getClientOverview, fail(500, 101002, 'Unexpected'));
    api.on(
      listInitializedNodes,
      okPage([
        initializedNode({
          id: 1,
          name: 'edge-up',
          connection: 'online',
          appliedVersion: 'v2',
          currentVersion: 'v2',
          appliedPlane: '7',
          currentPlane: '7',
        }),
        initializedNode({
          id: 2,
          name: 'edge-behind',
          connection: 'online',
          appliedVersion: 'v2',
          currentVersion: 'v2',
          appliedPlane: '5',
          currentPlane: '7',
        }),
        initializedNode({
          id: 3,
          name: 'edge-down',
          connection: 'offline',
          appliedVersion: 'v1',
          currentVersion: 'v2',
        }),
      ]),
    );
    api.on(getOwnLicense, ok(LICENSE));
    api.on(listClientMonthlyUsages, okPage([monthly({ siteName: 'shop' })], 1));
    renderAt('/client/dashboard');

    const now = await screen.findByTestId('live-now', {}, { timeout: 10_000 });
    await waitFor(() => expect(within(now).getByText('3')).toBeTruthy());
    expect(within(now).getByText('1')).toBeTruthy();
    const day = screen.getByTestId('live-day');
    await waitFor(() => expect(within(day).getByText('1,200')).toBeTruthy());
    expect(within(day).getByText('40')).toBeTruthy();
    // Both ranges went out: the current 5-minute bucket and the last 24 hours.
    const spans = api
      .sent(clientStatisticsInfo)
      .map((call) => span(call.body as { startTime: string; endTime: string }));
    expect(spans).toEqual(expect.arrayContaining([5 * MINUTE_MS, 24 * 60 * MINUTE_MS]));
    expect(await within(screen.getByTestId('top-24')).findByText(/^attacked\.example/)).toBeTruthy();

    const nodes = screen.getByTestId('nodes-live');
    expect((await within(nodes).findByLabelText('Connection of edge-down')).textContent).toBe('Offline');
    expect(within(nodes).getByLabelText('Connection of edge-up').textContent).toBe('Online');
    expect(within(nodes).getByLabelText('Configuration of edge-up').textContent).toBe('In sync');
    expect(within(nodes).getByLabelText('Configuration of edge-behind').textContent).toBe('Pending');
    expect(within(nodes).getByLabelText('Configuration of edge-down').textContent).toBe('Pending');
    expect(api.sent(listInitializedNodes)[0]?.search?.get('pageSize')).toBe('10');

    const license = screen.getByTestId('license-use');
    expect(await within(license).findByText('4 of 10')).toBeTruthy();
    expect(within(license).getByLabelText('Sites')).toBeTruthy();
    const traffic = screen.getByTestId('traffic-use');
    expect(await within(traffic).findByText(/^4(\.0+)? GB of 5(\.0+)? GB$/)).toBeTruthy();
    expect(api.sent(listClientMonthlyUsages)[0]?.search?.get('pageSize')).toBe('5');
    // The account summary is still there, after the figures.
    expect(screen.getByTestId('account-summary')).toBeTruthy();
  });

  it('customer: its own traffic and traffic-plan use, and no node or licence panel', async () => {
    api = signedInFakeApi('user');
    stubTraffic('user');
    api.on(listUserMonthlyUsages, okPage([monthly({ siteName: 'my shop', allowance: null, planBytes: 0 })], 1));
    renderAt('/user/dashboard');
    const now = await screen.findByTestId('live-now', {}, { timeout: 10_000 });
    await waitFor(() => expect(within(now).getByText('3')).toBeTruthy());
    expect(api.sent(userStatisticsInfo).length).toBeGreaterThan(0);
    const traffic = screen.getByTestId('traffic-use');
    expect(await within(traffic).findByText(/^4(\.0+)? GB \(no limit\)$/)).toBeTruthy();
    expect(screen.queryByTestId('nodes-live')).toBeNull();
    expect(screen.queryByTestId('license-use')).toBeNull();
  });
});
