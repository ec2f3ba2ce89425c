import {
  createAnnouncement,
  deleteAnnouncements,
  listClientAnnouncements,
  updateAnnouncement,
} from '@rampart/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { clickButton, findModal, findPopconfirm, findRow, modalClosed, selectRows, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The operator's announcement settings, rendered in jsdom against a fake API.
const api = pageTestApi(() => signedInFakeApi('client'));

const maintenance = {
  id: 11,
  title: 'Maintenance',
  content: 'Sunday 02:00 UTC',
  running: false,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};
const pop = { ...maintenance, id: 12, title: 'New PoP', content: 'Frankfurt', running: true };
const PAGE = '/client/userManagement/announcementSetting';

beforeEach(() => {
  api.on(listClientAnnouncements, okPage([pop, maintenance]));
});

describe('announcementSetting', () => {
  it('is in the menu and lists announcements with their ordinal, content and running flag', async () => {
    renderAt(PAGE);
    const row = await findRow('Maintenance');
    expect(within(row).getByText('2')).toBeTruthy();
    expect(within(row).getByText('Sunday 02:00 UTC')).toBeTruthy();
    expect(within(await findRow('New PoP')).getByText('1')).toBeTruthy();
    expect(within(row).getByRole('switch', { name: 'Running: Maintenance' }).getAttribute('aria-checked')).toBe(
      'false',
    );
    const entry = screen.getByRole('link', { name: 'Announcements' });
    expect(entry.getAttribute('href')).toBe(PAGE);
  });

  it('numbers the rows from the page in the URL', async () => {
    api.on(listClientAnnouncements, okPage([maintenance], 21));
    renderAt(`${PAGE}?page=3&pageSize=10`);
    expect(within(await findRow('Maintenance')).getByText('21')).toBeTruthy();
    const search = api.sent(listClientAnnouncements).at(-1)?.search;
    expect([search?.get('page'), search?.get('pageSize')]).toEqual(['3', '10']);
  });

  it('switches the running flag, sending the announcement back whole', async () => {
    api.on(updateAnnouncement, ok({ ...maintenance, running: true }));
    renderAt(PAGE);
    const row = await findRow('Maintenance');
    within(row).getByRole('switch', { name: 'Running: Maintenance' }).click();
    await waitFor(() =>
      expect(api.sent(updateAnnouncement)[0]?.body).toEqual({
        id: 11,
        title: 'Maintenance',
        content: 'Sunday 02:00 UTC',
        running: true,
      }),
    );
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
  });

  it('creates an announcement, checking the title first and showing the server refusing a field', async () => {
    let calls = 0;
    api.on(createAnnouncement, () => {
      calls++;
      return calls === 1
        ? fail(400, 101003, 'Parameter Error', {
            fields: [{ in: 'body', field: 'content', key: 'tooLong', message: 'Content is too long' }],
          })
        : ok({ ...maintenance, id: 13, title: 'Price change' });
    });
    renderAt(PAGE);
    await findRow('Maintenance');
    clickButton('New announcement');
    const dialog = await findModal();
    clickButton('OK', dialog);
    await waitFor(() => expect(dialog.querySelector('.ant-form-item-explain-error')).not.toBeNull());
    expect(api.sent(createAnnouncement)).toHaveLength(0);

    typeInto(dialog, 'Title', 'Price change');
    typeInto(dialog, 'Content', 'From May');
    within(dialog).getByRole('switch').click();
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Content is too long')).toBeTruthy();
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(createAnnouncement)).toHaveLength(2));
    expect(api.sent(createAnnouncement)[1]?.body).toEqual({
      title: 'Price change',
      content: 'From May',
      running: true,
    });
    await modalClosed(dialog);
  });

  it('edits an announcement', async () => {
    api.on(updateAnnouncement, ok({ ...pop, content: 'Frankfurt and Paris' }));
    renderAt(PAGE);
    const row = await findRow('New PoP');
    clickButton('Edit', row);
    const dialog = await findModal();
    expect((within(dialog).getByLabelText('Title') as HTMLInputElement).value).toBe('New PoP');
    typeInto(dialog, 'Content', 'Frankfurt and Paris');
    clickButton('OK', dialog);
    await waitFor(() =>
      expect(api.sent(updateAnnouncement)[0]?.body).toEqual({
        id: 12,
        title: 'New PoP',
        content: 'Frankfurt and Paris',
        running: true,
      }),
    );
    await modalClosed(dialog);
  });

  it('deletes one announcement and the chosen ones', async () => {
    api.on(deleteAnnouncements, ok(true));
    renderAt(PAGE);
    const row = await findRow('Maintenance');
    clickButton('Delete', row);
    clickButton('Delete', await findPopconfirm('Delete the announcement Maintenance?'));
    await waitFor(() => expect(api.sent(deleteAnnouncements)[0]?.body).toEqual({ ids: [11] }));
    expect(await screen.findByText('Delete Success!')).toBeTruthy();

    await selectRows(['Maintenance', 'New PoP']);
    clickButton('Delete (2)');
    clickButton('Delete', await findPopconfirm('Delete 2 announcement(s)?'));
    await waitFor(() => expect(api.sent(deleteAnnouncements)).toHaveLength(2));
    expect(api.sent(deleteAnnouncements)[1]?.body).toEqual({ ids: [11, 12] });
  });
});
