import {
  addL4BlacklistRules,
  addL4LimitConnRules,
  addL4PositionRules,
  addL4WhitelistRules,
  deleteL4WhitelistRules,
  type GeoTreeNode,
  getUserSite,
  listGeoIps,
  listL4BlacklistRules,
  listL4LimitConnRules,
  listL4PositionRules,
  listL4WhitelistRules,
  listSitePorts,
  updateL4LimitConnRule,
  updateL4PositionRule,
  updateL4WhitelistRule,
  VALIDATION_MESSAGES,
} from '@rampart/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { userSite } from '../../test/fixtures';
import { chooseOption, clickButton, findModal, findPopconfirm, findRow, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// A layer-4 site's firewall tab: whitelist, blacklist, positions and connection limits, each rule
// on one of the site's ports (routes/firewall-l4.ts).
const api = pageTestApi(() => signedInFakeApi('user'));

const PAGE = '/user/sitesManagement/sitesSetting/3/game?tab=firewall';

const port = (id: number, number: number, protocol: 'tcp' | 'udp' | 'both') => ({
  id,
  siteID: 3,
  port: number,
  protocol,
  hashType: 0,
  status: 1,
  memo: '',
  upstreams: [{ id: id * 10, ip: '198.51.100.7', port: number, weight: 1, backup: false, status: 1 }],
  failedNodes: [],
  createdAt: '2026-01-02T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
});
const PORTS = [port(11, 25565, 'tcp'), port(12, 27015, 'udp')];

const dates = { createdAt: '2026-03-01T10:00:00.000Z', updatedAt: '2026-03-02T10:00:00.000Z' };
const onMinecraft = { siteID: 3, portID: 11, port: 25565, protocol: 'tcp', ...dates };
const office = { id: 41, ...onMinecraft, ips: ['203.0.113.7', '10.0.0.0/8', '2001:db8::/32'], memo: 'office' };
const deny = { id: 51, ...onMinecraft, isBlack: true, positions: ['CN', 'FR'], enabled: true, memo: '' };
const limit = { id: 61, ...onMinecraft, max: 20, rate: 5, burst: 10, delay: 60, enabled: true, memo: 'bots' };

const country = (alpha2: string, countryName: string): GeoTreeNode => ({
  id: alpha2,
  code: alpha2,
  alpha2,
  countryName,
  cityName: '',
  continentCode: 'EU',
  children: [
    {
      id: `${alpha2}-1`,
      code: `${alpha2}-1`,
      alpha2,
      countryName,
      cityName: 'Capital',
      continentCode: 'EU',
      children: [],
    },
  ],
});

beforeEach(() => {
  api.on(getUserSite, { siteId: 3 }, ok(userSite({ siteName: 'game', portType: 4 })));
  api.on(listSitePorts, { siteId: 3 }, okPage(PORTS));
  api.on(listL4WhitelistRules, { siteId: 3 }, okPage([office]));
  api.on(listL4BlacklistRules, { siteId: 3 }, okPage([]));
  api.on(listL4PositionRules, { siteId: 3 }, okPage([deny]));
  api.on(listL4LimitConnRules, { siteId: 3 }, okPage([limit]));
  api.on(listGeoIps, {}, ok([country('CN', 'China'), country('FR', 'France'), country('DE', 'Germany')]));
});

function openKind(name: string) {
  fireEvent.click(screen.getByText(name, { selector: '.ant-segmented-item-label' }));
}

describe('sitesSetting: a layer-4 site’s firewall', () => {
  it('offers the four layer-4 lists, the whitelist first, its rules by port, paged on the server', async () => {
    renderAt(PAGE);
    const row = await findRow('office');
    expect(within(row).getByText('25565/TCP')).toBeTruthy();
    expect(within(row).getByText(/203\.0\.113\.7, 10\.0\.0\.0\/8/)).toBeTruthy();
    const labels = [...document.querySelectorAll('.ant-segmented-item-label')].map((item) => item.textContent);
    expect(labels).toEqual(['Whitelist', 'Blacklist', 'Positions', 'Connection limits']);
    expect(api.sent(listL4WhitelistRules, { siteId: 3 })[0]?.search.get('page')).toBe('1');
    openKind('Blacklist');
    expect(await screen.findByText('No layer-4 blacklist rules yet.')).toBeTruthy();
  });

  it('says the site has no ports, and leads to them, when it has none', async () => {
    api.on(listSitePorts, { siteId: 3 }, okPage([]));
    renderAt(PAGE);
    expect(await screen.findByText(/This site has no ports yet/)).toBeTruthy();
    expect(api.sent(listL4WhitelistRules, { siteId: 3 })).toHaveLength(0);
    clickButton('Go to Ports');
    expect(await screen.findByRole('tab', { name: 'Ports', selected: true })).toBeTruthy();
  });

  it('adds a whitelist rule: a port by number and protocol, addresses one a line, checked before sending', async () => {
    api.on(addL4WhitelistRules, { siteId: 3 }, ok([{ ...office, id: 42 }]));
    renderAt(PAGE);
    await findRow('office');
    clickButton('Create');
    const dialog = await findModal();
    expect(within(dialog).getByText('New layer-4 whitelist rule')).toBeTruthy();
    typeInto(dialog, 'Addresses', '203.0.113.7\n\nnot-an-ip');
    clickButton('OK', dialog);
    expect(
      await within(dialog).findByText(`Line 3 (not-an-ip): ${VALIDATION_MESSAGES.wrongFormat.en_US}`),
    ).toBeTruthy();
    // No port chosen yet.
    expect(await within(dialog).findByText(VALIDATION_MESSAGES.required.en_US)).toBeTruthy();
    expect(api.sent(addL4WhitelistRules, { siteId: 3 })).toHaveLength(0);

    await chooseOption(dialog, 'Port', '27015/UDP');
    typeInto(dialog, 'Addresses', '203.0.113.7\n\n198.51.100.0/24');
    typeInto(dialog, 'Memo', 'game servers');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(addL4WhitelistRules, { siteId: 3 })[0]?.body).toEqual({
      data: [{ portID: 12, ips: ['203.0.113.7', '198.51.100.0/24'], memo: 'game servers' }],
    });
  });

  it('edits a rule with PUT on the singular path, and puts the server’s port error on the port', async () => {
    const fields = [{ in: 'body', field: 'portID', key: 'invalidValue', message: 'Not a port of this site' }];
    api.on(updateL4WhitelistRule, { siteId: 3 }, fail(400, 101003, 'Parameter Error', { fields }));
    renderAt(PAGE);
    clickButton('Edit', await findRow('office'));
    const dialog = await findModal();
    expect(within(dialog).getByText('Edit layer-4 whitelist rule')).toBeTruthy();
    clickButton('OK', dialog);
    const message = await within(dialog).findByText('Not a port of this site');
    const item = message.closest('.ant-form-item') as HTMLElement;
    expect(within(item).getByLabelText('Port')).toBeTruthy();
    const sent = api.sent(updateL4WhitelistRule, { siteId: 3 })[0];
    expect(sent?.path).toBe('/user/site/3/firewall/setting/l4Whitelist');
    expect(sent?.body).toEqual({ id: 41, portID: 11, ips: office.ips, memo: 'office' });
  });

  it('shows the catalogue’s message when a port’s lists are full', async () => {
    api.on(addL4BlacklistRules, { siteId: 3 }, fail(422, 101029, 'too many'));
    renderAt(PAGE);
    await findRow('office');
    openKind('Blacklist');
    await screen.findByText('No layer-4 blacklist rules yet.');
    clickButton('Create');
    const dialog = await findModal();
    await chooseOption(dialog, 'Port', '25565/TCP');
    typeInto(dialog, 'Addresses', '203.0.113.9');
    clickButton('OK', dialog);
    expect(await screen.findByText('number of items exceeds limit')).toBeTruthy();
  });

  it('deletes a rule after the confirm', async () => {
    api.on(deleteL4WhitelistRules, { siteId: 3 }, ok(true));
    renderAt(PAGE);
    clickButton('Delete', await findRow('office'));
    const confirm = await findPopconfirm('Delete this rule?');
    expect(api.sent(deleteL4WhitelistRules, { siteId: 3 })).toHaveLength(0);
    clickButton('Delete', confirm);
    expect(await screen.findByText('Delete Success!')).toBeTruthy();
    expect(api.sent(deleteL4WhitelistRules, { siteId: 3 })[0]?.body).toEqual({ ids: [41] });
  });

  it('lists positions by country name and adds one with countries only, deny by default', async () => {
    api.on(addL4PositionRules, { siteId: 3 }, fail(409, 101025, 'one enabled position per port'));
    renderAt(`${PAGE}&kind=position`);
    const row = await findRow('China, France');
    expect(within(row).getByText('Blacklist')).toBeTruthy();
    expect(within(row).getByText('25565/TCP')).toBeTruthy();
    clickButton('Create');
    const dialog = await findModal();
    expect(within(dialog).getByText('New position rule')).toBeTruthy();
    await chooseOption(dialog, 'Port', '25565/TCP');
    fireEvent.mouseDown(within(dialog).getByLabelText('Countries'));
    fireEvent.click(await screen.findByText('Germany (DE)', { selector: '.ant-select-tree-title' }));
    // Countries only: the tree has no cities.
    expect(screen.queryByText(/Capital/)).toBeNull();
    clickButton('OK', dialog);
    expect(await screen.findByText('Duplicated data')).toBeTruthy();
    expect(api.sent(addL4PositionRules, { siteId: 3 })[0]?.body).toEqual({
      data: [{ portID: 11, isBlack: true, positions: ['DE'], enabled: true, memo: '' }],
    });
  });

  it('says too many regions with the catalogue’s message, and turns a position off in its row', async () => {
    api.on(updateL4PositionRule, { siteId: 3 }, ok({ ...deny, enabled: false }));
    renderAt(`${PAGE}&kind=position`);
    await findRow('China, France');
    fireEvent.click(screen.getByLabelText('Rule 25565/TCP on'));
    expect(await screen.findByText('Update Success')).toBeTruthy();
    expect(api.sent(updateL4PositionRule, { siteId: 3 })[0]?.body).toEqual({
      id: 51,
      portID: 11,
      isBlack: true,
      positions: ['CN', 'FR'],
      enabled: false,
      memo: '',
    });
    api.on(updateL4PositionRule, { siteId: 3 }, fail(422, 201003, 'too many regions'));
    clickButton('Edit', await findRow('China, France'));
    const dialog = await findModal();
    clickButton('OK', dialog);
    expect(await screen.findByText('number of regions exceeds limit')).toBeTruthy();
  });

  it('lists connection limits and adds one: rate left empty is no rate', async () => {
    api.on(addL4LimitConnRules, { siteId: 3 }, ok([{ ...limit, id: 62 }]));
    renderAt(`${PAGE}&kind=limitConn`);
    const row = await findRow('20');
    expect(within(row).getByText('5/s, burst 10')).toBeTruthy();
    expect(within(row).getByText('60 s')).toBeTruthy();
    clickButton('Create');
    const dialog = await findModal();
    expect(within(dialog).getByText('New connection limit')).toBeTruthy();
    await chooseOption(dialog, 'Port', '27015/UDP');
    typeInto(dialog, 'Connections at once', '2000000');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Must be at most 1000000')).toBeTruthy();
    expect(api.sent(addL4LimitConnRules, { siteId: 3 })).toHaveLength(0);
    typeInto(dialog, 'Connections at once', '50');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(addL4LimitConnRules, { siteId: 3 })[0]?.body).toEqual({
      data: [{ portID: 12, max: 50, rate: null, burst: 0, delay: 0, enabled: true, memo: '' }],
    });
  });

  it('edits a limit: its rate and block kept, the duplicate refused with the catalogue’s message', async () => {
    api.on(updateL4LimitConnRule, { siteId: 3 }, fail(409, 101025, 'one enabled limit per port'));
    renderAt(`${PAGE}&kind=limitConn`);
    clickButton('Edit', await findRow('20'));
    const dialog = await findModal();
    expect(within(dialog).getByText('Edit connection limit')).toBeTruthy();
    clickButton('OK', dialog);
    expect(await screen.findByText('Duplicated data')).toBeTruthy();
    expect(api.sent(updateL4LimitConnRule, { siteId: 3 })[0]?.body).toEqual({
      id: 61,
      portID: 11,
      max: 20,
      rate: 5,
      burst: 10,
      delay: 60,
      enabled: true,
      memo: 'bots',
    });
  });
});
