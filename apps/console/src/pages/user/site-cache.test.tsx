import {
  addCacheRules,
  clearSiteCache,
  deleteCacheRules,
  listCacheRules,
  listSitePurgeTasks,
  purgeSiteUrls,
  updateCacheRule,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n';
import { fail, ok, okPage, pageTestApi } from '../../test/fake-api';
import { signedInSiteTab } from '../../test/fixtures';
import {
  chooseOption,
  clickButton,
  findModal,
  findPopconfirm,
  findRow,
  selectRows,
  showAllColumns,
  typeInto,
} from '../../test/queries';
import { renderAt } from '../../test/render-app';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds).
const api = pageTestApi(signedInSiteTab);

const CACHE = '/user/sitesManagement/sitesSetting/3/shop?tab=cache';

const rule = {
  id: 11,
  siteID: 3,
  scope: 'fileType',
  values: ['image'],
  ttl: 86400,
  queryString: 'ignore',
  bypass: false,
  respectOrigin: true,
  priority: 10,
  memo: 'pictures',
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};
const bypassRule = {
  ...rule,
  id: 12,
  scope: 'directory',
  values: ['/api/'],
  bypass: true,
  priority: 20,
  memo: 'live data',
};

/** Types `values` into the tags box labelled Values, each ended with Enter as a person would. */
function typeTags(dialog: HTMLElement, values: string[]): void {
  const input = within(dialog).getByLabelText('Values');
  for (const value of values) {
    fireEvent.change(input, { target: { value } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13, which: 13 });
  }
}

beforeEach(() => {
  api.on(listCacheRules, { siteId: 3 }, ok({ rules: [bypassRule, rule], generation: 1 }));
  api.on(listSitePurgeTasks, { siteId: 3 }, okPage([]));
});

describe('sitesSetting: cache', () => {
  it('lists the rules in the order the server gives, with their scope, lifetime and headers policy', async () => {
    renderAt(CACHE);
    const images = await findRow('Images (gif, png, jpg, jpeg, bmp)');
    await showAllColumns();
    expect(within(images).getByText('File types')).toBeTruthy();
    expect(within(images).getByText('1 day')).toBeTruthy();
    expect(within(images).getByText('Respected')).toBeTruthy();
    expect(within(images).getByText('Ignored (one copy per path)')).toBeTruthy();
    const live = await findRow('/api/');
    expect(within(live).getByText('Not cached')).toBeTruthy();
    const rows = [...document.querySelectorAll('tbody tr.ant-table-row')].map((row) => row.textContent ?? '');
    expect(rows[0]).toContain('/api/');
    expect(rows[1]).toContain('pictures');
  });

  it('adds a suffix rule, sending suffixes without their dot and in lower case', async () => {
    api.on(addCacheRules, { siteId: 3 }, ok([{ ...rule, id: 13 }]));
    renderAt(CACHE);
    await findRow('Images (gif, png, jpg, jpeg, bmp)');
    clickButton('Add cache rule');
    const dialog = await findModal();
    typeTags(dialog, ['.JPG', 'css']);
    await chooseOption(dialog, 'Cache time', '7 days');
    fireEvent.change(within(dialog).getByLabelText('Priority'), { target: { value: '30' } });
    fireEvent.click(within(dialog).getByLabelText('Ignored (one copy per path)'));
    clickButton('OK', dialog);
    expect(await screen.findByText('Cache Rules Added Success!')).toBeTruthy();
    expect(api.sent(addCacheRules, { siteId: 3 })[0]?.body).toEqual({
      data: [
        {
          scope: 'suffix',
          values: ['jpg', 'css'],
          ttl: 604800,
          queryString: 'ignore',
          bypass: false,
          respectOrigin: true,
          priority: 30,
          memo: '',
        },
      ],
    });
  });

  it('checks values with the contract’s rule schema before sending, naming every value at fault with its place', async () => {
    renderAt(CACHE);
    await findRow('Images (gif, png, jpg, jpeg, bmp)');
    clickButton('Add cache rule');
    const dialog = await findModal();
    await chooseOption(dialog, 'Match', 'Directories');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    typeTags(dialog, ['/static/', 'img/', 'css/']);
    expect(await within(dialog).findByText('Value 2 (img/): Wrong format')).toBeTruthy();
    expect(within(dialog).getByText('Value 3 (css/): Wrong format')).toBeTruthy();
    expect(api.sent(addCacheRules, { siteId: 3 })).toHaveLength(0);
  });

  it('shows the server’s field errors of an added rule under its field', async () => {
    const fields = [{ in: 'body', field: 'data.0.values.0', key: 'wrongFormat', message: 'Wrong format (server)' }];
    api.on(addCacheRules, { siteId: 3 }, fail(400, 101003, 'Parameter Error', { fields }));
    renderAt(CACHE);
    await findRow('Images (gif, png, jpg, jpeg, bmp)');
    clickButton('Add cache rule');
    const dialog = await findModal();
    typeTags(dialog, ['png']);
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Wrong format (server)')).toBeTruthy();
  });

  it('edits a rule: a scope that takes no values sends none, a bypass rule keeps its settings', async () => {
    api.on(updateCacheRule, { siteId: 3, ruleId: 12 }, ok({ ...bypassRule, scope: 'all', values: [] }));
    renderAt(CACHE);
    clickButton('Edit', await findRow('/api/'));
    const dialog = await findModal();
    expect((within(dialog).getByLabelText('Memo') as HTMLInputElement).value).toBe('live data');
    await chooseOption(dialog, 'Match', 'Every request');
    await waitFor(() => expect(within(dialog).queryByLabelText('Values')).toBeNull());
    typeInto(dialog, 'Memo', 'everything live');
    clickButton('OK', dialog);
    expect(await screen.findByText('Update Success')).toBeTruthy();
    expect(api.sent(updateCacheRule, { siteId: 3, ruleId: 12 })[0]?.body).toEqual({
      scope: 'all',
      values: [],
      ttl: 86400,
      queryString: 'ignore',
      bypass: true,
      respectOrigin: true,
      priority: 20,
      memo: 'everything live',
    });
  });

  it('deletes the chosen rules in one call', async () => {
    api.on(deleteCacheRules, { siteId: 3 }, ok(true));
    renderAt(CACHE);
    await findRow('Images (gif, png, jpg, jpeg, bmp)');
    await selectRows(['Images (gif, png, jpg, jpeg, bmp)', '/api/']);
    clickButton('Delete (2)');
    clickButton('Delete', await findPopconfirm('Delete 2 cache rules?'));
    expect(await screen.findByText('Delete Success!')).toBeTruthy();
    expect(api.sent(deleteCacheRules, { siteId: 3 })[0]?.body).toEqual({ ids: [11, 12] });
  });

  it('clears the site’s cache only after the confirm', async () => {
    api.on(clearSiteCache, { siteId: 3 }, ok({ generation: 2 }));
    renderAt(CACHE);
    await findRow('Images (gif, png, jpg, jpeg, bmp)');
    clickButton('Clear cache');
    const popup = await findPopconfirm(/Clear the whole cache of this site/);
    expect(api.sent(clearSiteCache, { siteId: 3 })).toHaveLength(0);
    clickButton('Clear cache', popup);
    expect(await screen.findByText('Clear Cache Success!')).toBeTruthy();
    await waitFor(() => expect(api.sent(clearSiteCache, { siteId: 3 })).toHaveLength(1));
  });

  it('purges URLs of the site: the server names a URL of another host, then the task shows each node’s results', async () => {
    const task = {
      id: 4,
      kind: 'purge',
      state: 'succeeded',
      urls: ['https://www.shop.example/app.css'],
      createdAt: '2026-03-01T10:00:00.000Z',
      nodes: [
        {
          nodeId: 21,
          nodeName: 'edge-1',
          commandId: 40,
          status: 'succeeded',
          message: '1 URL(s): 1 cache entry removed',
          results: [
            {
              url: 'https://www.shop.example/app.css',
              ok: true,
              httpStatus: null,
              cacheStatus: null,
              purged: 1,
              message: 'purged',
            },
          ],
        },
      ],
    };
    api.on(purgeSiteUrls, { siteId: 3 }, (request) =>
      (request.body as { urls: string[] }).urls.length > 1
        ? fail(400, 101003, 'Parameter Error', {
            fields: [
              {
                in: 'body',
                field: 'urls.1',
                key: 'urlNotOfSite',
                message: "The URL's host is not a domain of this site",
              },
            ],
          })
        : ok(task),
    );
    renderAt(CACHE);
    await findRow('Images (gif, png, jpg, jpeg, bmp)');
    expect(await screen.findByText('No task yet.')).toBeTruthy();
    clickButton('Purge URLs');
    const dialog = await findModal();
    typeInto(dialog, 'URLs', 'https://www.shop.example/app.css\nhttps://evil.example/x');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText("The URL's host is not a domain of this site")).toBeTruthy();
    typeInto(dialog, 'URLs', 'https://www.shop.example/app.css');
    api.on(listSitePurgeTasks, { siteId: 3 }, okPage([task]));
    clickButton('OK', dialog);
    expect(await screen.findByText('Purge sent to 1 node(s).')).toBeTruthy();
    expect(api.sent(purgeSiteUrls, { siteId: 3 }).at(-1)?.body).toEqual({ urls: ['https://www.shop.example/app.css'] });
    const row = (await screen.findByText('Succeeded')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: /expand/i }));
    expect(await screen.findByText('1 URL(s): 1 cache entry removed')).toBeTruthy();
  });

  it('shows the tab in the reader’s language', async () => {
    await i18n.changeLanguage('zh_TW'); // the setup file sets English back before each test
    renderAt(CACHE);
    expect(await screen.findByText('新增快取規則')).toBeTruthy();
    expect(await findRow('圖片 (gif, png, jpg, jpeg, bmp)')).toBeTruthy();
  });
});
