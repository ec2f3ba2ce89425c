import { expect, type Page, test } from '@playwright/test';
import {
  addAbuseIPs,
  addAntiCCRules,
  addBlacklistRules,
  addCacheRules,
  addGeoRules,
  addHeaderRules,
  addIntervalLimits,
  addL4BlacklistRules,
  addL4LimitConnRules,
  addL4PositionRules,
  addL4WhitelistRules,
  addSecondLimits,
  addSitePorts,
  addUserAgentRules,
  addWhitelistRules,
  createAccount,
  createAnnouncement,
  createApiToken,
  createDomains,
  createRole,
  createVirtualNode,
  initializeNodes,
  reportNodeBlocks,
  updateAbuseIPSetting,
} from '@rampart/contract';
import { api } from '../support/api.js';
import { login, openInConsole } from '../support/console.js';
import { expectFits, expectPageFits, sidebarPages } from '../support/fit.js';
import { nodeApi, registerNode, registerNodeWithSecret } from '../support/nodes.js';
import { customerSite, uniqueLabel } from '../support/sites.js';

/**
 * Issue 17, "screens that fit": at 1280×800 with the sidebar open, no list page of the user and
 * client consoles scrolls sideways for its default columns, even with long names in its rows:
 * neither the document nor a table's own scroll container. The pages are the sidebar's entries (so
 * a new list page is not skipped), each of their tabs, a site's settings (a layer-7 and a layer-4 site's)
 * and the zone Groups drawer.
 */

test.use({ viewport: { width: 1280, height: 800 } });
// Some 40 pages on a shared two-core machine.
test.describe.configure({ timeout: 420_000 });

const stamp = uniqueLabel('');
/** A 60-character domain name. */
const domain = `${`www.${stamp}-${'storefront'.repeat(6)}`.slice(0, 48)}.example.com`;
const long = (what: string) => `${what} with a rather long descriptive name ${stamp}`;

test('no list page of the user and client consoles scrolls sideways at 1280×800', async ({ page }) => {
  expect(domain).toHaveLength(60);
  const zoneName = long('zone');
  const siteName = long('site');
  const site = await customerSite(siteName, 'user', {
    zoneName,
    groupName: long('group'),
    productName: long('product'),
  });
  const origin = { upstreams: [{ ip: '1.1.1.1', port: 80 }] };
  await api('user', createDomains, {
    params: { siteId: site.siteID },
    body: { domains: [{ name: domain, ...origin }] },
  });
  await api('user', addCacheRules, {
    params: { siteId: site.siteID },
    body: { data: [{ scope: 'path', values: [`/assets/${'very-long-path-segment/'.repeat(4)}index.html`] }] },
  });
  // One rule of every firewall kind, with long values, so their lists are measured with content.
  const firewallSite = { siteId: site.siteID };
  const longUrl = `https?:\\/\\/${domain.replaceAll('.', '\\.')}\\/${'account-settings/'.repeat(3)}(.*)`;
  const ips = ['203.0.113.0/24', '198.51.100.17', '2001:db8:1234:5678::/64', '192.0.2.10-192.0.2.200'];
  const memo = long('memo');
  await api('user', addWhitelistRules, {
    params: firewallSite,
    body: { data: [{ ips, url: longUrl, methods: { get: true, post: true, put: true, delete: true }, memo }] },
  });
  await api('user', addBlacklistRules, {
    params: firewallSite,
    body: { data: [{ ips, url: longUrl, methods: { get: true }, blockType: 11, memo }] },
  });
  await api('user', addUserAgentRules, {
    params: firewallSite,
    body: {
      data: [
        {
          urlRegex: longUrl,
          userAgentRegex: 'Mozilla\\/5\\.0 \\(compatible; (AhrefsBot|SemrushBot|MJ12bot|DotBot)',
          blockType: 10,
          memo,
        },
      ],
    },
  });
  await api('user', addGeoRules, {
    params: firewallSite,
    body: {
      data: [
        {
          isBlack: false,
          geoIDs: ['US', 'GB', 'DE', 'FR', 'JP', 'KR', 'SG', 'AU'],
          urlRegex: longUrl,
          blockType: 10,
          memo,
        },
      ],
    },
  });
  await api('user', addHeaderRules, {
    params: firewallSite,
    body: {
      data: [
        {
          urlRegex: longUrl,
          header: 'X-Forwarded-Scanner-Signature',
          match: 'matches',
          valueRegex: '(sqlmap|nikto|nuclei|acunetix|netsparker)\\/[0-9.]+',
          blockType: 10,
          memo,
        },
      ],
    },
  });
  await api('user', addAntiCCRules, {
    params: firewallSite,
    body: {
      data: [
        {
          urlRegex: longUrl,
          seconds: 86_400,
          times: 1_000_000,
          blockType: 1,
          errorSeconds: 86_400,
          errorTimes: 1_000_000,
          errorBlockType: 11,
          memo,
        },
      ],
    },
  });
  await api('user', addIntervalLimits, {
    params: firewallSite,
    body: { data: [{ urlRegex: longUrl, seconds: 86_400, times: 1_000_000, priority: 100, blockType: 10, memo }] },
  });
  await api('user', addSecondLimits, {
    params: firewallSite,
    body: {
      data: [
        { urlRegex: longUrl, rate: 100_000, burst: 100_000, blockSeconds: 86_400, priority: 100, blockType: 11, memo },
      ],
    },
  });
  await api('user', updateAbuseIPSetting, {
    params: firewallSite,
    body: { enabled: true, threshold: 60, blockType: 12 },
  });
  // The operator's reputation list: the longest entry form.
  await api('client', addAbuseIPs, {
    body: { data: [{ ip: '2001:db8:1234:5678:9abc:def0:1234:5678', score: 100, memo }] },
  });
  const placedNode = await registerNodeWithSecret(`edge-node-${stamp}.fra1.a-long-hosting-provider-name.example.net`);
  const placed = placedNode.nodeId;
  await registerNode(`waiting-node-${stamp}.ams3.a-long-hosting-provider-name.example.net`);
  await api('client', initializeNodes, { body: { ids: [placed], zoneID: site.zoneID, groupID: site.groupID } });
  // A block the node reports (the block lists' row): the longest address form.
  const now = Math.floor(Date.now() / 1000);
  await nodeApi(placedNode, reportNodeBlocks, {
    body: {
      entries: [
        {
          siteId: site.siteID,
          ip: '2001:db8:1234:5678:9abc:def0:1234:5678',
          cause: 'intervalLimit',
          ruleId: 1,
          blockedAt: now,
          expiresAt: now + 3600,
        },
      ],
    },
  });
  await api('client', createVirtualNode, {
    params: { zoneID: site.zoneID },
    body: { name: long('vnode'), portType: 7 },
  });
  await api('client', createAnnouncement, {
    body: { title: long('announcement'), content: 'Maintenance tonight. '.repeat(20), running: true },
  });
  await api('client', createAccount, {
    params: { auth: 'client' },
    body: {
      auth: 'user',
      account: `customer-${stamp}-long-account`,
      name: long('customer'),
      email: `${stamp}.a.long.address@example-customer-mail.test`,
    },
  });
  for (const tier of ['user', 'client'] as const) {
    await api(tier, createRole, { params: { auth: tier }, body: { name: long('role'), permissions: [] } });
    await api(tier, createApiToken, { params: { auth: tier }, body: { name: long('token'), lifetime: 3600 } });
  }

  // A layer-4 site with a port and one rule of each layer-4 kind (its firewall tab's lists).
  // Named apart from the layer-7 site's (whose names the rows are found by).
  const l4SiteName = long('game server');
  const l4Site = await customerSite(l4SiteName, 'user', {
    zoneName: long('game area'),
    groupName: long('game pool'),
    productName: long('game plan'),
    portType: 4,
  });
  const l4Params = { siteId: l4Site.siteID };
  const [l4Port] = await api('user', addSitePorts, {
    params: l4Params,
    body: { ports: [{ port: 25565, protocol: 'both', memo, upstreams: [{ ip: '1.1.1.1', port: 25565 }] }] },
  });
  if (!l4Port) throw new Error('no layer-4 port');
  const l4Ips = ['203.0.113.0/24', '198.51.100.17', '2001:db8:1234:5678::/64', '192.0.2.10'];
  await api('user', addL4WhitelistRules, {
    params: l4Params,
    body: { data: [{ portID: l4Port.id, ips: l4Ips, memo }] },
  });
  await api('user', addL4BlacklistRules, {
    params: l4Params,
    body: { data: [{ portID: l4Port.id, ips: l4Ips, memo }] },
  });
  await api('user', addL4PositionRules, {
    params: l4Params,
    body: { data: [{ portID: l4Port.id, isBlack: true, positions: ['CN', 'DE', 'FR', 'GB', 'US', 'BR'], memo }] },
  });
  await api('user', addL4LimitConnRules, {
    params: l4Params,
    body: { data: [{ portID: l4Port.id, max: 1_000_000, rate: 10_000_000, burst: 10_000_000, delay: 86_400, memo }] },
  });

  for (const tier of ['user', 'client'] as const) {
    await login(page, tier);
    const pages = await sidebarPages(page, tier);
    expect(pages.length).toBeGreaterThan(5);
    for (const path of pages) await expectPageFits(page, path);
    if (tier === 'user') {
      // The settings page loads the site, then its domains: measured once the domain's row is there.
      const settings = `/user/sitesManagement/sitesSetting/${site.siteID}/${encodeURIComponent(siteName)}`;
      await expectPageFits(page, settings, () =>
        expect(page.getByRole('row').filter({ has: page.getByRole('cell', { name: domain }) })).toBeVisible(),
      );
      // A layer-4 site: its ports, then its firewall's four lists.
      const l4Settings = `/user/sitesManagement/sitesSetting/${l4Site.siteID}/${encodeURIComponent(l4SiteName)}`;
      await expectPageFits(
        page,
        l4Settings,
        () => expect(page.getByRole('row').filter({ has: page.getByRole('cell', { name: '25565' }) })).toBeVisible(),
        true,
      );
    }
    if (tier === 'client') {
      await openInConsole(page, '/client/nodeManage/zonesList');
      await page
        .getByRole('row', { name: new RegExp(zoneName) })
        .getByRole('button', { name: 'Groups' })
        .click();
      await expect(page.getByRole('dialog', { name: `Groups of ${zoneName}` })).toBeVisible();
      await expectFits(page, 'zone Groups drawer');
    }
  }
});

/** The sidebar's labels that do not show whole (cut off, or ending in "…"), every group opened. */
async function cutLabels(page: Page): Promise<string[]> {
  const menu = page.locator('.ant-layout-sider .ant-menu');
  const groups = menu.locator('.ant-menu-submenu-title');
  const count = await groups.count();
  for (let i = 0; i < count; i += 1) {
    const group = groups.nth(i);
    if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
    await expect(group).toHaveAttribute('aria-expanded', 'true');
  }
  return menu
    .locator('.ant-menu-title-content')
    .evaluateAll((labels) =>
      labels.filter((label) => label.scrollWidth > label.clientWidth + 1).map((label) => label.textContent ?? ''),
    );
}

test('the sidebar shows its labels whole at 1280×800, in English and Chinese', async ({ page }) => {
  for (const tier of ['user', 'client'] as const) {
    await login(page, tier);
    for (const locale of ['en_US', 'zh_CN'] as const) {
      await page.evaluate((value) => localStorage.setItem('rampart.locale', value), locale);
      await page.goto(`/${tier}/dashboard`);
      await expect(page.getByTestId('account-menu')).toBeVisible();
      expect.soft(await cutLabels(page), `${tier} ${locale}`).toEqual([]);
    }
    await page.evaluate(() => localStorage.setItem('rampart.locale', 'en_US'));
  }
});
