import { expect, test } from '@playwright/test';
import {
  bindModuleRoutes,
  createDomains,
  initializeNodes,
  listDomains,
  WAF_GROUPS,
  wafRoutes,
} from '@rampart/contract';
import { api } from '../support/api.js';
import { chooseOption as choose, chooseTab, login } from '../support/console.js';
import { edgeEvent, shipEvents } from '../support/events.js';
import { registerNodeWithSecret } from '../support/nodes.js';
import { customerSite, uniqueLabel } from '../support/sites.js';

test('a customer sets up a WAF module, adds an exclusion and binds it to a domain', async ({ page }) => {
  const site = await customerSite(uniqueLabel('e2e waf '));
  const host = `${uniqueLabel('www')}.waf.example`;
  const [domain] = await api('user', createDomains, {
    params: { siteId: site.siteID },
    body: { domains: [{ name: host, upstreams: [{ ip: '1.1.1.1', port: 80 }] }] },
  });
  if (!domain) throw new Error('no domain created');

  await login(page, 'user');
  await page.goto(`/user/sitesManagement/sitesSetting/${site.siteID}?tab=modules`);
  await chooseTab(page.getByRole('tab', { name: 'WAF' }));
  await expect(page).toHaveURL(/module=waf/);

  // A new module starts from the defaults: block, every group, no exclusions.
  await page.getByRole('button', { name: 'Create module' }).click();
  let dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Cross-site scripting')).toBeVisible();
  await dialog.getByLabel('Name', { exact: true }).fill('shop firewall');
  await dialog.getByRole('button', { name: 'OK' }).click();
  const row = page.getByRole('row').filter({ hasText: 'shop firewall' });
  await expect(
    row.getByText(`Block · ${WAF_GROUPS.length} of ${WAF_GROUPS.length} groups · 0 exclusions`),
  ).toBeVisible();

  // Detect only, and the scanner group off.
  await row.getByRole('button', { name: 'Edit' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByLabel('Detect only').check();
  await dialog.getByRole('checkbox', { name: /^Scanners/ }).uncheck();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(
    row.getByText(`Detect only · ${WAF_GROUPS.length - 1} of ${WAF_GROUPS.length} groups · 0 exclusions`),
  ).toBeVisible();

  // One exclusion through the dialog the WAF events open too.
  await row.getByRole('button', { name: 'Add exclusion' }).click();
  dialog = page.getByRole('dialog').filter({ hasText: 'Add a WAF exclusion' });
  await dialog.getByLabel('Rule ID').fill('100012');
  await choose(page, dialog.getByRole('combobox', { name: 'Part of the request' }), 'Query argument');
  await dialog.getByLabel('Name', { exact: true }).fill('q');
  await dialog.getByLabel('Path prefix').fill('/search');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('SET SUCCESS').last()).toBeVisible();
  await expect(row.getByText(/· 1 exclusion$/)).toBeVisible();

  // Bound to the site's domain.
  await row.getByRole('button', { name: 'Bind to domains' }).click();
  dialog = page.getByRole('dialog').filter({ hasText: 'Bind a WAF module to domains' });
  await choose(page, dialog.getByRole('combobox', { name: 'Domains' }), host, host);
  // A multiple select keeps its list open over the dialog's buttons.
  await page.keyboard.press('Escape');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByRole('cell', { name: '1', exact: true })).toBeVisible();

  const [stored] = await api('user', wafRoutes.list, { params: { siteId: site.siteID } });
  expect(stored).toMatchObject({
    name: 'shop firewall',
    mode: 'detect',
    groups: WAF_GROUPS.filter((g) => g !== 'scanner'),
    sensitivity: 'medium',
    failMode: 'open',
    exclusions: [{ ruleId: 100_012, group: null, part: 'query', name: 'q', path: '/search' }],
    domainIDs: [domain.id],
  });
  const domains = await api('user', listDomains, { params: { siteId: site.siteID } });
  expect(domains.find((d) => d.id === domain.id)).toMatchObject({
    wafModuleID: stored?.id,
    wafModuleName: 'shop firewall',
  });
});

test('a customer fixes a false positive from its WAF event with one exclusion', async ({ page }) => {
  const { siteID, zoneID, groupID } = await customerSite(uniqueLabel('e2e waf events '));
  const host = `${uniqueLabel('www')}.wafevents.example`;
  const [domain] = await api('user', createDomains, {
    params: { siteId: siteID },
    body: { domains: [{ name: host, upstreams: [{ ip: '1.1.1.1', port: 80 }] }] },
  });
  if (!domain) throw new Error('no domain created');
  const [module] = await api('user', wafRoutes.create, {
    params: { siteId: siteID },
    body: { modules: [{ name: 'blog' }] },
  });
  if (!module) throw new Error('no module created');
  await api('user', bindModuleRoutes.waf, {
    params: { siteId: siteID },
    body: { domainIDs: [domain.id], moduleID: module.id },
  });

  // The node blocked a comment that quotes HTML, and said why.
  const node = await registerNodeWithSecret(uniqueLabel('waf-edge-'));
  await api('client', initializeNodes, { body: { ids: [node.nodeId], zoneID, groupID } });
  await shipEvents(node, [
    edgeEvent(node.nodeId, 1, {
      domainId: domain.id,
      host,
      method: 'POST',
      path: '/blog/comment?post=7',
      status: 403,
      fwKind: 'waf',
      fwRule: 101_004,
      fwAction: 'deny',
      wafPart: 'body',
      wafName: 'comment',
      wafExcerpt: 'see <img src=x onerror=alert(1)> in the docs',
    }),
  ]);

  await login(page, 'user');
  await page.goto(`/user/sitesManagement/sitesSetting/${siteID}?tab=modules&module=waf`);
  const row = page.getByRole('row').filter({ hasText: 'blog' });
  await row.getByRole('button', { name: 'Events' }).click();
  const events = page.getByTestId('waf-events');
  const event = events.getByRole('row').filter({ hasText: 'onerror' });
  await expect(event).toContainText('101004 · Cross-site scripting');
  await expect(event).toContainText('Blocked');
  await event.getByRole('button', { name: 'Add exclusion' }).click();
  const dialog = page.getByRole('dialog').filter({ hasText: 'Add a WAF exclusion' });
  await expect(dialog.getByLabel('Name', { exact: true })).toHaveValue('comment');
  await expect(dialog.getByLabel('Path prefix')).toHaveValue('/blog/comment');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('SET SUCCESS').last()).toBeVisible();

  const [stored] = await api('user', wafRoutes.list, { params: { siteId: siteID } });
  expect(stored?.exclusions).toEqual([
    { ruleId: null, group: 'xss', part: 'body', name: 'comment', path: '/blog/comment' },
  ]);
});
