import {
  accountRoutes,
  clientCreateLogPushEvent,
  clientListLogPushEvents,
  clientLogPushLogs,
  getSelf,
  type LogPushEvent,
  type LogPushLog,
  metaUserSites,
  metaZones,
  tierPermissions,
  userCreateLogPushEvent,
  userDeleteLogPushEvents,
  userListLogPushEvents,
  userLogPushLogs,
  userManualLogPush,
  userTestLogPush,
  userUpdateLogPushEvent,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../i18n/i18n';
import { type FakeApi, fail, ok, okPage, restoreFakeApi, selfInfo, signedInFakeApi } from '../../test/fake-api';
import { chooseOption, clickButton, findModal, findPopconfirm, findRow, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

vi.setConfig({ testTimeout: 30_000 });

const PAGE = '/user/dataAnalysis/logPush';
let api: FakeApi;

const event = (over: Partial<LogPushEvent>): LogPushEvent => ({
  id: 1,
  userID: 7,
  name: 'to-siem',
  enabled: true,
  type: 'access',
  siteIDs: [3],
  zoneIDs: [],
  filters: { statusClasses: ['5xx'], methods: [], domains: [] },
  destination: {
    kind: 'syslog',
    host: 'logs.example.com',
    port: 6514,
    transport: 'tls',
    appName: 'rampart',
    hasSecret: false,
  },
  state: 'active',
  lastError: null,
  lastDeliveredAt: '2026-11-24T10:00:00.000Z',
  createdAt: '2026-11-20T08:00:00.000Z',
  updatedAt: '2026-11-24T09:00:00.000Z',
  ...over,
});
const syslog = event({});
const hook = event({
  id: 2,
  name: 'hook',
  siteIDs: [],
  filters: { statusClasses: [], methods: ['POST'], domains: ['www.shop.example'] },
  destination: { kind: 'webhook', url: 'https://hooks.example.com/rampart', headerName: 'X-Token', hasSecret: true },
  state: 'dead',
  lastError: 'connection refused',
});
const log = (over: Partial<LogPushLog>): LogPushLog => ({
  id: 5,
  eventID: 1,
  userID: 7,
  eventName: 'to-siem',
  createdAt: '2026-11-24T10:00:00.000Z',
  status: 'delivered',
  attempt: 1,
  records: 1200,
  bytes: 4096,
  error: null,
  rangeStart: '2026-11-24T09:59:00.000Z',
  rangeEnd: '2026-11-24T10:00:00.000Z',
  manual: false,
  ...over,
});

beforeEach(() => {
  api = signedInFakeApi('user');
  api.on(metaUserSites, ok([{ id: 3, name: 'shop' }]));
  api.on(userListLogPushEvents, okPage([syslog, hook], 2));
  api.on(
    userLogPushLogs,
    okPage([log({}), log({ id: 6, status: 'dead', attempt: 8, records: 3, error: 'timeout' })], 2),
  );
});
afterEach(() => restoreFakeApi());

/** The body of the last request that reached `route`. */
const lastBody = (route: Parameters<FakeApi['sent']>[0]) => api.sent(route).at(-1)?.body;

describe('dataAnalysis/logPush: push events', () => {
  it('lists the events paged on the server with scope, destination and state', async () => {
    renderAt(`${PAGE}?page=2&pageSize=25`);
    const row = await findRow('to-siem');
    expect(within(row).getByText('Access log · shop')).toBeTruthy();
    expect(within(row).getByText('syslog tls logs.example.com:6514')).toBeTruthy();
    expect(within(row).getByText('Active')).toBeTruthy();
    const dead = await findRow('hook');
    expect(within(dead).getByText('Access log · All sites')).toBeTruthy();
    expect(within(dead).getByText('webhook https://hooks.example.com/rampart')).toBeTruthy();
    expect(within(dead).getByText('Stopped')).toBeTruthy();
    expect(screen.getByText('2 of 10 push events')).toBeTruthy();
    const sent = api.sent(userListLogPushEvents)[0]?.search;
    expect([sent?.get('page'), sent?.get('pageSize')]).toEqual(['2', '25']);
  });

  const kinds: [string, (dialog: HTMLElement) => Promise<void>, Record<string, unknown>][] = [
    [
      'Webhook (HTTP or HTTPS)',
      async (dialog) => {
        typeInto(dialog, 'URL', 'https://hooks.example.com/rampart');
        typeInto(dialog, 'Signing secret', 's3cret');
        typeInto(dialog, 'Extra header name', 'X-Token');
        typeInto(dialog, 'Extra header value', 'abc');
      },
      {
        kind: 'webhook',
        url: 'https://hooks.example.com/rampart',
        secret: 's3cret',
        headerName: 'X-Token',
        headerValue: 'abc',
      },
    ],
    [
      'Syslog server',
      async (dialog) => {
        await within(dialog).findByLabelText('Host');
        typeInto(dialog, 'Host', 'logs.example.com');
        typeInto(dialog, 'Port', '514');
        fireEvent.click(within(dialog).getByLabelText('UDP'));
      },
      { kind: 'syslog', host: 'logs.example.com', port: 514, transport: 'udp', appName: 'rampart' },
    ],
    [
      'Elasticsearch or OpenSearch',
      async (dialog) => {
        await within(dialog).findByLabelText('Index');
        typeInto(dialog, 'URL', 'https://es.example.com:9200');
        typeInto(dialog, 'Index', 'rampart-access');
        typeInto(dialog, 'User name', 'elastic');
        typeInto(dialog, 'Password', 'pw');
      },
      {
        kind: 'elasticsearch',
        url: 'https://es.example.com:9200',
        index: 'rampart-access',
        username: 'elastic',
        password: 'pw',
      },
    ],
    [
      'Splunk HTTP Event Collector',
      async (dialog) => {
        await within(dialog).findByLabelText('Collector token');
        typeInto(dialog, 'URL', 'https://splunk.example.com:8088');
        typeInto(dialog, 'Collector token', 'tok-1');
        typeInto(dialog, 'Index', 'main');
        typeInto(dialog, 'Source type', 'rampart:access');
      },
      {
        kind: 'splunk',
        url: 'https://splunk.example.com:8088',
        token: 'tok-1',
        index: 'main',
        sourcetype: 'rampart:access',
      },
    ],
  ];

  it.each(kinds)('creates an event pushing to “%s”, sending the contract’s body', async (label, fill, destination) => {
    api.on(userCreateLogPushEvent, ok(event({ id: 9, name: 'new' })));
    renderAt(PAGE);
    await findRow('to-siem');
    clickButton('New push event');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'new');
    await chooseOption(dialog, 'Sites', 'shop');
    fireEvent.click(within(dialog).getByLabelText('5xx'));
    await chooseOption(dialog, 'Destination', label);
    await fill(dialog);
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(userCreateLogPushEvent)).toHaveLength(1));
    expect(lastBody(userCreateLogPushEvent)).toEqual({
      name: 'new',
      enabled: true,
      type: 'access',
      siteIDs: [3],
      filters: { statusClasses: ['5xx'], methods: [], domains: [] },
      destination,
    });
  });

  it('refuses a bad destination in the form before sending', async () => {
    renderAt(PAGE);
    await findRow('to-siem');
    clickButton('New push event');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'bad');
    typeInto(dialog, 'URL', 'ftp://hooks.example.com');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(/URL/, { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    expect(api.sent(userCreateLogPushEvent)).toHaveLength(0);
  });

  it('names every bad method and domain of the filters with its place before sending', async () => {
    renderAt(PAGE);
    await findRow('to-siem');
    clickButton('New push event');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'bad');
    const methods = within(dialog).getByLabelText('Methods');
    fireEvent.change(methods, { target: { value: 'get1' } });
    fireEvent.keyDown(methods, { key: 'Enter', code: 'Enter', keyCode: 13 });
    const domains = within(dialog).getByLabelText('Domains');
    fireEvent.change(domains, { target: { value: 'bad_name,www.shop.example,-x-.example,' } });
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(/^Method 1 \(GET1\): /)).toBeTruthy();
    expect(within(dialog).getByText(/^Domain 1 \(bad_name\): /)).toBeTruthy();
    expect(within(dialog).getByText(/^Domain 3 \(-x-\.example\): /)).toBeTruthy();
    expect(within(dialog).queryByText(/^(Method|Domain) 2 /)).toBeNull();
    expect(api.sent(userCreateLogPushEvent)).toHaveLength(0);
  });

  it('hides the scope and filters for the audit log and sends none', async () => {
    api.on(userCreateLogPushEvent, ok(event({ id: 9, type: 'audit', siteIDs: [] })));
    renderAt(PAGE);
    await findRow('to-siem');
    clickButton('New push event');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'audit');
    await chooseOption(dialog, 'Sites', 'shop');
    fireEvent.click(within(dialog).getByLabelText('4xx'));
    fireEvent.click(within(dialog).getByLabelText('Audit log'));
    await waitFor(() => expect(within(dialog).queryByLabelText('Sites')).toBeNull());
    expect(within(dialog).queryByLabelText('5xx')).toBeNull();
    expect(within(dialog).queryByLabelText('Methods')).toBeNull();
    expect(
      within(dialog).getByText('The audit log is this account’s own: it has no scope and no filters.'),
    ).toBeTruthy();
    typeInto(dialog, 'URL', 'https://hooks.example.com/audit');
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(userCreateLogPushEvent)).toHaveLength(1));
    expect(lastBody(userCreateLogPushEvent)).toEqual({
      name: 'audit',
      enabled: true,
      type: 'audit',
      siteIDs: [],
      filters: { statusClasses: [], methods: [], domains: [] },
      destination: { kind: 'webhook', url: 'https://hooks.example.com/audit' },
    });
  });

  it('shows 101029 with the limit', async () => {
    api.on(userCreateLogPushEvent, fail(422, 101029, 'number of items exceeds limit', { max: 10 }));
    renderAt(PAGE);
    await findRow('to-siem');
    clickButton('New push event');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'eleventh');
    typeInto(dialog, 'URL', 'https://hooks.example.com/11');
    clickButton('OK', dialog);
    expect(
      await screen.findByText('number of items exceeds limit: an account has at most 10 push events'),
    ).toBeTruthy();
  });

  it('edits an event, keeping its secrets when their fields are left empty', async () => {
    api.on(userUpdateLogPushEvent, ok({ ...hook, name: 'hook-2' }));
    renderAt(PAGE);
    clickButton('Edit', await findRow('hook'));
    const dialog = await findModal();
    expect(within(dialog).getByText('Edit push event')).toBeTruthy();
    expect(
      within(dialog).getByText(
        'This event stopped after a batch kept failing; saving it starts pushing again from that batch.',
      ),
    ).toBeTruthy();
    expect((within(dialog).getByLabelText('URL') as HTMLInputElement).value).toBe('https://hooks.example.com/rampart');
    expect((within(dialog).getByLabelText('Signing secret') as HTMLInputElement).value).toBe('');
    expect(within(dialog).getAllByText('A value is stored: leave this empty to keep it.')).toHaveLength(2);
    typeInto(dialog, 'Name', 'hook-2');
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(userUpdateLogPushEvent)).toHaveLength(1));
    expect(lastBody(userUpdateLogPushEvent)).toEqual({
      id: 2,
      name: 'hook-2',
      enabled: true,
      type: 'access',
      siteIDs: [],
      filters: { statusClasses: [], methods: ['POST'], domains: ['www.shop.example'] },
      destination: { kind: 'webhook', url: 'https://hooks.example.com/rampart', headerName: 'X-Token' },
    });
  });

  it('switches an event off with its settings as they are', async () => {
    api.on(userUpdateLogPushEvent, ok({ ...syslog, enabled: false }));
    renderAt(PAGE);
    const row = await findRow('to-siem');
    fireEvent.click(within(row).getByRole('switch'));
    await waitFor(() => expect(api.sent(userUpdateLogPushEvent)).toHaveLength(1));
    expect(lastBody(userUpdateLogPushEvent)).toEqual({
      id: 1,
      name: 'to-siem',
      enabled: false,
      type: 'access',
      siteIDs: [3],
      filters: { statusClasses: ['5xx'], methods: [], domains: [] },
      destination: { kind: 'syslog', host: 'logs.example.com', port: 6514, transport: 'tls', appName: 'rampart' },
    });
  });

  it('deletes an event after asking', async () => {
    api.on(userDeleteLogPushEvents, ok(true));
    renderAt(PAGE);
    clickButton('Delete', await findRow('hook'));
    const confirm = await findPopconfirm('Delete push event hook and its delivery log?');
    clickButton('Delete', confirm);
    await waitFor(() => expect(lastBody(userDeleteLogPushEvents)).toEqual({ ids: [2] }));
  });

  it('pushes a time range again, refusing one over 31 days', async () => {
    api.on(userManualLogPush, ok(true));
    renderAt(PAGE);
    clickButton('Push a time range', await findRow('to-siem'));
    const dialog = await findModal();
    expect(within(dialog).getByText('Push a time range again: to-siem')).toBeTruthy();
    typeInto(dialog, 'From', '2026-10-01T00:00');
    typeInto(dialog, 'To', '2026-11-21T00:00');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('The time range is too long')).toBeTruthy();
    expect(api.sent(userManualLogPush)).toHaveLength(0);
    typeInto(dialog, 'From', '2026-11-20T00:00');
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(userManualLogPush)).toHaveLength(1));
    expect(lastBody(userManualLogPush)).toEqual({
      id: 1,
      startTime: new Date('2026-11-20T00:00').toISOString(),
      endTime: new Date('2026-11-21T00:00').toISOString(),
    });
    expect(await screen.findByText('Push queued')).toBeTruthy();
  });

  it('sends a test record and says whether the destination took it', async () => {
    api.on(userTestLogPush, (request) =>
      (request.body as { id: number }).id === 1
        ? ok({ ok: true, error: null, ms: 42 })
        : ok({ ok: false, error: 'connect ECONNREFUSED 203.0.113.5:443', ms: 3 }),
    );
    renderAt(PAGE);
    clickButton('Send a test', await findRow('to-siem'));
    expect(await screen.findByText('The destination took the test record (42 ms).')).toBeTruthy();
    clickButton('Send a test', await findRow('hook'));
    expect(await screen.findByText('The test record was not taken: connect ECONNREFUSED 203.0.113.5:443')).toBeTruthy();
    expect(api.sent(userTestLogPush).map((r) => r.body)).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('offers no writes to an account without the write key', async () => {
    const permissions = tierPermissions('user').filter((key) => key !== 'user.logPush.write');
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { isRoot: false, permissions })));
    renderAt(PAGE);
    const row = await findRow('to-siem');
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(within(row).queryByRole('switch')).toBeNull();
    expect(within(row).queryByText('Edit')).toBeNull();
    expect(within(row).queryByText('Delete')).toBeNull();
    expect(within(row).queryByText('Push a time range')).toBeNull();
    expect(screen.queryByText('New push event')).toBeNull();
  });

  it('is in the menu after Log export, for an account that may read log push', async () => {
    renderAt(PAGE);
    const nav = within(await screen.findByRole('menu', { name: 'Navigation' }));
    const links = nav.getAllByRole('link').map((a) => a.textContent);
    expect(links.indexOf('Log push')).toBe(links.indexOf('Log export') + 1);
    expect(nav.getByRole('link', { name: 'Log push' }).getAttribute('href')).toBe(PAGE);
  });

  it('shows the list in zh_CN', async () => {
    await i18n.changeLanguage('zh_CN'); // the setup file sets English back before each test
    renderAt(PAGE);
    const row = await findRow('to-siem');
    expect(within(row).getByText('系统日志 tls logs.example.com:6514')).toBeTruthy();
    expect(within(row).getByText('推送中')).toBeTruthy();
    expect(within(row).getByText('访问日志 · shop')).toBeTruthy();
    expect(within(await findRow('hook')).getByText('已停止')).toBeTruthy();
    expect(screen.getByRole('tab', { name: '推送记录' })).toBeTruthy();
    expect(screen.getByText('新建推送任务')).toBeTruthy();
  });
});

describe('dataAnalysis/logPush: delivery log', () => {
  it('takes its filters from the URL and sends them as the query', async () => {
    renderAt(`${PAGE}?tab=logs&eventID=1&status=dead&createdAtStart=2026-11-20T00%3A00%3A00.000Z&ID=6`);
    const row = await findRow('timeout');
    expect(within(row).getByText('Dead')).toBeTruthy();
    expect(within(row).getByText('to-siem')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Delivery log', selected: true })).toBeTruthy();
    const sent = api.sent(userLogPushLogs).at(-1)?.search;
    expect(Object.fromEntries(sent ?? [])).toEqual({
      page: '1',
      pageSize: '10',
      eventID: '1',
      status: 'dead',
      createdAtStart: '2026-11-20T00:00:00.000Z',
      ID: '6',
    });
    expect((screen.getByLabelText('Log ID') as HTMLInputElement).value).toBe('6');
    // The event filter names the event the URL's id stands for.
    await waitFor(() => expect(document.querySelector('.ant-select-content[title="to-siem"]')).not.toBeNull());
  });

  it('puts the filters typed in the URL when searching', async () => {
    const router = renderAt(`${PAGE}?tab=logs`);
    await findRow('timeout');
    const delivered = await findRow('1,200');
    expect(within(delivered).getAllByText('Delivered').length).toBeGreaterThan(0);
    await chooseOption(document.body, 'Status', 'Delivered');
    typeInto(document.body, 'From', '2026-11-20T00:00');
    clickButton('Search');
    await waitFor(() => expect(api.sent(userLogPushLogs).at(-1)?.search.get('status')).toBe('delivered'));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('status')).toBe('delivered');
    expect(params.get('createdAtStart')).toBe(new Date('2026-11-20T00:00').toISOString());
    expect(api.sent(userLogPushLogs).at(-1)?.search.get('createdAtStart')).toBe(
      new Date('2026-11-20T00:00').toISOString(),
    );
    expect(api.sent(userLogPushLogs).at(-1)?.search.has('userID')).toBe(false);
  });
});

describe("the operator's logPush page", () => {
  beforeEach(() => {
    restoreFakeApi();
    api = signedInFakeApi('client');
    api.on(metaZones, ok([{ id: 2, name: 'Europe' }]));
    api.on(clientListLogPushEvents, okPage([event({ userID: 1, siteIDs: [], zoneIDs: [2] })], 1));
    api.on(clientLogPushLogs, okPage([log({ userID: 42, eventName: 'customer-hook' })], 1));
    api.on(accountRoutes.listAccounts, { auth: 'client' }, okPage([]));
  });

  it('scopes events by zones and creates one on the zones chosen', async () => {
    api.on(clientCreateLogPushEvent, ok(event({ id: 9, zoneIDs: [2], siteIDs: [] })));
    renderAt('/client/dataAnalysis/logPush');
    const row = await findRow('to-siem');
    expect(within(row).getByText('Access log · Europe')).toBeTruthy();
    clickButton('New push event');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'zone-hook');
    await chooseOption(dialog, 'Zones', 'Europe');
    typeInto(dialog, 'URL', 'https://hooks.example.com/zones');
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(clientCreateLogPushEvent)).toHaveLength(1));
    expect(lastBody(clientCreateLogPushEvent)).toEqual({
      name: 'zone-hook',
      enabled: true,
      type: 'access',
      zoneIDs: [2],
      filters: { statusClasses: [], methods: [], domains: [] },
      destination: { kind: 'webhook', url: 'https://hooks.example.com/zones' },
    });
  });

  it('filters the delivery log by customer', async () => {
    renderAt('/client/dataAnalysis/logPush?tab=logs&userID=42');
    await findRow('customer-hook');
    expect(api.sent(clientLogPushLogs).at(-1)?.search.get('userID')).toBe('42');
    expect(screen.getByLabelText('Customer')).toBeTruthy();
  });
});
