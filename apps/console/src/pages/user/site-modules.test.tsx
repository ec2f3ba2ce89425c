import { bindModuleRoutes, corsRoutes, customHeaderRoutes, listDomains, urlRedirectRoutes } from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi } from '../../test/fake-api';
import { signedInSiteTab, siteDomain } from '../../test/fixtures';
import { chooseOption, clickButton, findModal, findPopconfirm, findRow, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds).
const api = pageTestApi(signedInSiteTab);

const MODULES = '/user/sitesManagement/sitesSetting/3/shop?tab=modules';
const stamps = { siteID: 3, createdAt: '2026-01-02T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z' };
const security = {
  id: 5,
  name: 'security',
  domainIDs: [9],
  headers: [
    { type: 'request', name: 'X-From-Edge', value: 'yes' },
    { type: 'response', name: 'X-Frame-Options', value: 'DENY' },
  ],
  ...stamps,
};
const domain = siteDomain({ customHeaderModuleID: 5 });

describe('sitesSetting: modules', () => {
  beforeEach(() => {
    api.on(customHeaderRoutes.list, { siteId: 3 }, okPage([security]));
    api.on(listDomains, { siteId: 3 }, okPage([domain]));
  });

  it('lists custom header modules and creates one with headers in both directions', async () => {
    api.on(customHeaderRoutes.create, { siteId: 3 }, ok([{ ...security, id: 6, name: 'cors-ish' }]));
    renderAt(MODULES);
    const row = await findRow('security');
    expect(within(row).getByText('1 request, 1 response')).toBeTruthy();
    clickButton('Create module');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'cache hints');
    clickButton('Add header', dialog);
    clickButton('Add header', dialog);
    typeInto(dialog, 'Header name 1', 'Cache-Control');
    typeInto(dialog, 'Value (empty removes the header) 1', 'no-cache');
    await chooseOption(dialog, 'Direction 2', 'Request (to origin)');
    typeInto(dialog, 'Header name 2', 'Cookie');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(customHeaderRoutes.create, { siteId: 3 })[0]?.body).toEqual({
      modules: [
        {
          name: 'cache hints',
          headers: [
            { type: 'response', name: 'Cache-Control', value: 'no-cache' },
            { type: 'request', name: 'Cookie', value: '' },
          ],
        },
      ],
    });
  });

  it('edits a module (Header Set Success!) and shows a refused header under its field', async () => {
    const fields = [{ in: 'body', field: 'headers.1.name', key: 'headerNameNotAllowed', message: 'Not this header' }];
    let calls = 0;
    api.on(customHeaderRoutes.update, { siteId: 3 }, () => {
      calls += 1;
      return calls === 1 ? fail(400, 101003, 'Parameter Error', { fields }) : ok(security);
    });
    renderAt(MODULES);
    clickButton('Edit', await findRow('security'));
    const dialog = await findModal();
    expect((within(dialog).getByLabelText('Header name 2') as HTMLInputElement).value).toBe('X-Frame-Options');
    typeInto(dialog, 'Header name 2', 'Content-Length');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Not this header')).toBeTruthy();
    typeInto(dialog, 'Header name 2', 'X-Frame-Options');
    clickButton('OK', dialog);
    expect(await screen.findByText('Header Set Success!')).toBeTruthy();
    expect(api.sent(customHeaderRoutes.update, { siteId: 3 })[1]?.body).toEqual({
      id: 5,
      name: 'security',
      headers: security.headers,
    });
  });

  it('binds a module to domains, and "None" (0) unbinds', async () => {
    api.on(bindModuleRoutes.customHeader, { siteId: 3 }, ok(true));
    renderAt(MODULES);
    clickButton('Bind to domains', await findRow('security'));
    let dialog = await findModal();
    await waitFor(() => expect(api.sent(listDomains, { siteId: 3 })).toHaveLength(1));
    await chooseOption(dialog, 'Domains', 'www.example.com (security)');
    clickButton('OK', dialog);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(bindModuleRoutes.customHeader, { siteId: 3 })[0]?.body).toEqual({
      domainIDs: [9],
      moduleID: 5,
    });

    const toolbarBind = screen.getAllByText('Bind to domains', { selector: 'button, button *' })[0] as HTMLElement;
    fireEvent.click(toolbarBind);
    dialog = await findModal();
    await chooseOption(dialog, 'Domains', 'www.example.com (security)');
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(bindModuleRoutes.customHeader, { siteId: 3 })).toHaveLength(2));
    expect(api.sent(bindModuleRoutes.customHeader, { siteId: 3 })[1]?.body).toEqual({
      domainIDs: [9],
      moduleID: 0,
    });
  });

  it('deletes a module (REMOVE SUCCESS) and shows why a bound one cannot go', async () => {
    const fields = [
      { in: 'body', field: 'ids.0', key: 'moduleInUse', message: 'The module is still bound to: www.example.com' },
    ];
    let calls = 0;
    api.on(customHeaderRoutes.delete, { siteId: 3 }, () => {
      calls += 1;
      return calls === 1 ? fail(400, 101003, 'Parameter Error', { fields }) : ok(true);
    });
    renderAt(MODULES);
    const remove = async () => {
      clickButton('Delete', await findRow('security'));
      clickButton('Delete', await findPopconfirm('Delete the module security?'));
    };
    await remove();
    expect(await screen.findByText('The module is still bound to: www.example.com')).toBeTruthy();
    await remove();
    expect(await screen.findByText('REMOVE SUCCESS')).toBeTruthy();
    expect(api.sent(customHeaderRoutes.delete, { siteId: 3 })[1]?.body).toEqual({ ids: [5] });
  });

  it('binds a CORS module with corsID', async () => {
    const cors = {
      id: 8,
      name: 'app',
      domainIDs: [],
      origins: ['https://app.example.com'],
      methods: ['GET'],
      allowHeaders: [],
      exposeHeaders: [],
      credentials: false,
      maxAge: 600,
      ...stamps,
    };
    api.on(corsRoutes.list, { siteId: 3 }, okPage([cors]));
    api.on(bindModuleRoutes.cors, { siteId: 3 }, ok(true));
    renderAt(`${MODULES}&module=cors`);
    const row = await findRow('app');
    expect(within(row).getByText('https://app.example.com')).toBeTruthy();
    clickButton('Bind to domains', row);
    const dialog = await findModal();
    await chooseOption(dialog, 'Domains', 'www.example.com');
    clickButton('OK', dialog);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(bindModuleRoutes.cors, { siteId: 3 })[0]?.body).toEqual({ domainIDs: [9], corsID: 8 });
  });

  it("names every bad entry of a CORS module's origins and header names with its place and sends nothing", async () => {
    const listed = {
      id: 8,
      name: 'app',
      domainIDs: [],
      origins: ['*'],
      methods: ['GET'],
      credentials: false,
      maxAge: 600,
    };
    api.on(corsRoutes.list, { siteId: 3 }, okPage([{ ...listed, allowHeaders: [], exposeHeaders: [], ...stamps }]));
    renderAt(`${MODULES}&module=cors`);
    await findRow('app');
    clickButton('Create module');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'app');
    const tags = (label: string, entries: string[]) => {
      const input = within(dialog).getByLabelText(label) as HTMLInputElement;
      for (const entry of entries) {
        fireEvent.change(input, { target: { value: entry } });
        fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
      }
    };
    tags('Allowed origins', ['https://app.example.com', 'ftp://files.example.com']);
    tags('Allowed request headers', ['X-Token', 'bad header']);
    tags('Exposed response headers', ['X:Y']);
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(/^Entry 2 \(ftp:\/\/files\.example\.com\): /)).toBeTruthy();
    expect(within(dialog).getByText(/^Entry 2 \(bad header\): /)).toBeTruthy();
    expect(within(dialog).getByText(/^Entry 1 \(X:Y\): /)).toBeTruthy();
    expect(api.sent(corsRoutes.create, { siteId: 3 })).toHaveLength(0);
  });

  it('adds and deletes the rules of a redirect module', async () => {
    const moves = { id: 11, name: 'moves', domainIDs: [], ruleCount: 1, ...stamps };
    const rule = {
      id: 40,
      moduleID: 11,
      matchType: 'exact',
      source: '/old',
      target: '/new',
      statusCode: 301,
      keepQuery: true,
      createdAt: stamps.createdAt,
      updatedAt: stamps.updatedAt,
    };
    api.on(urlRedirectRoutes.list, { siteId: 3 }, okPage([moves]));
    api.on(urlRedirectRoutes.listRules, { siteId: 3, moduleId: 11 }, okPage([rule]));
    api.on(urlRedirectRoutes.addRules, { siteId: 3, moduleId: 11 }, ok([{ ...rule, id: 41 }]));
    api.on(urlRedirectRoutes.deleteRules, { siteId: 3, moduleId: 11 }, ok(true));
    renderAt(`${MODULES}&module=urlRedirect`);
    clickButton('Rules (1)', await findRow('moves'));
    const drawer = (await screen.findByText('Rules of moves')).closest('.ant-drawer') as HTMLElement;
    expect(await within(drawer).findByText('/old')).toBeTruthy();
    typeInto(drawer, 'Source', '/docs/');
    typeInto(drawer, 'Target', 'https://docs.example.com/');
    await chooseOption(drawer, 'Match', 'Path prefix');
    await chooseOption(drawer, 'Status code', '302');
    clickButton('Add rule', drawer);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(urlRedirectRoutes.addRules, { siteId: 3, moduleId: 11 })[0]?.body).toEqual({
      items: [
        {
          matchType: 'prefix',
          source: '/docs/',
          target: 'https://docs.example.com/',
          statusCode: 302,
          keepQuery: true,
        },
      ],
    });
    clickButton('Delete', (await within(drawer).findByText('/old')).closest('tr') as HTMLElement);
    clickButton('Delete', await findPopconfirm('Delete this rule?'));
    expect(await screen.findByText('REMOVE SUCCESS')).toBeTruthy();
    expect(api.sent(urlRedirectRoutes.deleteRules, { siteId: 3, moduleId: 11 })[0]?.body).toEqual({ ids: [40] });
  });
});
