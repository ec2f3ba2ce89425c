import {
  clientDomainTags,
  clientStatisticsInfo,
  clientStatisticsTimeSeries,
  getSelf,
  metaClientDomains,
  metaSites,
  metaUserSites,
  metaZones,
  userDomainsMeta,
  userDomainsTags,
  userStatisticsExport,
  userStatisticsInfo,
  userStatisticsList,
  userStatisticsTimeSeries,
  userStatisticsTop,
  userStatisticsUpstreamTimes,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, ok, okPage, restoreFakeApi, selfInfo, signedInFakeApi } from '../../test/fake-api';
import { buttonByText, chooseOption } from '../../test/queries';
import { renderAt } from '../../test/render-app';
import { bodies, card, series, stubStatistics, topRow, upstreamTimes } from '../../test/statistics';

// ECharts draws nothing in jsdom: the chart is replaced by its label; the numbers are written out beside it.
vi.mock('../../features/statistics/EChartView', () => ({
  default: ({ label }: { label: string }) => <div data-testid="echart" role="img" aria-label={label} />,
}));
vi.setConfig({ testTimeout: 30_000 });

const PAGE = '/user/dataAnalysis/statistics';
const HOUR_MS = 3_600_000;
let api: FakeApi;

beforeEach(() => {
  api = signedInFakeApi('user');
  api.on(
    metaUserSites,
    ok([
      { id: 3, name: 'shop' },
      { id: 4, name: 'blog' },
    ]),
  );
  api.on(userDomainsMeta, ok([{ id: 31, name: 'www.shop.example', siteID: 3 }]));
  api.on(userDomainsTags, ok(['promo', 'beta']));
});
afterEach(() => restoreFakeApi());

const span = (body: { startTime: string; endTime: string }) => Date.parse(body.endTime) - Date.parse(body.startTime);

describe('dataAnalysis/statistics', () => {
  it('asks for the last hour of every site at the 5-minute interval, then for the chosen site, domain and interval', async () => {
    stubStatistics(api, 'user');
    renderAt(PAGE);
    await screen.findByTestId('card-3', {}, { timeout: 10_000 });
    await waitFor(() => expect(api.sent(userStatisticsInfo).length).toBeGreaterThanOrEqual(3));
    const first = bodies<{ type: number; startTime: string; endTime: string; siteIDs?: number[] }>(
      api,
      userStatisticsInfo,
    );
    // Besides the page's cards, a 93-day request card says why the empty charts are empty.
    expect(
      first
        .filter((b) => span(b) === HOUR_MS)
        .map((b) => b.type)
        .sort(),
    ).toEqual([3, 4, 5]);
    expect(span(first[0] as { startTime: string; endTime: string })).toBe(HOUR_MS);
    // The range ends with the current 5-minute bucket.
    expect(Date.parse(first[0]?.endTime ?? '') % 300_000).toBe(0);
    expect(first[0]?.siteIDs).toBeUndefined();
    const seriesBodies = bodies<{ type: number; minutesStep: number }>(api, userStatisticsTimeSeries);
    expect(seriesBodies.map((b) => b.type).sort((a, b) => a - b)).toEqual([1, 3, 4, 5, 6, 7, 8]);
    expect(new Set(seriesBodies.map((b) => b.minutesStep))).toEqual(new Set([5]));
    const tops = bodies<{ type: number; top: number }>(api, userStatisticsTop);
    expect(tops.map((b) => b.type).sort((a, b) => a - b)).toEqual([11, 12, 14, 19, 20, 30, 31, 32, 35, 36]);
    expect(new Set(tops.map((b) => b.top))).toEqual(new Set([10]));
    expect(bodies<{ page: number; pageSize: number }>(api, userStatisticsList)[0]).toMatchObject({
      page: 1,
      pageSize: 10,
      sortBy: 'requests',
      orderBy: 'desc',
    });

    await chooseOption(document.body, 'Sites', 'shop');
    await waitFor(() => expect(bodies<{ siteIDs?: number[] }>(api, userStatisticsInfo).at(-1)?.siteIDs).toEqual([3]));
    await waitFor(() => expect(api.sent(userDomainsMeta).at(-1)?.body).toEqual({ siteIDs: [3], name: '' }));
    await chooseOption(document.body, 'Domains', 'www.shop.example');
    await waitFor(() =>
      expect(bodies<{ domainIDs?: number[] }>(api, userStatisticsTimeSeries).at(-1)).toMatchObject({
        siteIDs: [3],
        domainIDs: [31],
      }),
    );
    // "All sites" is first and stands alone: choosing it clears the sites (and their domains).
    await chooseOption(document.body, 'Sites', 'All sites');
    await chooseOption(document.body, 'Report interval', '15 minutes');
    await waitFor(() => {
      const last = bodies<{ minutesStep: number; siteIDs?: number[]; domainIDs?: number[] }>(
        api,
        userStatisticsTimeSeries,
      ).at(-1);
      expect(last?.minutesStep).toBe(15);
      expect(last?.siteIDs).toBeUndefined();
      expect(last?.domainIDs).toBeUndefined();
    });
    await chooseOption(document.body, 'Time range', 'Last 30 days');
    await waitFor(() => {
      const last = bodies<{ minutesStep: number; startTime: string; endTime: string }>(
        api,
        userStatisticsTimeSeries,
      ).at(-1);
      expect(span(last as { startTime: string; endTime: string })).toBe(720 * HOUR_MS);
      // 30 days at 15 minutes are 2880 points, over the 2000 a series may have: the next step that fits.
      expect(last?.minutesStep).toBe(30);
    });
  });

  it('filters by domain tags, of the chosen sites, and a new site clears them', async () => {
    stubStatistics(api, 'user');
    renderAt(PAGE);
    await screen.findByTestId('card-3', {}, { timeout: 10_000 });
    await waitFor(() => expect(api.sent(userDomainsTags).at(-1)?.body).toEqual({ siteIDs: [] }));
    await chooseOption(document.body, 'Domain tags', 'promo');
    await waitFor(() =>
      expect(bodies<{ domainTags?: string[] }>(api, userStatisticsInfo).at(-1)?.domainTags).toEqual(['promo']),
    );
    await waitFor(() =>
      expect(bodies<{ domainTags?: string[] }>(api, userStatisticsTop).at(-1)?.domainTags).toEqual(['promo']),
    );
    await chooseOption(document.body, 'Sites', 'shop');
    await waitFor(() => expect(api.sent(userDomainsTags).at(-1)?.body).toEqual({ siteIDs: [3] }));
    await waitFor(() => {
      const last = bodies<{ siteIDs?: number[]; domainTags?: string[] }>(api, userStatisticsInfo).at(-1);
      expect(last?.siteIDs).toEqual([3]);
      expect(last?.domainTags).toBeUndefined();
    });
  });

  it('"this month" sends a custom range from the first of the month at local midnight', async () => {
    stubStatistics(api, 'user');
    renderAt(PAGE);
    await screen.findByTestId('card-3', {}, { timeout: 10_000 });
    await chooseOption(document.body, 'Time range', 'This month');
    expect(await screen.findByLabelText('Start')).toBeTruthy();
    await waitFor(() => {
      const start = new Date(bodies<{ startTime: string }>(api, userStatisticsInfo).at(-1)?.startTime ?? '');
      expect([start.getDate(), start.getHours(), start.getMinutes()]).toEqual([1, 0, 0]);
    });
  });

  it('writes bytes and bit rates in units of 1000 and counts in the locale', async () => {
    stubStatistics(api, 'user', {
      card: (type) =>
        card(type, {
          requests: 1_234_567,
          bytesOut: 1_500_000,
          hitRequests: 617_283,
          peakBandwidth: 2_000_000,
          peakQps: 12.5,
          uniqueIPs: 4321,
          uniqueIPsError: 0.0081,
          statusCodes: { '404': 17 },
          s4xx: 17,
        }),
      series: (type, body) =>
        type === 1
          ? series(1, 5, body.startTime as string, [
              [999_999, 1000],
              [1, 0],
            ])
          : series(type, 5, body.startTime as string, [[0]]),
      top: (type) => (type === 11 ? [topRow('DE', 42, { name: 'Germany', bytesOut: 2_500_000_000 })] : []),
      upstreamTimes: () => upstreamTimes(1500, { p50: 41, p95: 412.5, p99: 1_530.5 }),
    });
    renderAt(PAGE);
    const requestInfo = await screen.findByTestId('card-3', {}, { timeout: 10_000 });
    expect(await within(requestInfo).findByText('1,234,567')).toBeTruthy();
    expect(within(requestInfo).getByText('1.50 MB')).toBeTruthy();
    expect(within(requestInfo).getByText('2.00 Mbps')).toBeTruthy();
    expect(within(requestInfo).getByText('50%')).toBeTruthy();
    expect(within(requestInfo).getByText('12.50')).toBeTruthy();
    const ipInfo = await screen.findByTestId('card-4');
    expect(within(ipInfo).getByText('4,321')).toBeTruthy();
    // Estimated from the nodes' sketches: the standard error beside it.
    expect(within(ipInfo).getByTestId('unique-ips-error').textContent).toBe(
      "Distinct IPs estimated from the nodes' address sketches: standard error ±0.8%.",
    );
    expect(await within(screen.getByTestId('card-5')).findByText('404: 17')).toBeTruthy();

    const traffic = screen.getByTestId('series-1');
    const summary = await within(traffic).findByTestId('series-summary');
    // 999 999 + 1 bytes out is 1.00 MB (not 1000.00 KB); 1000 bytes in is 1.00 KB.
    expect(summary.textContent).toContain('Traffic out: 1.00 MB');
    expect(summary.textContent).toContain('Traffic in: 1.00 KB');
    expect((await within(traffic).findByTestId('echart')).getAttribute('aria-label')).toBe('Traffic');

    // The origin's response time percentiles, in milliseconds, with the bound of their error.
    const origin = screen.getByTestId('upstream-times');
    expect(await within(origin).findByText('41 ms')).toBeTruthy();
    expect(within(origin).getByText('413 ms')).toBeTruthy();
    expect(within(origin).getByText('1,531 ms')).toBeTruthy();
    expect(
      within(origin).getByText("From the nodes' histograms: each figure is within ±1.6% of the exact value."),
    ).toBeTruthy();
    // Over the page's range (the last hour), as the cards.
    const asked = bodies<{ startTime: string; endTime: string }>(api, userStatisticsUpstreamTimes).at(-1);
    expect(asked && span(asked)).toBe(HOUR_MS);

    const countries = screen.getByTestId('top-11');
    expect(await within(countries).findByText('Germany (DE)')).toBeTruthy();
    expect(within(countries).getByText('2.50 GB')).toBeTruthy();
  });

  it('says the range had no traffic, or that no node serves the sites when 93 days had none either', async () => {
    let everServed = true;
    stubStatistics(api, 'user', {
      card: (type, body) => {
        const long = Date.parse(body.endTime as string) - Date.parse(body.startTime as string) > 1000 * HOUR_MS;
        return card(type, { requests: long && everServed ? 10 : 0 });
      },
    });
    renderAt(PAGE);
    const traffic = await screen.findByTestId('series-1', {}, { timeout: 10_000 });
    expect(await within(traffic).findByText('No traffic in this range yet')).toBeTruthy();
    expect(within(traffic).queryByTestId('echart')).toBeNull();
    const long = bodies<{ startTime: string; endTime: string }>(api, userStatisticsInfo).find((b) => span(b) > HOUR_MS);
    expect(span(long as { startTime: string; endTime: string })).toBe(93 * 24 * HOUR_MS);

    restoreFakeApi();
    api = signedInFakeApi('user');
    api.on(metaUserSites, ok([]));
    api.on(userDomainsMeta, ok([]));
    everServed = false;
    stubStatistics(api, 'user', { card: (type) => card(type) });
    renderAt(PAGE);
    // The page rendered again loads as the first render did: the same 10 s as the waits above (a
    // CI run under load took more than waitFor's default second).
    await waitFor(() => expect(screen.getAllByText('No node serves these sites yet').length).toBeGreaterThan(0), {
      timeout: 10_000,
    });
  });

  it('pages the per-domain totals on the server and downloads them as CSV', async () => {
    stubStatistics(api, 'user');
    api.on(userStatisticsList, (request) => {
      const { page } = request.body as { page: number };
      return okPage(
        [
          {
            domainID: page,
            domain: `d${page}.example`,
            siteID: 3,
            siteName: 'shop',
            requests: 1000,
            bytesOut: 3_000_000,
            bytesIn: 0,
            hitRequests: 0,
            blocked: 2,
            s4xx: 1,
            s5xx: 0,
          },
        ],
        25,
      );
    });
    api.on(userStatisticsExport, {
      status: 200,
      text: 'domain,requests\n',
      headers: { 'Content-Disposition': 'attachment; filename="statistics-2026.csv"' },
    });
    const createObjectURL = vi.fn(() => 'blob:csv');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderAt(PAGE);
    const list = await screen.findByTestId('domain-totals', {}, { timeout: 10_000 });
    expect(await within(list).findByText('d1.example')).toBeTruthy();
    expect(within(list).getByText('3.00 MB')).toBeTruthy();
    fireEvent.click(within(list).getByTitle('2'));
    expect(await within(list).findByText('d2.example')).toBeTruthy();
    expect(bodies<{ page: number }>(api, userStatisticsList).at(-1)?.page).toBe(2);

    fireEvent.click(buttonByText('Export', list));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(bodies(api, userStatisticsExport)[0]).toMatchObject({ sortBy: 'requests', orderBy: 'desc' });
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('statistics-2026.csv');
    click.mockRestore();
  });
});

describe('operator statistics', () => {
  beforeEach(() => {
    restoreFakeApi();
    api = signedInFakeApi('client');
    api.on(metaZones, ok([{ id: 2, name: 'Europe' }]));
    api.on(metaSites, ok([{ id: 9, name: 'acme' }]));
    api.on(metaClientDomains, ok([]));
    api.on(clientDomainTags, ok(['eu']));
    stubStatistics(api, 'client');
  });

  it('filters by zone on the operator prefix', async () => {
    renderAt('/client/dataAnalysis/statistics');
    await screen.findByTestId('card-3', {}, { timeout: 10_000 });
    await chooseOption(document.body, 'Zones', 'Europe');
    await waitFor(() => expect(bodies<{ zoneIDs?: number[] }>(api, clientStatisticsInfo).at(-1)?.zoneIDs).toEqual([2]));
    await chooseOption(document.body, 'Sites', 'acme');
    await waitFor(() =>
      expect(bodies(api, clientStatisticsTimeSeries).at(-1)).toMatchObject({ zoneIDs: [2], siteIDs: [9] }),
    );
    expect(api.sent(userStatisticsInfo)).toHaveLength(0);
  });

  it('is not in the menu of an operator without the statistics, log and log push permissions', async () => {
    const permissions = selfInfo('client').permissions.filter(
      (key) => !['client.statistics.read', 'client.logs.read', 'client.logPush.read'].includes(key),
    );
    api.on(getSelf, { auth: 'client' }, ok(selfInfo('client', { isRoot: false, permissions })));
    renderAt('/client/dashboard');
    expect(await screen.findByTestId('account-summary', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByText('Data analysis')).toBeNull();
    expect(screen.queryByTestId('dashboard-analysis')).toBeNull();
  });
});
