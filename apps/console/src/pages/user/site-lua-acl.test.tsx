import { listDomains, luaAclRoutes, VALIDATION_MESSAGES } from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi } from '../../test/fake-api';
import { signedInSiteTab, siteDomain } from '../../test/fixtures';
import { chooseOption, clickButton, findModal, findRow, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds).
const api = pageTestApi(signedInSiteTab);

const PAGE = '/user/sitesManagement/sitesSetting/3/shop?tab=modules&module=luaAcl';
const stamps = { createdAt: '2026-01-02T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z' };
const edge = { id: 12, siteID: 3, name: 'edge rules', domainIDs: [9], ruleCount: 1, ...stamps };
const condition = { negate: false, name: '', value: '', values: [], count: 0, seconds: 60 };
const rule = {
  id: 70,
  moduleID: 12,
  name: 'no bots',
  priority: 10,
  enabled: true,
  action: 'deny' as const,
  redirectUrl: '',
  conditions: [{ ...condition, field: 'userAgent' as const, operator: 'contains' as const, value: 'bot' }],
  ...stamps,
};
const params = { siteId: 3, moduleId: 12 };

async function openRules(): Promise<HTMLElement> {
  clickButton('Rules (1)', await findRow('edge rules'));
  return (await screen.findByText('Rules of edge rules')).closest('.ant-drawer') as HTMLElement;
}

describe('sitesSetting: Lua ACL modules', () => {
  beforeEach(() => {
    api.on(luaAclRoutes.list, { siteId: 3 }, okPage([edge]));
    api.on(luaAclRoutes.listRules, params, okPage([rule]));
    api.on(listDomains, { siteId: 3 }, okPage([siteDomain({ luaAclModuleID: 12, luaAclModuleName: 'edge rules' })]));
  });

  it('lists the rules of a module, paged on the server, with their conditions and action', async () => {
    renderAt(PAGE);
    const drawer = await openRules();
    const row = (await within(drawer).findByText('no bots')).closest('tr') as HTMLElement;
    expect(within(row).getByText('User agent contains "bot"')).toBeTruthy();
    expect(within(row).getByText('DENY (403)')).toBeTruthy();
    await waitFor(() =>
      expect(Object.fromEntries(api.sent(luaAclRoutes.listRules, params)[0]?.search ?? [])).toEqual({
        page: '1',
        pageSize: '20',
      }),
    );
  });

  it('adds a rule with two conditions and a redirect, sending what the form holds', async () => {
    api.on(luaAclRoutes.addRule, params, ok({ ...rule, id: 71 }));
    renderAt(PAGE);
    const drawer = await openRules();
    clickButton('Add rule', drawer);
    const dialog = await findModal();
    typeInto(dialog, 'Rule name', 'old api');
    typeInto(dialog, 'Value 1', '/api/v1/');
    clickButton('Add condition', dialog);
    await chooseOption(dialog, 'Condition field 2', 'Request method');
    (await within(dialog).findByLabelText('POST')).click();
    await chooseOption(dialog, 'Action', '301 Redirect');
    await within(dialog).findByLabelText('Redirect to (301)');
    typeInto(dialog, 'Redirect to (301)', 'https://api.example.com/v2/');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    const body = api.sent(luaAclRoutes.addRule, params)[0]?.body as { conditions: unknown[] };
    expect(body).toMatchObject({
      name: 'old api',
      priority: 0,
      enabled: true,
      action: 'redirect',
      redirectUrl: 'https://api.example.com/v2/',
    });
    // Only the inputs a condition shows are sent; the contract's defaults fill the others.
    expect(body.conditions).toEqual([
      { field: 'uriPath', operator: 'prefix', value: '/api/v1/', negate: false },
      { field: 'method', operator: 'in', negate: false, values: ['POST'] },
    ]);
  });

  it("names every bad address of a condition's values with its place and sends nothing", async () => {
    renderAt(PAGE);
    const drawer = await openRules();
    clickButton('Add rule', drawer);
    const dialog = await findModal();
    typeInto(dialog, 'Rule name', 'no scanners');
    await chooseOption(dialog, 'Condition field 1', 'IP');
    const input = (await within(dialog).findByLabelText('Values 1')) as HTMLInputElement;
    for (const entry of ['10.0.0.0/8', '10.0.0.300', '2001:db8::/129']) {
      fireEvent.change(input, { target: { value: entry } });
      fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    }
    clickButton('OK', dialog);
    const wrong = VALIDATION_MESSAGES.wrongFormat.en_US;
    expect(await within(dialog).findByText(`Entry 2 (10.0.0.300): ${wrong}`)).toBeTruthy();
    expect(within(dialog).getByText(`Entry 3 (2001:db8::/129): ${wrong}`)).toBeTruthy();
    expect(api.sent(luaAclRoutes.addRule, params)).toHaveLength(0);
  });

  it('shows a refused regex under its field', async () => {
    const fields = [{ in: 'body', field: 'conditions.0.value', key: 'wrongFormat', message: 'Not a safe pattern' }];
    api.on(luaAclRoutes.updateRule, params, fail(400, 101003, 'Parameter Error', { fields }));
    renderAt(PAGE);
    const drawer = await openRules();
    clickButton('Edit', (await within(drawer).findByText('no bots')).closest('tr') as HTMLElement);
    const dialog = await findModal();
    expect((within(dialog).getByLabelText('Value 1') as HTMLInputElement).value).toBe('bot');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Not a safe pattern')).toBeTruthy();
    expect(api.sent(luaAclRoutes.updateRule, params)[0]?.body).toMatchObject({ id: 70, name: 'no bots', priority: 10 });
  });

  it('turns a rule off from its switch', async () => {
    api.on(luaAclRoutes.enableRules, params, ok(true));
    renderAt(PAGE);
    const drawer = await openRules();
    await within(drawer).findByText('no bots');
    within(drawer).getByLabelText('Enable no bots').click();
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(luaAclRoutes.enableRules, params)[0]?.body).toEqual({ ids: [70], enabled: false });
  });
});
