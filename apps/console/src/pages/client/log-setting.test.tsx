import {
  deleteLogPart,
  deleteLogParts,
  getLogExportSetting,
  getLogSetting,
  getSelf,
  type LogPart,
  listLogParts,
  putLogExportSetting,
  putLogSetting,
  tierPermissions,
} from '@rampart/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n';
import { fail, ok, okPage, pageTestApi, selfInfo, signedInFakeApi } from '../../test/fake-api';
import {
  chooseOption,
  clickButton,
  findModal,
  findPopconfirm,
  findRow,
  modalClosed,
  selectRows,
  typeInto,
} from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The log setting page (client/setting/log, its parts), against a fake API.
const api = pageTestApi(() => signedInFakeApi('client'));

const PAGE = '/client/systemManagement/logSetting';
const DEFAULTS = { rawRetentionDays: 30, rollupRetentionDays: 400 };
const events: LogPart = { table: 'events', part: '20261111', rows: 12_345, bytes: 1_500_000 };
const minutes: LogPart = { table: 'rollup_1m', part: '20261110', rows: 60, bytes: null };
const hours: LogPart = { table: 'dims_1h', part: '20261109', rows: 7, bytes: null };

const form = async () =>
  (await screen.findByLabelText('Raw request events', {}, { timeout: 10_000 })).closest('form') as HTMLElement;
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

beforeEach(() => {
  api.on(getLogSetting, ok(DEFAULTS));
  api.on(listLogParts, okPage([events, minutes, hours], 23));
  api.on(getLogExportSetting, ok({ retentionDays: 7, spaceMB: 10_240 }));
});

describe('systemManagement/logSetting', () => {
  it('is in the menu and shows the retention and the parts, paged on the server', async () => {
    renderAt(PAGE);
    const row = await findRow('2026-11-11');
    expect(within(row).getByText('Raw events')).toBeTruthy();
    expect(within(row).getByText((12_345).toLocaleString())).toBeTruthy();
    expect(within(row).getByText('1.50 MB')).toBeTruthy();
    expect(within(await findRow('2026-11-10')).getByText('Per-minute totals')).toBeTruthy();
    expect(within(await findRow('2026-11-10')).getByText('—')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log setting' }).getAttribute('href')).toBe(PAGE);
    await form();
    expect(field('Raw request events').value).toBe('30');
    expect(field('Rollups (statistics)').value).toBe('400');
    expect(screen.getByText('23 in total')).toBeTruthy();
  });

  it('filters the parts by table on the server', async () => {
    renderAt(PAGE);
    await findRow('2026-11-11');
    await chooseOption(document.body, 'Table', 'Hourly dimensions (URL, client, user agent, referer)');
    await waitFor(() => expect(api.sent(listLogParts).at(-1)?.search.get('table')).toBe('dims_1h'));
  });

  it('refuses out-of-bounds days in the form without calling the API', async () => {
    renderAt(PAGE);
    const scope = await form();
    typeInto(scope, 'Rollups (statistics)', '10');
    clickButton('Save', scope);
    expect(await within(scope).findByText('Must be at least 62')).toBeTruthy();
    typeInto(scope, 'Raw request events', '200');
    typeInto(scope, 'Rollups (statistics)', '100');
    clickButton('Save', scope);
    expect(await within(scope).findByText('Must be at least 200')).toBeTruthy();
    expect(api.sent(putLogSetting)).toHaveLength(0);
  });

  it('saves a longer retention at once, and a shorter one after asking', async () => {
    api.on(putLogSetting, (request) => ok(request.body));
    renderAt(PAGE);
    const scope = await form();
    typeInto(scope, 'Rollups (statistics)', '500');
    clickButton('Save', scope);
    await waitFor(() =>
      expect(api.sent(putLogSetting).map((r) => r.body)).toEqual([{ rawRetentionDays: 30, rollupRetentionDays: 500 }]),
    );
    expect(document.querySelector('.ant-modal')).toBeNull();

    typeInto(scope, 'Raw request events', '7');
    clickButton('Save', scope);
    const dialog = await findModal();
    expect(within(dialog).getByText('Shorten the retention?')).toBeTruthy();
    expect(within(dialog).getByText(/Raw events older than 7 days and rollups older than 500 days/)).toBeTruthy();
    expect(api.sent(putLogSetting)).toHaveLength(1);
    clickButton('Save', dialog);
    await waitFor(() =>
      expect(api.sent(putLogSetting).at(-1)?.body).toEqual({ rawRetentionDays: 7, rollupRetentionDays: 500 }),
    );
    await modalClosed(dialog);
  });

  it("shows and saves the export files' retention and space, refusing out-of-bounds values first", async () => {
    api.on(putLogExportSetting, (request) => ok(request.body));
    renderAt(PAGE);
    const scope = (await screen.findByLabelText('Keep export files', {}, { timeout: 10_000 })).closest(
      'form',
    ) as HTMLElement;
    expect(field('Keep export files').value).toBe('7');
    expect(field('Space for all export files').value).toBe('10240');
    typeInto(scope, 'Keep export files', '0');
    clickButton('Save', scope);
    expect(await within(scope).findByText('Must be at least 1')).toBeTruthy();
    expect(api.sent(putLogExportSetting)).toHaveLength(0);
    typeInto(scope, 'Keep export files', '3');
    typeInto(scope, 'Space for all export files', '2048');
    clickButton('Save', scope);
    await waitFor(() =>
      expect(api.sent(putLogExportSetting).map((r) => r.body)).toEqual([{ retentionDays: 3, spaceMB: 2048 }]),
    );
    expect(api.sent(putLogSetting)).toHaveLength(0);
  });

  it('deletes one part after the confirm, and the chosen ones together', async () => {
    api.on(deleteLogPart, ok(true));
    api.on(deleteLogParts, ok(true));
    renderAt(PAGE);
    clickButton('Delete', await findRow('2026-11-11'));
    clickButton('Delete', await findPopconfirm('Delete the rows of events of 2026-11-11?'));
    await waitFor(() => expect(api.sent(deleteLogPart)[0]?.body).toEqual({ table: 'events', part: '20261111' }));

    await selectRows(['2026-11-10', '2026-11-09']);
    clickButton('Delete (2)');
    clickButton('Delete', await findPopconfirm('Delete the 2 chosen parts?'));
    await waitFor(() =>
      expect(api.sent(deleteLogParts)[0]?.body).toEqual({
        items: [
          { table: 'rollup_1m', part: '20261110' },
          { table: 'dims_1h', part: '20261109' },
        ],
      }),
    );
  });

  it("tells another operator that the store is the installation's operator's", async () => {
    api.on(getLogSetting, fail(403, 101018, 'Permission Denied', { reason: 'not yours' }));
    renderAt(PAGE);
    expect(
      await screen.findByText(/only that operator and its sub-accounts manage/, {}, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.queryByText('The log setting could not be loaded.')).toBeNull();
    expect(api.sent(listLogParts)).toHaveLength(0);
  });

  it('offers no change without client.settings.write, and speaks zh_TW', async () => {
    const permissions = tierPermissions('client').filter((key) => key !== 'client.settings.write');
    api.on(getSelf, { auth: 'client' }, ok(selfInfo('client', { isRoot: false, permissions })));
    renderAt(PAGE);
    const row = await findRow('2026-11-11');
    expect(within(row).queryByText('Delete')).toBeNull();
    expect(screen.queryByText('Save')).toBeNull();
    expect(field('Raw request events').disabled).toBe(true);
    await i18n.changeLanguage('zh_TW');
    expect((await screen.findAllByText('日誌設定')).length).toBeGreaterThan(0);
    expect(screen.getByText('每分鐘彙總')).toBeTruthy();
  });
});
