import {
  addGeoRules,
  type GeoTreeNode,
  listGeoIps,
  listGeoRules,
  updateGeoRule,
  VALIDATION_MESSAGES,
} from '@rampart/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n';
import { fail, ok, okPage, pageTestApi } from '../../test/fake-api';
import { signedInSiteTab } from '../../test/fixtures';
import { clickButton, findModal, findRow, modalClosed, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The site's firewall tab: the geo rules, with the region tree of user/geoips in the picker.
const api = pageTestApi(signedInSiteTab);

const GEOS = '/user/sitesManagement/sitesSetting/3/shop?tab=firewall&kind=geo';

const country = (
  alpha2: string,
  countryName: string,
  continentCode: string,
  children: GeoTreeNode['children'] = [],
) => ({
  id: alpha2,
  code: alpha2,
  alpha2,
  countryName,
  cityName: '',
  continentCode,
  children,
});
const TREE: GeoTreeNode[] = [
  country('CN', 'China', 'AS', [
    {
      id: '1816670',
      code: '1816670',
      alpha2: 'CN',
      countryName: 'China',
      cityName: 'Beijing',
      continentCode: 'AS',
      children: [],
    },
  ]),
  country('FR', 'France', 'EU'),
  country('US', 'United States', 'NA'),
];

const black = {
  id: 41,
  siteID: 3,
  isBlack: true,
  geoIDs: ['CN', 'FR'],
  urlRegex: '.*',
  blockType: 10,
  enabled: true,
  memo: 'no CN, FR',
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-02T10:00:00.000Z',
};
const white = { ...black, id: 42, isBlack: false, geoIDs: ['US', '1816670'], urlRegex: '/admin', blockType: 11 };

beforeEach(() => {
  api.on(listGeoRules, { siteId: 3 }, okPage([black, white], 2));
  api.on(listGeoIps, {}, ok(TREE));
});

describe('sitesSetting: firewall geo rules', () => {
  it('lists the rules: black or white, regions by name (cities from the tree), URL, mode, switch', async () => {
    renderAt(GEOS);
    const row = await findRow('China, France');
    expect(within(row).getByText('Blacklist')).toBeTruthy();
    expect(within(row).getByText('China, France')).toBeTruthy();
    expect(within(row).getByText('DENY')).toBeTruthy();
    const other = await findRow('/admin');
    expect(within(other).getByText('Whitelist')).toBeTruthy();
    expect(await within(other).findByText('United States, Beijing')).toBeTruthy();
    expect(within(other).getByText('DROP')).toBeTruthy();
  });

  it('creates a rule: black, five-second shield and on by default, regions picked in the tree, the exact body sent', async () => {
    api.on(addGeoRules, { siteId: 3 }, ok([{ ...black, id: 43 }]));
    renderAt(GEOS);
    await findRow('/admin');
    clickButton('Create');
    const dialog = await findModal();
    expect(within(dialog).getByText('New geo rule')).toBeTruthy();
    expect(within(dialog).getByText('Five-Second Shield')).toBeTruthy();
    expect(within(dialog).getByLabelText('Enabled').getAttribute('aria-checked')).toBe('true');
    typeInto(dialog, 'URL', '.*');
    // No region yet: the contract refuses it before anything is sent.
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(VALIDATION_MESSAGES.required.en_US)).toBeTruthy();
    expect(api.sent(addGeoRules, { siteId: 3 })).toHaveLength(0);

    fireEvent.mouseDown(within(dialog).getByLabelText('Regions'));
    fireEvent.click(await screen.findByText('France (FR)', { selector: '.ant-select-tree-title' }));
    fireEvent.click(within(dialog).getByText('Whitelist'));
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(addGeoRules, { siteId: 3 })[0]?.body).toEqual({
      data: [{ isBlack: false, geoIDs: ['FR'], urlRegex: '.*', blockType: 1, enabled: true, memo: '' }],
    });
  });

  it('edits a rule with PUT on the singular path, its regions kept', async () => {
    api.on(updateGeoRule, { siteId: 3 }, ok({ ...white, enabled: false }));
    renderAt(GEOS);
    clickButton('Edit', await findRow('/admin'));
    const dialog = await findModal();
    expect(within(dialog).getByText('Edit geo rule')).toBeTruthy();
    fireEvent.click(within(dialog).getByLabelText('Enabled'));
    clickButton('OK', dialog);
    expect(await screen.findByText('Update Success')).toBeTruthy();
    const sent = api.sent(updateGeoRule, { siteId: 3 })[0];
    expect(sent?.path).toBe('/user/site/3/firewall/setting/geo');
    expect(sent?.body).toEqual({
      isBlack: false,
      geoIDs: ['US', '1816670'],
      urlRegex: '/admin',
      blockType: 11,
      enabled: false,
      memo: 'no CN, FR',
      id: 42,
    });
    await modalClosed(dialog);
  });

  it('shows the server’s unknown city at data.0.geoIDs on the regions field', async () => {
    const fields = [
      { in: 'body', field: 'data.0.geoIDs', key: 'geoCityUnknown', message: 'No such city in the geo database: 99' },
    ];
    api.on(addGeoRules, { siteId: 3 }, fail(400, 101003, 'Parameter Error', { fields }));
    renderAt(GEOS);
    await findRow('/admin');
    clickButton('Create');
    const dialog = await findModal();
    typeInto(dialog, 'URL', '.*');
    fireEvent.mouseDown(within(dialog).getByLabelText('Regions'));
    fireEvent.click(await screen.findByText('China (CN)', { selector: '.ant-select-tree-title' }));
    clickButton('OK', dialog);
    const message = await within(dialog).findByText('No such city in the geo database: 99');
    const item = message.closest('.ant-form-item');
    expect(item && within(item as HTMLElement).getByLabelText('Regions')).toBeTruthy();
  });

  it('says so when the site has no geo rules, and names the kind in zh_TW', async () => {
    api.on(listGeoRules, { siteId: 3 }, okPage([]));
    renderAt(GEOS);
    expect(await screen.findByText('No geo rules yet.', undefined, { timeout: 10_000 })).toBeTruthy();
    await i18n.changeLanguage('zh_TW');
    expect((await screen.findAllByText('地區')).length).toBeGreaterThan(0);
    expect(await screen.findByText('尚無地區規則。')).toBeTruthy();
  });
});
