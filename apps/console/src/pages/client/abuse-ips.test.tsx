import {
  type AbuseIP,
  addAbuseIPs,
  deleteAbuseIPs,
  getSelf,
  importAbuseIPs,
  listAbuseIPs,
  tierPermissions,
  updateAbuseIP,
  VALIDATION_MESSAGES,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n';
import { fail, ok, okPage, pageTestApi, selfInfo, signedInFakeApi } from '../../test/fake-api';
import { clickButton, findModal, findPopconfirm, findRow, modalClosed, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The operator's reputation list page (client/abuseIPs …), against a fake API.
const api = pageTestApi(() => signedInFakeApi('client'));

const PAGE = '/client/systemManagement/abuseIPs';

const scanner: AbuseIP = {
  id: 7,
  ip: '203.0.113.7',
  score: 90,
  memo: 'scanner',
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-02T10:00:00.000Z',
};
const block: AbuseIP = { ...scanner, id: 8, ip: '198.51.100.0/24', score: 40, memo: 'hosting range' };

const lastQuery = () => api.sent(listAbuseIPs).at(-1)?.search;

beforeEach(() => {
  api.on(listAbuseIPs, okPage([scanner, block]));
});

describe('systemManagement/abuseIPs', () => {
  it('is in the menu and lists the entries; the search and the sort go to the server', async () => {
    renderAt(PAGE);
    const row = await findRow('203.0.113.7');
    expect(within(row).getByText('90')).toBeTruthy();
    expect(within(row).getByText('scanner')).toBeTruthy();
    expect(within(await findRow('198.51.100.0/24')).getByText('40')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Abuse IPs' }).getAttribute('href')).toBe(PAGE);

    const box = screen.getByLabelText('An IP (the entries containing it) or text');
    fireEvent.change(box, { target: { value: ' 198.51.100.9 ' } });
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(lastQuery()?.get('ip')).toBe('198.51.100.9'));

    fireEvent.click(screen.getByText('Score', { selector: 'th *' }));
    await waitFor(() => expect(lastQuery()?.get('sortBy')).toBe('score'));
    expect(lastQuery()?.get('ip')).toBe('198.51.100.9');
  });

  it('adds an entry with the exact body, and shows the server’s refusal under its field', async () => {
    const fields = [{ in: 'body', field: 'data.0.ip', key: 'duplicateIP', message: 'Duplicate IP' }];
    api.on(addAbuseIPs, fail(400, 101003, 'Parameter Error', { fields }));
    renderAt(PAGE);
    await findRow('203.0.113.7');
    clickButton('Add');
    const dialog = await findModal();
    expect(within(dialog).getByText('New abuse IP')).toBeTruthy();
    // A range is not an entry: the contract refuses it before anything is sent.
    typeInto(dialog, 'IP or CIDR', '10.0.0.1-10.0.0.9');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(VALIDATION_MESSAGES.wrongFormat.en_US)).toBeTruthy();
    expect(api.sent(addAbuseIPs)).toHaveLength(0);

    typeInto(dialog, 'IP or CIDR', '203.0.113.7');
    typeInto(dialog, 'Memo', 'again');
    clickButton('OK', dialog);
    const message = await within(dialog).findByText('Duplicate IP');
    expect(within(message.closest('.ant-form-item') as HTMLElement).getByLabelText('IP or CIDR')).toBeTruthy();
    expect(api.sent(addAbuseIPs)[0]?.body).toEqual({ data: [{ ip: '203.0.113.7', score: 80, memo: 'again' }] });

    api.on(addAbuseIPs, ok([{ ...scanner, id: 9, ip: '192.0.2.1', score: 80, memo: 'again' }]));
    typeInto(dialog, 'IP or CIDR', '192.0.2.1');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    await modalClosed(dialog);
  });

  it('edits an entry with its id and deletes one after the confirm', async () => {
    api.on(updateAbuseIP, ok({ ...block, score: 55 }));
    api.on(deleteAbuseIPs, ok(true));
    renderAt(PAGE);
    clickButton('Edit', await findRow('198.51.100.0/24'));
    const dialog = await findModal();
    expect(within(dialog).getByText('Edit 198.51.100.0/24')).toBeTruthy();
    typeInto(dialog, 'Score', '55');
    clickButton('OK', dialog);
    expect(await screen.findByText('Update Success')).toBeTruthy();
    expect(api.sent(updateAbuseIP)[0]?.body).toEqual({
      id: 8,
      ip: '198.51.100.0/24',
      score: 55,
      memo: 'hosting range',
    });
    await modalClosed(dialog);

    clickButton('Delete', await findRow('203.0.113.7'));
    clickButton('Delete', await findPopconfirm('Delete 203.0.113.7 from the list?'));
    await waitFor(() => expect(api.sent(deleteAbuseIPs)[0]?.body).toEqual({ ids: [7] }));
  });

  it('imports pasted text in the chosen mode and says what it did', async () => {
    api.on(importAbuseIPs, ok({ added: 2, updated: 1, unchanged: 0, removed: 4, total: 3 }));
    renderAt(PAGE);
    await findRow('203.0.113.7');
    clickButton('Import');
    const dialog = await findModal();
    typeInto(dialog, 'List', '# feed\n192.0.2.1,95\n192.0.2.2');
    fireEvent.click(within(dialog).getByText('Replace'));
    expect(await within(dialog).findByText(/every entry they do not name is removed/)).toBeTruthy();
    typeInto(dialog, 'Score of plain lines', '70');
    clickButton('OK', dialog);
    expect(
      await screen.findByText('Imported: 2 added, 1 changed, 0 unchanged, 4 removed; 3 in the list.'),
    ).toBeTruthy();
    expect(api.sent(importAbuseIPs)[0]?.body).toEqual({
      text: '# feed\n192.0.2.1,95\n192.0.2.2',
      mode: 'replace',
      defaultScore: 70,
    });
    await modalClosed(dialog);
  });

  it('names every bad and repeated line of an import under the text before sending', async () => {
    renderAt(PAGE);
    await findRow('203.0.113.7');
    clickButton('Import');
    const dialog = await findModal();
    typeInto(dialog, 'List', 'ip,score\n192.0.2.1\nnope\n192.0.2.3,500\n\n192.0.2.1,40\n10.0.0.0/33');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Line 3: not an IPv4 or IPv6 address or CIDR block')).toBeTruthy();
    expect(within(dialog).getByText('Line 4: the score must be a whole number from 1 to 100')).toBeTruthy();
    expect(within(dialog).getByText('Line 6: the same IP as line 2')).toBeTruthy();
    expect(within(dialog).getByText('Line 7: not an IPv4 or IPv6 address or CIDR block')).toBeTruthy();
    expect(api.sent(importAbuseIPs)).toHaveLength(0);
  });

  it('counts the bad lines past the first twenty of a pasted import', async () => {
    renderAt(PAGE);
    await findRow('203.0.113.7');
    clickButton('Import');
    const dialog = await findModal();
    const bad = Array.from({ length: 25 }, (_, i) => `192.0.2.${300 + i}`);
    typeInto(dialog, 'List', bad.join('\n'));
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('and 5 more lines with errors')).toBeTruthy();
    expect(within(dialog).getByText('Line 20: not an IPv4 or IPv6 address or CIDR block')).toBeTruthy();
    expect(within(dialog).queryByText(/^Line 21:/)).toBeNull();
    expect(api.sent(importAbuseIPs)).toHaveLength(0);
  });

  it('names every line the server refuses under the text', async () => {
    const fields = [
      {
        in: 'body',
        field: 'text',
        key: 'abuseIPImportIP',
        message: 'Line 2: not an IPv4 or IPv6 address or CIDR block',
      },
      {
        in: 'body',
        field: 'text',
        key: 'abuseIPImportScore',
        message: 'Line 3: the score must be a whole number from 1 to 100',
      },
      { in: 'body', field: 'text', key: 'abuseIPImportMore', message: 'and 4 more lines with errors' },
    ];
    api.on(importAbuseIPs, fail(400, 101003, 'Parameter Error', { fields }));
    renderAt(PAGE);
    await findRow('203.0.113.7');
    clickButton('Import');
    const dialog = await findModal();
    typeInto(dialog, 'List', '192.0.2.1\n192.0.2.2\n192.0.2.3,50');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Line 2: not an IPv4 or IPv6 address or CIDR block')).toBeTruthy();
    expect(within(dialog).getByText('Line 3: the score must be a whole number from 1 to 100')).toBeTruthy();
    expect(within(dialog).getByText('and 4 more lines with errors')).toBeTruthy();
    expect(api.sent(importAbuseIPs)[0]?.body).toMatchObject({ mode: 'merge', defaultScore: 100 });
  });

  it('offers no change without client.settings.write, and speaks zh_CN', async () => {
    const permissions = tierPermissions('client').filter((key) => key !== 'client.settings.write');
    api.on(getSelf, { auth: 'client' }, ok(selfInfo('client', { isRoot: false, permissions })));
    renderAt(PAGE);
    const row = await findRow('203.0.113.7');
    expect(within(row).queryByText('Edit')).toBeNull();
    expect(screen.queryByText('Import')).toBeNull();
    expect(screen.queryByText('Add')).toBeNull();
    await i18n.changeLanguage('zh_CN');
    expect((await screen.findAllByText('恶意 IP 库')).length).toBeGreaterThan(0);
    expect(screen.getByText('分数', { selector: 'th *' })).toBeTruthy();
  });
});
