import { gzipSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import {
  addSitePorts,
  deleteAsnDatabase,
  EVENT_BATCH_CONTENT_TYPE,
  type L4CounterRecord,
  putL4AttackPageSetting,
  routeUrl,
  shipNodeL4Counters,
} from '@rampart/contract';
import { signedNodeHeaders } from '@rampart/contract/node-signing';
import { asnRecord, writeMmdb } from '@rampart/contract/testing';
import { newCustomer } from '../support/accounts.js';
import { api } from '../support/api.js';
import { login, logout, submitLogin } from '../support/console.js';
import { E2E } from '../support/env.js';
import { type NodeCredentials, registerNodeWithSecret } from '../support/nodes.js';
import { customerSite, uniqueLabel } from '../support/sites.js';

// The layer-4 attack analysis end to end: a node ships layer-4 counter records for a customer's
// TCP port (the signed gzip batch its agent sends), the customer's l4AttackAnalysis page shows
// their numbers — the sources' ASNs from the ASN database the operator installed on its geo
// database page — and another customer of the same operator sees none of them. The page is in the
// customer's menu only once the operator turns its switch on (on the same page).

async function signInAs(page: Page, account: string): Promise<void> {
  await submitLogin(page, 'user', E2E.password, account);
  await expect(page.getByTestId('account-summary')).toBeVisible();
}

/** Opens the sidebar's "Data analysis" group and answers the sidebar. */
async function dataAnalysisMenu(page: Page) {
  const nav = page.getByRole('menu', { name: 'Navigation' });
  await nav.getByText('Data analysis', { exact: true }).click();
  await expect(nav.getByRole('link', { name: 'Security analysis' })).toBeVisible();
  return nav;
}

async function shipCounters(node: NodeCredentials, records: L4CounterRecord[]): Promise<void> {
  const url = routeUrl(shipNodeL4Counters);
  const body = gzipSync(JSON.stringify({ batchId: `e2e${Date.now().toString(36)}-1`, records }));
  const res = await fetch(`${E2E.url}${url}`, {
    method: 'POST',
    headers: { 'content-type': EVENT_BATCH_CONTENT_TYPE, ...signedNodeHeaders(node, 'POST', url, body) },
    body,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  expect((await res.json()).data).toEqual({ stored: records.length, duplicate: false });
}

test('once the operator shows the page, a customer finds it in its menu and sees the layer-4 traffic the kernel passed and dropped on its port, another does not', async ({
  page,
}) => {
  const owner = await newCustomer('l4owner');
  const other = await newCustomer('l4other');
  const { siteID } = await customerSite(uniqueLabel('l4-site-'), owner.account, { portType: 4 });
  // The operator's node (placement asks only that the port's site be the node's operator's).
  const node = await registerNodeWithSecret(uniqueLabel('l4-edge-'));
  const number = 20_000 + Math.floor(Math.random() * 20_000);
  const [port] = await api({ tier: 'user', account: owner.account }, addSitePorts, {
    params: { siteId: siteID },
    body: { ports: [{ port: number, protocol: 'tcp', upstreams: [{ ip: '1.1.1.1', port: 80 }] }] },
  });
  if (!port) throw new Error('no port created');

  // Hidden by default: the customer's menu does not list the page.
  await api('client', putL4AttackPageSetting, { body: { enabled: false } });
  await signInAs(page, owner.account);
  await expect((await dataAnalysisMenu(page)).getByRole('link', { name: 'Layer-4 attack analysis' })).toHaveCount(0);
  await logout(page, 'user');

  // The operator installs an ASN database that knows the dropped source's network, not the passed one's.
  await api('client', deleteAsnDatabase);
  await login(page, 'client');
  await page.goto('/client/systemManagement/geoDatabase');
  const asnCard = page.getByTestId('asn-database');
  await expect(asnCard).toContainText('No ASN database installed');
  const asnDb = writeMmdb([{ cidr: '203.0.113.0/24', data: asnRecord(64500, 'Example Net') }], {
    databaseType: 'GeoLite2-ASN',
  });
  await asnCard.locator('input[type="file"]').setInputFiles({
    name: 'GeoLite2-ASN.mmdb',
    mimeType: 'application/octet-stream',
    buffer: asnDb,
  });
  await asnCard.getByRole('button', { name: 'Install' }).click();
  await expect(page.getByText('ASN database installed')).toBeVisible();
  await expect(asnCard).toContainText('GeoLite2-ASN');
  // ... and shows its customers the layer-4 attack page.
  const shown = page.getByRole('switch', { name: 'Show the layer-4 attack page to your customers' });
  await expect(shown).toHaveAttribute('aria-checked', 'false');
  await shown.click();
  await expect(page.getByText('SET SUCCESS')).toBeVisible();
  await expect(shown).toHaveAttribute('aria-checked', 'true');
  await logout(page, 'client');

  // Two minutes ago: 12 Mb dropped (a SYN flood from one address), 1.2 Mb passed.
  const now = Date.now() - 2 * 60_000;
  const minute = Math.floor(now / 60_000) * 60;
  const r = (over: Partial<L4CounterRecord>): L4CounterRecord => ({
    minute,
    portId: port.id,
    outcome: 'drop',
    dimension: 'protocol',
    key: 'tcp',
    packets: 25_000,
    bytes: 1_500_000,
    ...over,
  });
  await shipCounters(node, [
    r({}),
    r({ outcome: 'pass', packets: 1000, bytes: 150_000 }),
    r({ dimension: 'tcpFlags', key: 'SYN' }),
    r({ outcome: 'pass', dimension: 'tcpFlags', key: 'PSH+ACK', packets: 1000, bytes: 150_000 }),
    r({ dimension: 'source', key: '203.0.113.50' }),
    r({ outcome: 'pass', dimension: 'source', key: '198.51.100.20', packets: 1000, bytes: 150_000 }),
  ]);

  await signInAs(page, owner.account);
  await (await dataAnalysisMenu(page)).getByRole('link', { name: 'Layer-4 attack analysis' }).click();
  await expect(page).toHaveURL(/\/user\/dataAnalysis\/l4AttackAnalysis$/);
  const sum = page.getByTestId('network-sum');
  await expect(sum).toContainText('12.00 Mb');
  await expect(sum).toContainText('1.20 Mb');
  await expect(page.getByTestId('network-top-ip').getByRole('row', { name: /203\.0\.113\.50/ })).toContainText(
    '12.00 Mb',
  );
  await expect(page.getByTestId('network-top-ipProtocol').getByRole('row', { name: /TCP/ })).toContainText('12.00 Mb');
  await expect(page.getByTestId('network-top-tcpFlags').getByRole('row', { name: /SYN/ })).toContainText('25,000');
  const asns = page.getByTestId('network-top-asn');
  await expect(asns.getByRole('row', { name: /AS64500 Example Net/ })).toContainText('12.00 Mb');
  await expect(asns.getByRole('row', { name: /Unknown/ })).toContainText('1.20 Mb');
  await expect(page.getByTestId('network-rate-outcome').locator('canvas')).toBeVisible();

  await logout(page, 'user');
  await signInAs(page, other.account);
  await page.goto('/user/dataAnalysis/l4AttackAnalysis');
  await expect(page.getByTestId('network-top-ip')).toContainText(
    /No node serves these sites yet|No traffic in this range yet/,
  );
  await expect(page.getByText('203.0.113.50')).toHaveCount(0);
  await api('client', deleteAsnDatabase);
  await api('client', putL4AttackPageSetting, { body: { enabled: false } });
});
