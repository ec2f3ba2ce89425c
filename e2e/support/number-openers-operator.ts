import type { Page } from '@playwright/test';
import { chooseTab, openInConsole } from './console.js';
import {
  FORM,
  type FormOpener,
  formIn,
  formOf,
  inDialog,
  nginxSection,
  settingsPage,
  zoneDrawer,
} from './number-open.js';

/** How the number walk opens each form of the operator and platform consoles (number-walk-operator.ts). */
export const OPERATOR_OPENERS: Record<string, FormOpener> = {
  'abuse ip': {
    tier: 'client',
    open: (page) => inDialog(page, '/client/systemManagement/abuseIPs', 'Add', FORM('abuse ip')),
    modal: true,
  },
  'site limits': {
    tier: 'client',
    open: async (page, { site }) => {
      await openInConsole(page, '/client/sitesManagement/sitesList');
      // The row's More menu opens on hover.
      await page
        .getByRole('row', { name: new RegExp(site.name) })
        .getByRole('button', { name: 'More' })
        .hover();
      await page.getByRole('menuitem', { name: 'Set limitations' }).click();
      return formIn(page.getByRole('dialog'), FORM('site limits'));
    },
    modal: true,
  },
  'db backup': {
    tier: 'client',
    open: (page) => settingsPage(page, '/client/systemManagement/dbBackup', FORM('db backup')),
  },
  'log retention': {
    tier: 'client',
    open: (page) => settingsPage(page, '/client/systemManagement/logSetting', FORM('log retention')),
  },
  'log export setting': {
    tier: 'client',
    open: (page) => settingsPage(page, '/client/systemManagement/logSetting', FORM('log export setting')),
  },
  'node exporter': {
    tier: 'client',
    open: (page) => settingsPage(page, '/client/systemManagement/nodeExporter', FORM('node exporter')),
  },
  'zone limits': {
    tier: 'client',
    open: async (page, { zoneName }) => formIn(await zoneDrawer(page, zoneName, 'Listen'), FORM('zone limits')),
  },
  'zone invalid-domain limit': {
    tier: 'client',
    open: async (page, { zoneName }) =>
      formIn(await zoneDrawer(page, zoneName, 'Listen'), FORM('zone invalid-domain limit')),
  },
  'zone challenge work': {
    tier: 'client',
    open: async (page, { zoneName }) => formIn(await zoneDrawer(page, zoneName, 'Listen'), FORM('zone challenge work')),
  },
  'zone l4 protection': {
    tier: 'client',
    // The set-up turned the SYN rate on: its boxes show.
    open: async (page, { zoneName }) =>
      formIn(await zoneDrawer(page, zoneName, 'Layer-4 protection'), FORM('zone l4 protection')),
  },
  'zone ports': {
    tier: 'client',
    open: async (page, { zoneName }) => formIn(await zoneDrawer(page, zoneName, 'Ports'), FORM('zone ports')),
  },
  frequency: {
    tier: 'client',
    open: async (page) => {
      await openInConsole(page, '/client/systemManagement/systemSetting');
      await chooseTab(page.getByRole('tab', { name: 'Trigger rates' }));
      return formOf(page, FORM('frequency'));
    },
  },
  'dns setting': {
    tier: 'client',
    open: (page) => settingsPage(page, '/client/systemManagement/dnsSetting', FORM('dns setting')),
    submit: 'Save',
  },
  'abuse ip import': {
    tier: 'client',
    open: (page) => inDialog(page, '/client/systemManagement/abuseIPs', 'Import', FORM('abuse ip import')),
    modal: true,
  },
  'email setting': {
    tier: 'client',
    open: (page) => settingsPage(page, '/client/systemManagement/notification', FORM('email setting')),
    submit: 'Save',
  },
  ...Object.fromEntries(
    (['worker', 'http', 'stream'] as const).map((section) => [
      `zone nginx ${section}`,
      {
        tier: 'client',
        open: (page: Page, { zoneName }: { zoneName: string }) => nginxSection(page, zoneName, section),
      },
    ]),
  ),
  account: {
    tier: 'client',
    open: (page) => inDialog(page, '/client/userManagement/users', 'New account', FORM('account')),
    modal: true,
  },
  'operator account': {
    tier: 'admin',
    open: (page) => inDialog(page, '/admin/userManagement/users', 'New account', FORM('operator account')),
    modal: true,
  },
  'api token': {
    tier: 'client',
    open: (page) => inDialog(page, '/client/userManagement/apiTokenSetting', 'New API token', FORM('api token')),
    modal: true,
  },
  'traffic plan': {
    tier: 'client',
    open: (page) =>
      inDialog(page, '/client/trafficPkgManagement/trafficPkgList', 'New extra plan', FORM('traffic plan')),
    modal: true,
  },
  'monitor group': {
    tier: 'client',
    open: (page) =>
      inDialog(page, '/client/monitorManagement/monitorNodeGroup', 'New monitor group', FORM('monitor group')),
    modal: true,
  },
  licence: {
    tier: 'admin',
    open: (page) => inDialog(page, '/admin/licenses', 'New licence', FORM('licence')),
    modal: true,
  },
  product: {
    tier: 'client',
    open: async (page) => {
      const form = await inDialog(page, '/client/sitesManagement/productsList', 'New product', FORM('product'));
      // The throttle box shows when the product throttles a site over its allowance.
      await form.getByLabel('Throttle the site').check();
      return form;
    },
    modal: true,
  },
};
