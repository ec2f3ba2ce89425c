import {
  clientAccessLogs,
  getSelf,
  type LogRecord,
  metaSites,
  metaUserSites,
  metaZones,
  tierPermissions,
  userAccessLogs,
  userDomainsMeta,
  userDomainsTags,
  userWafLogs,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../components/DateTime';
import { i18n } from '../../i18n/i18n';
import { type FakeApi, logPage, ok, restoreFakeApi, selfInfo, signedInFakeApi } from '../../test/fake-api';
import { buttonByText, chooseOption, findRow } from '../../test/queries';
import { renderAt } from '../../test/render-app';
import { bodies } from '../../test/statistics';

vi.setConfig({ testTimeout: 30_000 });

const PAGE = '/user/dataAnalysis/logger';
let api: FakeApi;

const record = (over: Partial<LogRecord>): LogRecord => ({
  reqID: 'edge-1-1-1-1',
  time: '2026-11-24T10:00:00.000Z',
  nodeID: 2,
  zoneID: 1,
  siteID: 3,
  domainID: 31,
  host: 'www.shop.example',
  ip: '198.51.100.7',
  country: 'DE',
  method: 'GET',
  scheme: 'https',
  httpVersion: '2',
  url: '/index.html',
  status: 200,
  bytesIn: 300,
  bytesOut: 5000,
  requestMs: 12,
  upstreamMs: 10,
  upstreamStatus: 200,
  cacheStatus: 'MISS',
  userAgent: 'Mozilla/5.0',
  referer: '',
  fwKind: '',
  fwRule: 0,
  fwAction: '',
  wafPart: '',
  wafExcerpt: '',
  wafName: '',
  ...over,
});
const attack = record({
  reqID: 'edge-1-1-1-2',
  ip: '203.0.113.9',
  url: "/search?q=1' union select 1--",
  status: 403,
  fwKind: 'waf',
  fwRule: 100_012,
  fwAction: 'deny',
  wafPart: 'query',
  wafExcerpt: "1' union select 1--",
});

beforeEach(() => {
  api = signedInFakeApi('user');
  api.on(metaUserSites, ok([{ id: 3, name: 'shop' }]));
  api.on(userDomainsMeta, ok([{ id: 31, name: 'www.shop.example', siteID: 3 }]));
  api.on(userDomainsTags, ok([]));
  api.on(userAccessLogs, logPage([record({}), attack], 57));
  api.on(userWafLogs, logPage([attack], 1));
});
afterEach(() => restoreFakeApi());

const span = (body: { startTime: string; endTime: string }) => Date.parse(body.endTime) - Date.parse(body.startTime);

describe('dataAnalysis/logger', () => {
  it('lists the last hour of requests a page at a time, and opens a record to its whole event', async () => {
    renderAt(PAGE);
    const row = await findRow('/index.html');
    expect(within(row).getByText('198.51.100.7')).toBeTruthy();
    expect(screen.getByText('57 in total')).toBeTruthy();
    const [first] = bodies<{ startTime: string; endTime: string; page: number; pageSize: number }>(api, userAccessLogs);
    expect(first && span(first)).toBe(3_600_000);
    expect(first).toMatchObject({ page: 1, pageSize: 10 });
    const blocked = await findRow("/search?q=1' union select 1--");
    expect(within(blocked).getByText('WAF #100012 (SQL injection) · Denied')).toBeTruthy();
    fireEvent.click(within(blocked).getByText("/search?q=1' union select 1--"));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText("1' union select 1--")).toBeTruthy();
    expect(within(drawer).getByText('Query')).toBeTruthy();
    expect(within(drawer).getByText('203.0.113.9 (DE)')).toBeTruthy();
  });

  it("names an origin's failure in the decision column instead of a dash", async () => {
    api.on(
      userAccessLogs,
      logPage([
        record({ reqID: 'edge-1-1-1-3', url: '/down', status: 502, upstreamStatus: 502, upstreamMs: 0 }),
        record({ reqID: 'edge-1-1-1-4', url: '/slow', status: 504, upstreamStatus: 504, upstreamMs: 60_000 }),
        // The edge's own 502 with no origin answer behind it is no origin's failure.
        record({ reqID: 'edge-1-1-1-5', url: '/edge', status: 502, upstreamStatus: 0, upstreamMs: -1 }),
      ]),
    );
    renderAt(PAGE);
    expect(
      within(await findRow('/down')).getByText('Origin failed (502): not reached, or no valid answer'),
    ).toBeTruthy();
    expect(within(await findRow('/slow')).getByText('Origin timed out (504)')).toBeTruthy();
    expect(within(await findRow('/edge')).getByText('—')).toBeTruthy();
  });

  it('shows a collapsed flood as one row that says what it counts, its record opening on the first request', async () => {
    const flood = record({
      reqID: 'edge-1-1-1-9',
      time: '2026-11-24T10:02:59.000Z',
      ip: '203.0.113.7',
      url: '/wp-login.php',
      status: 403,
      fwKind: 'blacklist',
      fwRule: 4,
      fwAction: 'deny',
      collapsed: { count: 12_400, first: '2026-11-24T10:02:00.500Z', last: '2026-11-24T10:02:59.000Z' },
    });
    api.on(userAccessLogs, logPage([flood, record({})], 2));
    renderAt(PAGE);
    const text = '12,400 requests from 203.0.113.7 refused by Blacklist #4 · Denied in this minute';
    const row = await findRow(text);
    fireEvent.click(within(row).getByText(text));
    const drawer = within(await screen.findByRole('dialog'));
    expect(drawer.getByText('12,400')).toBeTruthy();
    expect(drawer.getByText('/wp-login.php')).toBeTruthy();
    expect(drawer.getByText('edge-1-1-1-9')).toBeTruthy();
  });

  it("says which sites' requests were sampled, at what rate and when", async () => {
    const sampled = [
      { siteID: 3, rate: 8, start: '2026-11-24T14:02:00.000Z', end: '2026-11-24T14:05:00.000Z' },
      { siteID: 9, rate: 3, start: '2026-11-24T14:07:00.000Z', end: '2026-11-24T14:08:00.000Z' },
    ];
    api.on(userAccessLogs, logPage([record({})], 1, sampled));
    renderAt(PAGE);
    await findRow('/index.html');
    const notice = within(screen.getByTestId('log-sampled'));
    const at = (iso: string) => formatDateTime(iso, 'en_US');
    expect(
      await notice.findByText(`shop: 1 in 8 requests kept between ${at(sampled[0]!.start)} and ${at(sampled[0]!.end)}`),
    ).toBeTruthy();
    // A site the caller's list does not name (gone since) by its id.
    expect(
      notice.getByText(`#9: 1 in 3 requests kept between ${at(sampled[1]!.start)} and ${at(sampled[1]!.end)}`),
    ).toBeTruthy();
  });

  it.each([
    ['zh_CN', '每 8 个请求保留 1 个'],
    ['zh_TW', '每 8 個請求保留 1 個'],
  ] as const)('says the sampling in %s', async (locale, text) => {
    await i18n.changeLanguage(locale); // the setup file sets English back before each test
    api.on(
      userAccessLogs,
      logPage([record({})], 1, [
        { siteID: 3, rate: 8, start: '2026-11-24T14:02:00.000Z', end: '2026-11-24T14:05:00.000Z' },
      ]),
    );
    renderAt(PAGE);
    await findRow('/index.html');
    const notice = within(screen.getByTestId('log-sampled'));
    expect(await notice.findByText(new RegExp(`^shop：.*${text}$`))).toBeTruthy();
  });

  it('shows no sampling notice when every request was logged', async () => {
    api.on(userAccessLogs, logPage([record({})], 1));
    renderAt(PAGE);
    await findRow('/index.html');
    expect(screen.queryByTestId('log-sampled')).toBeNull();
  });

  it('sends the decision filter on the access log only', async () => {
    renderAt(PAGE);
    await findRow('/index.html');
    await chooseOption(document.body, 'Decision', 'Blacklist');
    fireEvent.click(buttonByText('Search'));
    await waitFor(() => expect(bodies(api, userAccessLogs).at(-1)).toMatchObject({ decision: 'blacklist' }));
    fireEvent.click(screen.getByRole('tab', { name: 'WAF log' }));
    await screen.findByTestId('log-waf');
    await waitFor(() => expect(api.sent(userWafLogs).length).toBeGreaterThan(0));
    expect(bodies<Record<string, unknown>>(api, userWafLogs).every((b) => b.decision === undefined)).toBe(true);
  });

  it('sends the typed filters when searching, and the WAF log its rule and action', async () => {
    renderAt(PAGE);
    await findRow('/index.html');
    fireEvent.change(screen.getByLabelText('Client IP'), { target: { value: ' 203.0.113.9 ' } });
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: "/search?q='" } });
    await chooseOption(document.body, 'URL match', 'Starts with');
    fireEvent.click(buttonByText('Search'));
    await waitFor(() =>
      expect(bodies(api, userAccessLogs).at(-1)).toMatchObject({
        ip: '203.0.113.9',
        url: "/search?q='",
        urlMatch: 'prefix',
      }),
    );
    fireEvent.click(screen.getByRole('tab', { name: 'WAF log' }));
    const wafLog = within(await screen.findByTestId('log-waf'));
    expect(await wafLog.findByText("1' union select 1--")).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Rule ID'), { target: { value: '100012' } });
    await chooseOption(document.body, 'Action', 'Detected only');
    fireEvent.click(buttonByText('Search'));
    await waitFor(() =>
      expect(bodies(api, userWafLogs).at(-1)).toMatchObject({ ruleId: 100_012, action: 'detect', ip: '203.0.113.9' }),
    );
    // The access log never gets the WAF's filters.
    expect(bodies<Record<string, unknown>>(api, userAccessLogs).every((b) => b.ruleId === undefined)).toBe(true);
  });

  it('names a status or rule out of range under its box and searches nothing, rather than changing it', async () => {
    renderAt(PAGE);
    await findRow('/index.html');
    await waitFor(() => expect(api.sent(userAccessLogs).length).toBeGreaterThan(0));
    const searches = api.sent(userAccessLogs).length;
    const status = screen.getByLabelText('Status') as HTMLInputElement;
    fireEvent.change(status, { target: { value: '1200' } });
    fireEvent.blur(status);
    fireEvent.click(buttonByText('Search'));
    expect(await screen.findByText('Must be at most 999')).toBeTruthy();
    expect(status.value).toBe('1200');
    expect(api.sent(userAccessLogs)).toHaveLength(searches);

    fireEvent.click(screen.getByRole('tab', { name: 'WAF log' }));
    await waitFor(() => expect(api.sent(userWafLogs).length).toBeGreaterThan(0));
    const wafSearches = api.sent(userWafLogs).length;
    const rule = screen.getByLabelText('Rule ID') as HTMLInputElement;
    fireEvent.change(rule, { target: { value: '0' } });
    fireEvent.blur(rule);
    fireEvent.click(buttonByText('Search'));
    expect(await screen.findByText('Must be at least 1')).toBeTruthy();
    expect(rule.value).toBe('0');
    expect(api.sent(userWafLogs)).toHaveLength(wafSearches);
  });

  it('takes its search from the URL, so a shared link opens the same search', async () => {
    renderAt(`${PAGE}?kind=waf&ip=203.0.113.9&ruleId=100012&url=%2Fsearch&urlMatch=prefix&page=2&pageSize=25`);
    await findRow("/search?q=1' union select 1--");
    expect(screen.getByRole('tab', { name: 'WAF log', selected: true })).toBeTruthy();
    expect((screen.getByLabelText('Client IP') as HTMLInputElement).value).toBe('203.0.113.9');
    expect(bodies(api, userWafLogs).at(-1)).toMatchObject({
      ip: '203.0.113.9',
      ruleId: 100_012,
      url: '/search',
      urlMatch: 'prefix',
      page: 2,
      pageSize: 25,
    });
    expect(api.sent(userAccessLogs)).toHaveLength(0);
  });

  it('is in the menu only for an account that may read logs', async () => {
    renderAt(PAGE);
    const nav = within(await screen.findByRole('menu', { name: 'Navigation' }));
    expect(nav.getByRole('link', { name: 'Logs' }).getAttribute('href')).toBe(PAGE);
    expect(nav.getByRole('link', { name: 'Statistics' })).toBeTruthy();
  });

  it('is not in the menu of an account without the key', async () => {
    const permissions = tierPermissions('user').filter((key) => key !== 'user.logs.read');
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { isRoot: false, permissions })));
    renderAt('/user/dataAnalysis/statistics');
    const nav = within(await screen.findByRole('menu', { name: 'Navigation' }));
    expect(nav.getByRole('link', { name: 'Statistics' })).toBeTruthy();
    expect(nav.queryByRole('link', { name: 'Logs' })).toBeNull();
  });

  it("is the operator's page too, on the operator's calls", async () => {
    restoreFakeApi();
    api = signedInFakeApi('client');
    api.on(metaSites, ok([]));
    api.on(metaZones, ok([]));
    api.on(clientAccessLogs, logPage([record({})], 1));
    renderAt('/client/dataAnalysis/logger');
    await findRow('/index.html');
    expect(api.sent(clientAccessLogs).length).toBeGreaterThan(0);
  });
});
