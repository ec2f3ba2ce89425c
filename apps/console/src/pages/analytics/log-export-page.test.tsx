import {
  clientAccessLogs,
  clientLogExportRoutes,
  createLogExport,
  deleteLogExports,
  downloadLogExport,
  getSelf,
  type LogExport,
  listLogExports,
  metaSites,
  metaUserSites,
  metaZones,
  retryLogExports,
  tierPermissions,
  userAccessLogs,
  userDomainsMeta,
  userDomainsTags,
  userWafLogs,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type FakeApi,
  fail,
  logPage,
  ok,
  okPage,
  restoreFakeApi,
  selfInfo,
  signedInFakeApi,
} from '../../test/fake-api';
import { buttonByText, chooseOption, findModal, findPopconfirm, findRow } from '../../test/queries';
import { renderAt } from '../../test/render-app';

vi.setConfig({ testTimeout: 30_000 });

const PAGE = '/user/dataAnalysis/logExport';
let api: FakeApi;

const entry = (over: Partial<LogExport>): LogExport => {
  const filter = {
    startTime: '2026-11-24T00:00:00.000Z',
    endTime: '2026-11-25T00:00:00.000Z',
    urlMatch: 'contains' as const,
  };
  return {
    id: 1,
    type: 'access',
    format: 'csv',
    gzip: true,
    status: 'done',
    progress: 100,
    records: 12_345,
    bytes: 2048,
    fileName: 'access-log-20261124T000000Z-20261125T000000Z.csv.gz',
    error: null,
    startTime: filter.startTime,
    endTime: filter.endTime,
    filter,
    createdAt: '2026-11-25T01:00:00.000Z',
    startedAt: '2026-11-25T01:00:01.000Z',
    finishedAt: '2026-11-25T01:00:09.000Z',
    expiresAt: '2026-12-02T01:00:09.000Z',
    ...over,
  };
};
const done = entry({});
const running = entry({
  id: 2,
  type: 'waf',
  format: 'jsonl',
  gzip: false,
  status: 'running',
  progress: 40,
  records: 400,
  bytes: 0,
  fileName: 'waf-log-20261124T000000Z-20261125T000000Z.jsonl',
  finishedAt: null,
  expiresAt: null,
});
const failed = entry({
  id: 3,
  status: 'failed',
  progress: 0,
  records: 0,
  bytes: 0,
  error: 'disk full',
  finishedAt: '2026-11-25T01:00:02.000Z',
  expiresAt: null,
});

beforeEach(() => {
  api = signedInFakeApi('user');
  api.on(listLogExports, okPage([running, failed, done], 3));
});
afterEach(() => restoreFakeApi());

describe('dataAnalysis/logExport', () => {
  it('lists the exports paged on the server, with progress while one runs, and refreshes until it ends', async () => {
    renderAt(PAGE);
    const row = await findRow('WAF log');
    expect(within(row).getByText('Running')).toBeTruthy();
    expect(within(row).getByRole('progressbar', { name: 'Progress of export 2' }).getAttribute('aria-valuenow')).toBe(
      '40',
    );
    expect(within(row).getByText('JSON lines')).toBeTruthy();
    const doneRow = await findRow('12,345');
    expect(within(doneRow).getByText('CSV · gzip')).toBeTruthy();
    expect(within(doneRow).getByText('Done')).toBeTruthy();
    expect(api.sent(listLogExports)[0]?.search.get('page')).toBe('1');
    // The running export's list is read again until nothing is queued or running.
    api.on(listLogExports, okPage([{ ...running, status: 'done', progress: 100 }, failed, done], 3));
    await waitFor(() => expect(api.sent(listLogExports).length).toBeGreaterThan(1), { timeout: 5000 });
    await waitFor(() => expect(screen.queryByText('Running')).toBeNull());
  });

  it('filters by log type in the URL', async () => {
    renderAt(`${PAGE}?type=waf`);
    await findRow('JSON lines');
    expect(api.sent(listLogExports).at(-1)?.search.get('type')).toBe('waf');
  });

  it('downloads a finished file under its name', async () => {
    api.on(
      downloadLogExport,
      { id: 1 },
      {
        status: 200,
        text: 'reqID\r\n',
        headers: { 'Content-Disposition': `attachment; filename="${done.fileName}"` },
      },
    );
    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    URL.createObjectURL = () => 'blob:export';
    URL.revokeObjectURL = () => undefined;
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    try {
      renderAt(PAGE);
      const row = await findRow('12,345');
      fireEvent.click(within(row).getByRole('button', { name: 'Download' }));
      await waitFor(() => expect(names).toEqual([done.fileName]));
      // Only a finished export has a download.
      expect(within(await findRow('WAF log')).queryByRole('button', { name: 'Download' })).toBeNull();
    } finally {
      click.mockRestore();
      URL.createObjectURL = original.create;
      URL.revokeObjectURL = original.revoke;
    }
  });

  it('retries a failed export, and deletes one after asking', async () => {
    api.on(retryLogExports, ok([{ ...failed, status: 'queued', error: null }]));
    api.on(deleteLogExports, ok(true));
    renderAt(PAGE);
    const failedRow = await findRow('Failed');
    fireEvent.click(within(failedRow).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(api.sent(retryLogExports)[0]?.body).toEqual({ ids: [3] }));
    const doneRow = await findRow('12,345');
    fireEvent.click(within(doneRow).getByRole('button', { name: /Delete/ }));
    const confirm = await findPopconfirm('Delete export 1 and its file?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.sent(deleteLogExports)[0]?.body).toEqual({ ids: [1] }));
  });

  it('shows the retry quota error with its number', async () => {
    api.on(retryLogExports, fail(429, 601001, 'simultaneous download quantity reached limit (3 records)', { num: 3 }));
    renderAt(PAGE);
    fireEvent.click(within(await findRow('Failed')).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('simultaneous download quantity reached limit (3 records)')).toBeTruthy();
  });

  it('offers no retry or delete to an account without the write key', async () => {
    const permissions = tierPermissions('user').filter((key) => key !== 'user.logs.write');
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { isRoot: false, permissions })));
    renderAt(PAGE);
    const failedRow = await findRow('Failed');
    expect(within(failedRow).queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(within(failedRow).queryByRole('button', { name: /Delete/ })).toBeNull();
  });

  it('is in the menu after Logs', async () => {
    renderAt(PAGE);
    const nav = within(await screen.findByRole('menu', { name: 'Navigation' }));
    const links = nav.getAllByRole('link').map((a) => a.textContent);
    expect(links.indexOf('Log export')).toBe(links.indexOf('Logs') + 1);
    expect(nav.getByRole('link', { name: 'Log export' }).getAttribute('href')).toBe(PAGE);
  });
});

describe('the Logs page export button', () => {
  beforeEach(() => {
    api.on(metaUserSites, ok([{ id: 3, name: 'shop' }]));
    api.on(userDomainsMeta, ok([{ id: 31, name: 'www.shop.example', siteID: 3 }]));
    api.on(userDomainsTags, ok([]));
    api.on(userAccessLogs, logPage([], 0));
    api.on(userWafLogs, logPage([], 0));
  });

  it('exports the search on screen in the chosen format, then opens the export list', async () => {
    api.on(createLogExport, ok(entry({ id: 9, status: 'queued', progress: 0, records: 0, bytes: 0 })));
    renderAt('/user/dataAnalysis/logger?kind=waf&ip=203.0.113.9&ruleId=100012');
    await waitFor(() => expect(api.sent(userWafLogs).length).toBeGreaterThan(0));
    fireEvent.click(buttonByText('Export'));
    const modal = await findModal();
    fireEvent.click(within(modal).getByLabelText('JSON lines'));
    fireEvent.click(within(modal).getByLabelText('Compress with gzip'));
    fireEvent.click(within(modal).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(api.sent(createLogExport)).toHaveLength(1));
    const body = api.sent(createLogExport)[0]?.body as Record<string, unknown>;
    const search = api.sent(userWafLogs).at(-1)?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      type: 'waf',
      format: 'jsonl',
      gzip: false,
      ip: '203.0.113.9',
      ruleId: 100_012,
      startTime: search.startTime,
      endTime: search.endTime,
    });
    expect(body.page).toBeUndefined();
    // The export list opens.
    await waitFor(() => expect(api.sent(listLogExports).length).toBeGreaterThan(0));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await findRow('12,345');
  });

  it('shows the daily quota error with the number the server sent', async () => {
    api.on(createLogExport, fail(429, 601002, 'daily download limit reached (10 records)', { num: 10 }));
    renderAt('/user/dataAnalysis/logger');
    await waitFor(() => expect(api.sent(userAccessLogs).length).toBeGreaterThan(0));
    fireEvent.click(buttonByText('Export'));
    const modal = await findModal();
    fireEvent.click(within(modal).getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('daily download limit reached (10 records)')).toBeTruthy();
  });

  it('is not offered without the write key', async () => {
    const permissions = tierPermissions('user').filter((key) => key !== 'user.logs.write');
    api.on(getSelf, { auth: 'user' }, ok(selfInfo('user', { isRoot: false, permissions })));
    renderAt('/user/dataAnalysis/logger');
    await waitFor(() => expect(api.sent(userAccessLogs).length).toBeGreaterThan(0));
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();
  });
});

describe("the operator's log exports", () => {
  const c = clientLogExportRoutes;
  beforeEach(() => {
    restoreFakeApi();
    api = signedInFakeApi('client');
    api.on(c.clientListLogExports, okPage([done], 1));
    api.on(metaSites, ok([]));
    api.on(metaZones, ok([{ id: 4, name: 'asia' }]));
    api.on(clientAccessLogs, logPage([], 0));
  });

  it("lists the operator's exports on its own calls, in its menu after Logs", async () => {
    renderAt('/client/dataAnalysis/logExport');
    expect(within(await findRow('12,345')).getByText('Done')).toBeTruthy();
    expect(api.sent(c.clientListLogExports).length).toBeGreaterThan(0);
    expect(api.sent(listLogExports)).toHaveLength(0);
    const nav = within(await screen.findByRole('menu', { name: 'Navigation' }));
    const links = nav.getAllByRole('link').map((a) => a.textContent);
    expect(links.indexOf('Log export')).toBe(links.indexOf('Logs') + 1);
    expect(nav.getByRole('link', { name: 'Log export' }).getAttribute('href')).toBe('/client/dataAnalysis/logExport');
  });

  it('exports the search of its Logs page, zones included, then opens its export list', async () => {
    api.on(c.clientCreateLogExport, ok(entry({ id: 9, status: 'queued', progress: 0, records: 0, bytes: 0 })));
    renderAt('/client/dataAnalysis/logger?status=502');
    await waitFor(() => expect(api.sent(clientAccessLogs).length).toBeGreaterThan(0));
    await chooseOption(document.body, 'Zones', 'asia');
    await waitFor(() => expect(api.sent(clientAccessLogs).at(-1)?.body).toMatchObject({ zoneIDs: [4] }));
    fireEvent.click(buttonByText('Export'));
    const modal = await findModal();
    fireEvent.click(within(modal).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(api.sent(c.clientCreateLogExport)).toHaveLength(1));
    const body = api.sent(c.clientCreateLogExport)[0]?.body as Record<string, unknown>;
    const search = api.sent(clientAccessLogs).at(-1)?.body as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'access', format: 'csv', gzip: true, status: 502, zoneIDs: [4] });
    expect(body.startTime).toBe(search.startTime);
    expect(api.sent(createLogExport)).toHaveLength(0);
    await waitFor(() => expect(api.sent(c.clientListLogExports).length).toBeGreaterThan(0));
  });

  it("downloads on the operator's call", async () => {
    api.on(c.clientDownloadLogExport, { id: done.id }, { status: 200, text: 'reqID\r\n' });
    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    URL.createObjectURL = () => 'blob:export';
    URL.revokeObjectURL = () => undefined;
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    try {
      renderAt('/client/dataAnalysis/logExport');
      fireEvent.click(within(await findRow('12,345')).getByRole('button', { name: 'Download' }));
      await waitFor(() => expect(api.sent(c.clientDownloadLogExport)).toHaveLength(1));
      expect(api.sent(downloadLogExport)).toHaveLength(0);
    } finally {
      click.mockRestore();
      URL.createObjectURL = original.create;
      URL.revokeObjectURL = original.revoke;
    }
  });
});
