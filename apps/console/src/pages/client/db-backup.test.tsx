import {
  createDbBackup,
  type DbBackup,
  type DbBackupState,
  deleteDbBackup,
  getDbBackupSetting,
  listDbBackups,
  putDbBackupSetting,
  restoreDbBackup,
} from '@rampart/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { clickButton, findModal, findPopconfirm, findRow, modalClosed, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The config store backup page (client/setting/DBBackup*), against a fake API.
const api = pageTestApi(() => signedInFakeApi('client'));

const PAGE = '/client/systemManagement/dbBackup';
const backup = (id: number, extra: Partial<DbBackup> = {}): DbBackup => ({
  id,
  status: 'done',
  kind: 'postgres',
  trigger: 'manual',
  bytes: 2_500_000,
  fileName: `rampart-postgres-${id}.sql.gz`,
  version: '1.4.0',
  migrations: 46,
  sha256: 'ab'.repeat(32),
  error: null,
  createdAt: new Date(id).toISOString(),
  finishedAt: new Date(id + 1000).toISOString(),
  ...extra,
});
const older = backup(Date.UTC(2026, 10, 18, 3, 0));
const newer = backup(Date.UTC(2026, 10, 19, 3, 0), { trigger: 'scheduled', version: '1.5.0' });
const failed = backup(Date.UTC(2026, 10, 17, 3, 0), { status: 'failed', error: 'pg_dump exited with 1' });
const state = (extra: Partial<DbBackupState> = {}): DbBackupState => ({
  setting: { enabled: true, intervalHours: 24, keep: 7 },
  kind: 'postgres',
  running: null,
  pendingRestore: null,
  nextAt: new Date(Date.UTC(2026, 10, 20, 3, 0)).toISOString(),
  ...extra,
});
const form = async () =>
  (await screen.findByLabelText('Every', {}, { timeout: 10_000 })).closest('form') as HTMLElement;

beforeEach(() => {
  api.on(getDbBackupSetting, ok(state()));
  api.on(listDbBackups, okPage([newer, older, failed], 30));
});

describe('systemManagement/dbBackup', () => {
  it('is in the menu and shows the schedule and the backups, paged on the server', async () => {
    renderAt(PAGE);
    const scope = await form();
    expect((within(scope).getByLabelText('Every') as HTMLInputElement).value).toBe('24');
    expect((within(scope).getByLabelText('Backups kept') as HTMLInputElement).value).toBe('7');
    expect(screen.getByRole('link', { name: 'Database backup' }).getAttribute('href')).toBe(PAGE);
    expect(await screen.findByText('30 in total')).toBeTruthy();
    const row = await findRow('1.5.0');
    expect(within(row).getByText('2.50 MB')).toBeTruthy();
    expect(within(row).getByText('Done')).toBeTruthy();
    expect(api.sent(listDbBackups)[0]?.search.get('page')).toBe('1');
  });

  it('saves the schedule, refusing out-of-bounds values without calling the API', async () => {
    api.on(putDbBackupSetting, (request) => ok(request.body));
    renderAt(PAGE);
    const scope = await form();
    typeInto(scope, 'Backups kept', '0');
    clickButton('Save', scope);
    expect(await within(scope).findByText('Must be at least 1')).toBeTruthy();
    expect(api.sent(putDbBackupSetting)).toHaveLength(0);
    typeInto(scope, 'Backups kept', '3');
    typeInto(scope, 'Every', '12');
    clickButton('Save', scope);
    await waitFor(() =>
      expect(api.sent(putDbBackupSetting).map((r) => r.body)).toEqual([{ enabled: true, intervalHours: 12, keep: 3 }]),
    );
  });

  it('backs up now and shows the running backup', async () => {
    api.on(createDbBackup, ok(backup(Date.UTC(2026, 10, 20, 8, 0), { status: 'running', bytes: 0 })));
    renderAt(PAGE);
    await findRow('1.5.0');
    clickButton('Back up now');
    await waitFor(() => expect(api.sent(createDbBackup)).toHaveLength(1));
    expect(await screen.findByText('The backup has started')).toBeTruthy();
  });

  it('restores after a confirmation that says what a restore does', async () => {
    api.on(restoreDbBackup, ok({ staged: false }));
    renderAt(PAGE);
    const row = await findRow('1.5.0');
    clickButton('Restore', row);
    const dialog = await findModal();
    expect(within(dialog).getByText(/replaced by the backup at once, in one transaction/)).toBeTruthy();
    expect(api.sent(restoreDbBackup)).toHaveLength(0);
    clickButton('Restore', dialog);
    await waitFor(() => expect(api.sent(restoreDbBackup, { id: newer.id })).toHaveLength(1));
    await modalClosed(dialog);
    expect(await screen.findByText('The backup was restored')).toBeTruthy();
  });

  it('says a PGlite restore is staged until the next start', async () => {
    api.on(getDbBackupSetting, ok(state({ kind: 'pglite', pendingRestore: older.id })));
    renderAt(PAGE);
    expect(
      await screen.findByText(/A restore is staged: it is applied when the control plane next starts/),
    ).toBeTruthy();
  });

  it('shows a refused restore (a damaged backup) and deletes a backup after asking', async () => {
    api.on(
      restoreDbBackup,
      fail(400, 101003, 'Parameter Error', {
        fields: [
          {
            in: 'params',
            field: 'id',
            key: 'backupCorrupt',
            message: 'The backup is damaged or is not a backup of this store: nothing was changed',
          },
        ],
      }),
    );
    api.on(deleteDbBackup, ok(true));
    renderAt(PAGE);
    const row = await findRow('1.5.0');
    clickButton('Restore', row);
    clickButton('Restore', await findModal());
    expect(await screen.findByText(/The backup is damaged or is not a backup of this store/)).toBeTruthy();
    clickButton('Delete', await findRow('Failed'));
    clickButton('Delete', await findPopconfirm('Delete this backup file?'));
    await waitFor(() => expect(api.sent(deleteDbBackup, { id: failed.id })).toHaveLength(1));
  });

  it("tells another operator that the store is the installation's operator's", async () => {
    api.on(getDbBackupSetting, fail(403, 101018, 'Permission Denied', { reason: 'not yours' }));
    renderAt(PAGE);
    expect(await screen.findByText(/The config store belongs to the installation's operator/)).toBeTruthy();
  });
});
