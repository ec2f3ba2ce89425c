import { expect, type Page, test } from '@playwright/test';
import { createDomains, initializeNodes } from '@rampart/contract';
import { newCustomer } from '../support/accounts.js';
import { api } from '../support/api.js';
import { logout, submitLogin } from '../support/console.js';
import { E2E } from '../support/env.js';
import { edgeEvent, shipEvents } from '../support/events.js';
import { registerNodeWithSecret } from '../support/nodes.js';
import { customerSite, uniqueLabel } from '../support/sites.js';

// Traffic statistics end to end: a node ships real request events for a customer's domain (the
// signed gzip batch its agent sends), the customer's statistics page shows their numbers, and
// another customer of the same operator sees none of them.

async function signInAs(page: Page, account: string): Promise<void> {
  await submitLogin(page, 'user', E2E.password, account);
  await expect(page.getByTestId('account-summary')).toBeVisible();
}

test('a customer sees the traffic its sites served, and another customer does not', async ({ page }) => {
  const owner = await newCustomer('statsowner');
  const other = await newCustomer('statsother');
  const { siteID, zoneID, groupID } = await customerSite(uniqueLabel('stats-site-'), owner.account);
  const node = await registerNodeWithSecret(uniqueLabel('stats-edge-'));
  await api('client', initializeNodes, { body: { ids: [node.nodeId], zoneID, groupID } });
  const host = `${uniqueLabel('www')}.stats.example`;
  const [domain] = await api({ tier: 'user', account: owner.account }, createDomains, {
    params: { siteId: siteID },
    body: { domains: [{ name: host, upstreams: [{ ip: '1.1.1.1', port: 80 }] }] },
  });
  if (!domain) throw new Error('no domain created');

  // Five requests of 300 kB each (1.50 MB), one of them a 404 on another path.
  await shipEvents(node, [
    edgeEvent(node.nodeId, 1, { domainId: domain.id, host, path: '/pricing' }),
    edgeEvent(node.nodeId, 2, { domainId: domain.id, host, path: '/pricing' }),
    edgeEvent(node.nodeId, 3, { domainId: domain.id, host, path: '/pricing' }),
    edgeEvent(node.nodeId, 4, { domainId: domain.id, host, path: '/pricing' }),
    edgeEvent(node.nodeId, 5, { domainId: domain.id, host, path: '/gone', status: 404 }),
  ]);

  await signInAs(page, owner.account);
  await page.goto('/user/dataAnalysis/statistics');
  const requestInfo = page.getByTestId('card-3');
  await expect(requestInfo.getByTestId('figure-requests')).toContainText('5');
  await expect(requestInfo.getByTestId('figure-bytesOut')).toContainText('1.50 MB');
  await expect(page.getByTestId('card-5').getByTestId('figure-s4xx')).toContainText('1');
  await expect(page.getByTestId('card-5').getByTestId('status-codes')).toContainText('404: 1');
  await expect(page.getByTestId('series-4').getByTestId('series-summary')).toContainText('Requests: 5');
  await expect(page.getByTestId('series-1').locator('canvas')).toBeVisible();
  const urls = page.getByTestId('top-19');
  await expect(urls.getByRole('row', { name: /\/pricing/ })).toContainText('4');
  await expect(page.getByTestId('domain-totals').getByRole('row', { name: new RegExp(host) })).toContainText('1.50 MB');

  // The same requests one by one in the access log: the 404 found by its status, opened whole.
  await page.goto('/user/dataAnalysis/logger');
  const accessLog = page.getByTestId('log-access');
  await expect(accessLog.getByRole('row', { name: /\/pricing/ })).toHaveCount(4);
  await page.getByLabel('Status').fill('404');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(accessLog.getByRole('row', { name: /\/pricing/ })).toHaveCount(0);
  const gone = accessLog.getByRole('row', { name: /\/gone/ });
  await gone.getByText('/gone').click();
  await expect(page.getByRole('dialog')).toContainText(host);
  await expect(page.getByRole('dialog')).toContainText('e2e-agent');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await logout(page, 'user');
  await signInAs(page, other.account);
  await page.goto('/user/dataAnalysis/logger');
  await expect(page.getByTestId('log-access')).toContainText('No requests match in this time range');
  await page.goto('/user/dataAnalysis/statistics');
  await expect(page.getByTestId('card-3').getByTestId('figure-requests')).toHaveText(/Requests\s*0$/);
  await expect(page.getByTestId('series-1')).toContainText('No node serves these sites yet');
  await expect(page.getByText(host)).toHaveCount(0);
  await expect(page.getByText('/pricing')).toHaveCount(0);
});
