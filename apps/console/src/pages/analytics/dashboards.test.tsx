import {
  clientStatisticsTimeSeries,
  type DashboardWidget,
  DEFAULT_DASHBOARD_WIDGETS,
  getDefaultDashboard,
  getUserDashboard,
  metaUserSites,
  putUserDashboard,
  userDomainsMeta,
  userStatisticsInfo,
  userStatisticsTimeSeries,
  userStatisticsTop,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, ok, restoreFakeApi, signedInFakeApi } from '../../test/fake-api';
import { chooseOption, clickButton } from '../../test/queries';
import { renderAt } from '../../test/render-app';
import { bodies, card, series, stubStatistics } from '../../test/statistics';

vi.mock('../../features/statistics/EChartView', () => ({
  default: ({ label }: { label: string }) => <div data-testid="echart" role="img" aria-label={label} />,
}));
vi.setConfig({ testTimeout: 30_000 });

const HOUR_MS = 3_600_000;
const span = (body: { startTime: string; endTime: string }) => Date.parse(body.endTime) - Date.parse(body.startTime);
let api: FakeApi;

function setUp(tier: 'user' | 'client') {
  restoreFakeApi();
  api = signedInFakeApi(tier);
  api.on(metaUserSites, ok([]));
  api.on(userDomainsMeta, ok([]));
  stubStatistics(api, tier, {
    card: (type) => card(type, { requests: 5 }),
    series: (type, body) => series(type, body.minutesStep as number, body.startTime as string, [[3, 1]]),
  });
}

beforeEach(() => setUp('user'));
afterEach(() => restoreFakeApi());

const SAVED: DashboardWidget[] = [
  { kind: 'card', type: 3, x: 0, y: 0, w: 12, h: 2 },
  { kind: 'series', type: 1, x: 12, y: 0, w: 12, h: 4 },
];

const widgetsShown = () => screen.getAllByTestId('widget').map((w) => `${w.dataset.kind}:${w.dataset.type}`);

describe('dataAnalysis/statisticsCustomize', () => {
  it("draws the caller's saved layout on the grid over the last three hours", async () => {
    api.on(getUserDashboard, ok({ widgets: SAVED, saved: true }));
    renderAt('/user/dataAnalysis/statisticsCustomize');
    await waitFor(() => expect(screen.getAllByTestId('widget')).toHaveLength(2), { timeout: 10_000 });
    expect(widgetsShown()).toEqual(['card:3', 'series:1']);
    const [first, second] = screen.getAllByTestId('widget');
    expect(first?.style.gridColumn).toBe('1 / span 12');
    expect(second?.style.gridColumn).toBe('13 / span 12');
    expect(second?.style.gridRow).toBe('1 / span 4');
    await waitFor(() => expect(api.sent(userStatisticsTimeSeries).length).toBeGreaterThan(0));
    const seriesBody = bodies<{ minutesStep: number; startTime: string; endTime: string }>(
      api,
      userStatisticsTimeSeries,
    )[0];
    expect(span(seriesBody as { startTime: string; endTime: string })).toBe(3 * HOUR_MS);
    // Traffic widgets draw a point per 15 minutes (spec part 2 §9).
    expect(seriesBody?.minutesStep).toBe(15);
    expect(screen.queryByText('Default layout')).toBeNull();
  });

  it('adds, resizes, moves and removes widgets, then saves the layout laid out again', async () => {
    api.on(getUserDashboard, ok({ widgets: SAVED, saved: true }));
    api.on(putUserDashboard, ok(true));
    renderAt('/user/dataAnalysis/statisticsCustomize');
    await waitFor(() => expect(screen.getAllByTestId('widget')).toHaveLength(2), { timeout: 10_000 });
    clickButton('Edit layout');

    await chooseOption(document.body, 'Widget to add', 'Top URLs');
    clickButton('Add');
    await waitFor(() => expect(widgetsShown()).toEqual(['card:3', 'series:1', 'top:19']));

    const top = screen.getAllByTestId('widget')[2] as HTMLElement;
    await chooseOption(top, 'Width', '24 columns');
    const moved = screen.getAllByTestId('widget')[2] as HTMLElement;
    fireEvent.click(within(moved).getByLabelText('Move up'));
    await waitFor(() => expect(widgetsShown()).toEqual(['card:3', 'top:19', 'series:1']));
    fireEvent.click(within(screen.getAllByTestId('widget')[0] as HTMLElement).getByLabelText('Remove'));
    await waitFor(() => expect(widgetsShown()).toEqual(['top:19', 'series:1']));

    clickButton('Save');
    await waitFor(() => expect(api.sent(putUserDashboard)).toHaveLength(1));
    expect(api.sent(putUserDashboard)[0]?.body).toEqual({
      widgets: [
        { kind: 'top', type: 19, x: 0, y: 0, w: 24, h: 4 },
        { kind: 'series', type: 1, x: 0, y: 4, w: 12, h: 4 },
      ],
    });
    expect(await screen.findByText('Update Success')).toBeTruthy();
    expect(screen.queryByText('Add')).toBeNull();
  });

  it('resets to the default layout, which Save then stores', async () => {
    api.on(getUserDashboard, ok({ widgets: SAVED, saved: true }));
    api.on(getDefaultDashboard, ok({ widgets: DEFAULT_DASHBOARD_WIDGETS, saved: false }));
    api.on(putUserDashboard, ok(true));
    renderAt('/user/dataAnalysis/statisticsCustomize');
    await waitFor(() => expect(screen.getAllByTestId('widget')).toHaveLength(2), { timeout: 10_000 });
    clickButton('Edit layout');
    clickButton('Reset to default');
    await waitFor(() => expect(screen.getAllByTestId('widget')).toHaveLength(DEFAULT_DASHBOARD_WIDGETS.length));
    expect(api.sent(putUserDashboard)).toHaveLength(0);
    clickButton('Save');
    await waitFor(() => expect(api.sent(putUserDashboard)).toHaveLength(1));
    // The default is laid out as the editor lays out: it comes back unchanged.
    expect(api.sent(putUserDashboard)[0]?.body).toEqual({ widgets: DEFAULT_DASHBOARD_WIDGETS });
  });

  it('says a layout that is still the default is one', async () => {
    api.on(getUserDashboard, ok({ widgets: [], saved: false }));
    renderAt('/user/dataAnalysis/statisticsCustomize');
    expect(await screen.findByText('Default layout', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('This dashboard has no widget yet: edit the layout to add some.')).toBeTruthy();
  });
});

describe('dataAnalysis/securityAnalysis', () => {
  it('covers six hours with the block cards, hourly blacklist and WAF series and 20-row WAF tops', async () => {
    renderAt('/user/dataAnalysis/securityAnalysis');
    await screen.findByTestId('card-14', {}, { timeout: 10_000 });
    await waitFor(() => expect(api.sent(userStatisticsTop).length).toBeGreaterThanOrEqual(9));
    const cards = bodies<{ type: number; startTime: string; endTime: string }>(api, userStatisticsInfo).filter(
      (b) => span(b) === 6 * HOUR_MS,
    );
    expect(cards.map((b) => b.type).sort((a, b) => a - b)).toEqual([14, 15]);
    const steps = Object.fromEntries(
      bodies<{ type: number; minutesStep: number }>(api, userStatisticsTimeSeries).map((b) => [b.type, b.minutesStep]),
    );
    expect(steps).toEqual({ 2: 60, 12: 60, 13: 60 });
    const tops = Object.fromEntries(
      bodies<{ type: number; top: number }>(api, userStatisticsTop).map((b) => [b.type, b.top]),
    );
    expect(tops).toEqual({ 14: 10, 18: 10, 19: 10, 20: 10, 21: 30, 22: 30, 23: 20, 24: 20, 25: 20 });
    const passDrop = screen.getByTestId('series-2');
    const summary = await within(passDrop).findByTestId('series-summary');
    expect(summary.textContent).toContain('allowed traffic: 3');
    expect(summary.textContent).toContain('blocked traffic: 1');
  });
});

describe('dashboard traffic analysis', () => {
  it('charts the last 24 hours by 15 minutes, or the last 30 days by day, in tabs', async () => {
    setUp('client');
    renderAt('/client/dashboard');
    const analysis = await screen.findByTestId('dashboard-analysis', {}, { timeout: 10_000 });
    await waitFor(() => expect(api.sent(clientStatisticsTimeSeries).length).toBe(6));
    const day = bodies<{ type: number; minutesStep: number; startTime: string; endTime: string }>(
      api,
      clientStatisticsTimeSeries,
    );
    expect(day.map((b) => b.type).sort((a, b) => a - b)).toEqual([1, 3, 4, 5, 6, 7]);
    expect(new Set(day.map((b) => `${span(b) / HOUR_MS}h/${b.minutesStep}`))).toEqual(new Set(['24h/15']));

    fireEvent.click(within(analysis).getByText('Last 30 days'));
    await waitFor(() => expect(api.sent(clientStatisticsTimeSeries).length).toBe(12));
    expect(
      new Set(
        bodies<{ minutesStep: number; startTime: string; endTime: string }>(api, clientStatisticsTimeSeries)
          .slice(6)
          .map((b) => `${span(b) / HOUR_MS}h/${b.minutesStep}`),
      ),
    ).toEqual(new Set(['720h/1440']));

    fireEvent.click(within(analysis).getByText('WAF analysis'));
    expect(await within(analysis).findByTestId('card-15')).toBeTruthy();
    await waitFor(() =>
      expect(bodies<{ type: number }>(api, clientStatisticsTimeSeries).some((b) => b.type === 13)).toBe(true),
    );
    fireEvent.click(within(analysis).getByText('Blacklist analysis'));
    expect(await within(analysis).findByTestId('top-18')).toBeTruthy();
  });
});
