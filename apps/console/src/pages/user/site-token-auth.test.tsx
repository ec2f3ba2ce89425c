import { listDomains, tokenAuthRoutes } from '@rampart/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi } from '../../test/fake-api';
import { signedInSiteTab, siteDomain } from '../../test/fixtures';
import { chooseOption, clickButton, findModal, findRow, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';
import { maskedKey } from './site-setting/modules/TokenAuthsDrawer';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds).
const api = pageTestApi(signedInSiteTab);

const PAGE = '/user/sitesManagement/sitesSetting/3/shop?tab=modules&module=tokenAuth';
const stamps = { createdAt: '2026-01-02T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z' };
const videos = { id: 14, siteID: 3, name: 'videos', domainIDs: [9], ruleCount: 1, ...stamps };
const live = {
  id: 80,
  moduleID: 14,
  scope: 'directory' as const,
  value: '/live',
  key: 'secret-key-1',
  expire: 600,
  action: 'drop' as const,
  ...stamps,
};
const params = { siteId: 3, moduleId: 14 };

async function openAuths(): Promise<HTMLElement> {
  clickButton('Rules (1)', await findRow('videos'));
  return (await screen.findByText('Token auths of videos')).closest('.ant-drawer') as HTMLElement;
}

describe('sitesSetting: token auth modules', () => {
  beforeEach(() => {
    api.on(tokenAuthRoutes.list, { siteId: 3 }, okPage([videos]));
    api.on(tokenAuthRoutes.listRules, params, okPage([live]));
    api.on(listDomains, { siteId: 3 }, okPage([siteDomain({ tokenAuthModuleID: 14, tokenAuthModuleName: 'videos' })]));
  });

  it('lists the auths of a module, paged on the server, with the key masked', async () => {
    renderAt(PAGE);
    const drawer = await openAuths();
    const row = (await within(drawer).findByText('Directory: /live')).closest('tr') as HTMLElement;
    expect(within(row).getByText('se••••••••••')).toBeTruthy();
    expect(within(row).queryByText('secret-key-1')).toBeNull();
    expect(within(row).getByText('600 seconds')).toBeTruthy();
    expect(within(row).getByText('DROP (reset)')).toBeTruthy();
    await waitFor(() =>
      expect(Object.fromEntries(api.sent(tokenAuthRoutes.listRules, params)[0]?.search ?? [])).toEqual({
        page: '1',
        pageSize: '20',
      }),
    );
  });

  it('adds an auth, sending what the form holds', async () => {
    api.on(tokenAuthRoutes.addRules, params, ok([{ ...live, id: 81 }]));
    renderAt(PAGE);
    const drawer = await openAuths();
    clickButton('Add token auth', drawer);
    const dialog = await findModal();
    await chooseOption(dialog, 'Effective scope', 'Specific file types');
    await within(dialog).findByLabelText('File types');
    typeInto(dialog, 'File types', 'flv png');
    typeInto(dialog, 'Key', 'abc123');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(tokenAuthRoutes.addRules, params)[0]?.body).toEqual({
      items: [{ scope: 'fileTypes', value: 'flv png', key: 'abc123', expire: 600, action: 'deny' }],
    });
  });

  it('shows a refused key under its field', async () => {
    const fields = [{ in: 'body', field: 'items.0.key', key: 'wrongFormat', message: 'Not a valid key' }];
    api.on(tokenAuthRoutes.addRules, params, fail(400, 101003, 'Parameter Error', { fields }));
    renderAt(PAGE);
    const drawer = await openAuths();
    clickButton('Add token auth', drawer);
    const dialog = await findModal();
    typeInto(dialog, 'Key', 'short');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Not a valid key')).toBeTruthy();
  });

  it('edits an auth: the form holds its key, the body its id', async () => {
    api.on(tokenAuthRoutes.updateRule, params, ok({ ...live, expire: 0 }));
    renderAt(PAGE);
    const drawer = await openAuths();
    clickButton('Edit', (await within(drawer).findByText('Directory: /live')).closest('tr') as HTMLElement);
    const dialog = await findModal();
    expect((within(dialog).getByLabelText('Key') as HTMLInputElement).value).toBe('secret-key-1');
    typeInto(dialog, 'Expiration time (seconds)', '0');
    clickButton('OK', dialog);
    await waitFor(() =>
      expect(api.sent(tokenAuthRoutes.updateRule, params)[0]?.body).toEqual({
        id: 80,
        scope: 'directory',
        value: '/live',
        key: 'secret-key-1',
        expire: 0,
        action: 'drop',
      }),
    );
  });

  it('masks every key but its first two characters', () => {
    expect(maskedKey('abc123')).toBe('ab••••');
    expect(maskedKey('IamKey-with-more')).toBe(`Ia${'•'.repeat(14)}`);
  });
});
