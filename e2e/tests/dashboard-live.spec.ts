import { expect, type Page, test } from '@playwright/test';
import { createDomains, initializeNodes } from '@rampart/contract';
import { newCustomer } from '../support/accounts.js';
import { api } from '../support/api.js';
import { logout, submitLogin } from '../support/console.js';
import { E2E } from '../support/env.js';
import { edgeEvent, shipEvents } from '../support/events.js';
import { registerNodeWithSecret } from '../support/nodes.js';
import { customerSite, uniqueLabel } from '../support/sites.js';

// The dashboard's live figures end to end: a node ships request events (two stopped by the WAF) for
// a customer's domain; that customer's dashboard shows them in the last five minutes and the last
// 24 hours with the domain among the most attacked, at 1280 px without sideways scrolling; another
// customer of the same operator sees none of them.
test.use({ viewport: { width: 1280, height: 800 } });

async function signInAs(page: Page, account: string): Promise<void> {
  await submitLogin(page, 'user', E2E.password, account);
  await expect(page.getByTestId('account-summary')).toBeVisible();
}

test("a customer's dashboard shows its live requests, blocks and most attacked domain; another's does not", async ({
  page,
}) => {
  const owner = await newCustomer('liveowner');
  const other = await newCustomer('liveother');
  const { siteID, zoneID, groupID } = await customerSite(uniqueLabel('live-site-'), owner.account);
  const node = await registerNodeWithSecret(uniqueLabel('live-edge-'));
  await api('client', initializeNodes, { body: { ids: [node.nodeId], zoneID, groupID } });
  const host = `${uniqueLabel('www')}.live.example`;
  const [domain] = await api({ tier: 'user', account: owner.account }, createDomains, {
    params: { siteId: siteID },
    body: { domains: [{ name: host, upstreams: [{ ip: '1.1.1.1', port: 80 }] }] },
  });
  if (!domain) throw new Error('no domain created');
  const waf = { status: 403, fwKind: 'waf' as const, fwRule: 3, fwAction: 'deny' as const };
  await shipEvents(node, [
    edgeEvent(node.nodeId, 1, { domainId: domain.id, host }),
    edgeEvent(node.nodeId, 2, { domainId: domain.id, host }),
    edgeEvent(node.nodeId, 3, { domainId: domain.id, host, ...waf }),
    edgeEvent(node.nodeId, 4, { domainId: domain.id, host, ...waf }),
  ]);

  await signInAs(page, owner.account);
  const now = page.getByTestId('live-now');
  await expect(now).toContainText(/Requests\s*4/);
  await expect(now).toContainText(/Blocked\s*2/);
  await expect(page.getByTestId('live-day')).toContainText(/Requests\s*4/);
  await expect(page.getByTestId('top-24').getByRole('row', { name: new RegExp(host) })).toContainText('2');
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0, { timeout: 15_000 });
  const widths = await page.evaluate(() => ({
    document: document.documentElement.scrollWidth,
    window: window.innerWidth,
  }));
  expect(widths.document).toBeLessThanOrEqual(widths.window);

  await logout(page, 'user');
  await signInAs(page, other.account);
  await expect(page.getByTestId('live-now')).toContainText(/Requests\s*0/);
  await expect(page.getByTestId('live-day')).toContainText(/Blocked\s*0/);
  await expect(page.getByText(host)).toHaveCount(0);
});
