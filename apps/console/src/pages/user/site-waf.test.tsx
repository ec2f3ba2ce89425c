import { type LogRecord, listDomains, userWafLogs, WAF_GROUP_TEXT, WAF_GROUPS, wafRoutes } from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, logPage, ok, okPage, pageTestApi } from '../../test/fake-api';
import { signedInSiteTab, siteDomain } from '../../test/fixtures';
import { chooseOption, clickButton, findModal, findRow, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';
import { bodies } from '../../test/statistics';
import { wafExclusionBody } from './site-setting/modules/WafFields';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds).
const api = pageTestApi(signedInSiteTab);

const PAGE = '/user/sitesManagement/sitesSetting/3/shop?tab=modules&module=waf';
const stamps = { createdAt: '2026-01-02T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z' };
const exclusion = { ruleId: 100_012, group: null, part: 'query' as const, name: 'q', path: '/search' };
const shop = {
  id: 21,
  siteID: 3,
  name: 'storefront',
  domainIDs: [9],
  mode: 'block' as const,
  groups: [...WAF_GROUPS],
  sensitivity: 'medium' as const,
  failMode: 'open' as const,
  exclusions: [exclusion],
  ...stamps,
};
/** The PUT of the module with one exclusion more, everything else as it was. */
const storefrontWith = (added: object) => {
  const { id, name, mode, groups, sensitivity, failMode } = shop;
  return { id, name, mode, groups, sensitivity, failMode, exclusions: [exclusion, added] };
};
const groups = WAF_GROUPS.map((key, i) => ({
  key,
  ruleIdMin: 100_000 + i * 1000,
  ruleIdMax: 100_999 + i * 1000,
  name: WAF_GROUP_TEXT[key].name.en_US,
  description: WAF_GROUP_TEXT[key].description.en_US,
}));

const wafEvent = (over: Partial<LogRecord>): LogRecord => ({
  reqID: 'edge-1-1-1-9',
  time: '2026-11-24T10:00:00.000Z',
  nodeID: 2,
  zoneID: 1,
  siteID: 3,
  domainID: 9,
  host: 'www.shop.example',
  ip: '198.51.100.7',
  country: '',
  method: 'POST',
  scheme: 'https',
  httpVersion: '2',
  url: '/',
  status: 200,
  bytesIn: 0,
  bytesOut: 0,
  requestMs: 1,
  upstreamMs: 1,
  upstreamStatus: 200,
  cacheStatus: '',
  userAgent: '',
  referer: '',
  fwKind: 'waf',
  fwRule: 0,
  fwAction: 'deny',
  wafPart: '',
  wafExcerpt: '',
  wafName: '',
  ...over,
});

describe('sitesSetting: WAF modules', () => {
  beforeEach(() => {
    api.on(wafRoutes.list, { siteId: 3 }, okPage([shop]));
    api.on(wafRoutes.defaultRules, {}, ok(groups));
    api.on(listDomains, { siteId: 3 }, okPage([siteDomain({ wafModuleID: 21, wafModuleName: 'shop' })]));
  });

  it('lists the modules, paged on the server, with what each does', async () => {
    renderAt(PAGE);
    const row = await findRow('storefront');
    expect(
      within(row).getByText(new RegExp(`Block · ${WAF_GROUPS.length} of ${WAF_GROUPS.length} groups · 1 exclusion`)),
    ).toBeTruthy();
    await waitFor(() =>
      expect(Object.fromEntries(api.sent(wafRoutes.list, { siteId: 3 })[0]?.search ?? [])).toEqual({
        page: '1',
        pageSize: '10',
      }),
    );
  });

  it('creates a module from the defaults with the groups named and described, sending what the form holds', async () => {
    api.on(wafRoutes.create, { siteId: 3 }, ok([{ ...shop, id: 22, name: 'blog' }]));
    renderAt(PAGE);
    await findRow('storefront');
    clickButton('Create module');
    const dialog = await findModal();
    expect(await within(dialog).findByText('Cross-site scripting')).toBeTruthy();
    expect(within(dialog).getByText('Scripts, event handlers and script URLs injected into pages')).toBeTruthy();
    typeInto(dialog, 'Name', 'blog');
    fireEvent.click(within(dialog).getByLabelText('Detect only'));
    fireEvent.click(within(dialog).getByText('Scanners'));
    fireEvent.click(within(dialog).getByLabelText('High'));
    clickButton('OK', dialog);
    await waitFor(() =>
      expect(api.sent(wafRoutes.create, { siteId: 3 })[0]?.body).toEqual({
        modules: [
          {
            name: 'blog',
            mode: 'detect',
            groups: WAF_GROUPS.filter((g) => g !== 'scanner'),
            sensitivity: 'high',
            failMode: 'open',
            exclusions: [],
          },
        ],
      }),
    );
  });

  it('edits exclusions in the form: one added for a group, sent as the server takes it', async () => {
    api.on(wafRoutes.update, { siteId: 3 }, ok(shop));
    renderAt(PAGE);
    clickButton('Edit', await findRow('storefront'));
    const dialog = await findModal();
    expect((within(dialog).getByLabelText('Rule ID 1') as HTMLInputElement).value).toBe('100012');
    clickButton('Add exclusion', dialog);
    await chooseOption(dialog, 'Rule group 2', 'Cross-site scripting');
    await chooseOption(dialog, 'Part of the request 2', 'Body argument');
    typeInto(dialog, 'Name 2', 'comment');
    clickButton('OK', dialog);
    await waitFor(() =>
      expect(api.sent(wafRoutes.update, { siteId: 3 })[0]?.body).toEqual(
        storefrontWith({ ruleId: null, group: 'xss', part: 'body', name: 'comment', path: '' }),
      ),
    );
  });

  it('shows a refused exclusion field under it', async () => {
    const fields = [{ in: 'body', field: 'exclusions.0.path', key: 'wrongFormat', message: 'Not a path prefix' }];
    api.on(wafRoutes.update, { siteId: 3 }, fail(400, 101003, 'Parameter Error', { fields }));
    renderAt(PAGE);
    clickButton('Edit', await findRow('storefront'));
    const dialog = await findModal();
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Not a path prefix')).toBeTruthy();
  });

  it('appends one exclusion with the add-exclusion dialog, keeping the module and its other exclusions', async () => {
    api.on(wafRoutes.update, { siteId: 3 }, ok(shop));
    renderAt(PAGE);
    clickButton('Add exclusion', await findRow('storefront'));
    const dialog = await findModal();
    expect(within(dialog).getByText('Add a WAF exclusion')).toBeTruthy();
    typeInto(dialog, 'Rule ID', '101005');
    await chooseOption(dialog, 'Part of the request', 'Cookie');
    typeInto(dialog, 'Name', 'session');
    typeInto(dialog, 'Path prefix', '/account');
    clickButton('OK', dialog);
    await waitFor(() =>
      expect(api.sent(wafRoutes.update, { siteId: 3 })[0]?.body).toEqual(
        storefrontWith({ ruleId: 101_005, group: null, part: 'cookie', name: 'session', path: '/account' }),
      ),
    );
  });

  it("shows the module's WAF events, and makes an exclusion from one, prefilled from the event", async () => {
    api.on(wafRoutes.update, { siteId: 3 }, ok(shop));
    api.on(
      userWafLogs,
      logPage([
        wafEvent({
          fwRule: 101_003,
          fwAction: 'detect',
          wafPart: 'body',
          wafName: 'comment',
          wafExcerpt: '<img src=x onerror=alert(1)>',
          url: '/blog/post?id=7',
        }),
      ]),
    );
    renderAt(PAGE);
    clickButton('Events', await findRow('storefront'));
    expect(await screen.findByText('Recent WAF events of storefront')).toBeTruthy();
    const event = await findRow('<img src=x onerror=alert(1)>');
    expect(within(event).getByText('101003 · Cross-site scripting')).toBeTruthy();
    expect(within(event).getByText('Detected only')).toBeTruthy();
    // The events of the module's own domains, over the last day.
    const [asked] = bodies<{ siteIDs: number[]; domainIDs: number[]; startTime: string; endTime: string }>(
      api,
      userWafLogs,
    );
    expect(asked).toMatchObject({ siteIDs: [3], domainIDs: [9] });
    expect(asked && Date.parse(asked.endTime) - Date.parse(asked.startTime)).toBe(86_400_000);
    clickButton('Add exclusion', event);
    const dialog = await findModal();
    expect(within(dialog).getByText('Add a WAF exclusion')).toBeTruthy();
    clickButton('OK', dialog);
    await waitFor(() =>
      expect(api.sent(wafRoutes.update, { siteId: 3 })[0]?.body).toEqual(
        storefrontWith({ ruleId: null, group: 'xss', part: 'body', name: 'comment', path: '/blog/post' }),
      ),
    );
  });

  it('asks for no events of a module bound to no domain', async () => {
    api.on(wafRoutes.list, { siteId: 3 }, okPage([{ ...shop, domainIDs: [] }]));
    renderAt(PAGE);
    clickButton('Events', await findRow('storefront'));
    expect(await screen.findByText('This module is bound to no domain yet: bind it to see its events')).toBeTruthy();
    expect(api.sent(userWafLogs)).toEqual([]);
  });

  it('does not add an exclusion the module already has', async () => {
    renderAt(PAGE);
    clickButton('Add exclusion', await findRow('storefront'));
    const dialog = await findModal();
    typeInto(dialog, 'Rule ID', '100012');
    await chooseOption(dialog, 'Part of the request', 'Query argument');
    typeInto(dialog, 'Name', 'q');
    typeInto(dialog, 'Path prefix', '/search');
    clickButton('OK', dialog);
    expect(await screen.findByText('The module already has this exclusion.')).toBeTruthy();
    expect(api.sent(wafRoutes.update, { siteId: 3 })).toEqual([]);
  });
});

describe('WAF exclusion body', () => {
  it('sends null for the absent one of rule and group, and no name on the path or anywhere', () => {
    expect(wafExclusionBody({ ruleId: 100_001, group: 'xss', part: 'query', name: ' q ', path: '' })).toEqual({
      ruleId: 100_001,
      group: null,
      part: 'query',
      name: 'q',
      path: '',
    });
    expect(wafExclusionBody({ group: 'traversal', part: 'path', name: 'x' })).toEqual({
      ruleId: null,
      group: 'traversal',
      part: 'path',
      name: '',
      path: '',
    });
  });
});
