import { expect, test } from '@playwright/test';
import {
  createDomains,
  getNodePlane,
  initializeNodes,
  type PlaneAnswer,
  putDomainProofSetting,
  reportNodeStatus,
} from '@rampart/contract';
import { api } from '../support/api.js';
import { login } from '../support/console.js';
import { edgeEvent, shipEvents } from '../support/events.js';
import { nodeApi, registerNodeWithSecret } from '../support/nodes.js';
import { customerSite, uniqueLabel } from '../support/sites.js';

test.use({ viewport: { width: 1280, height: 800 } });

// The run serves domains without proof (global-setup); this test requires it for its own domain
// and gives the operator's choice back afterwards.
test.afterEach(async () => {
  await api('client', putDomainProofSetting, { body: { required: false } });
});

test('a domain waiting for proof looks different from a served one, shows the record to create, and turns served', async ({
  page,
}) => {
  const site = await customerSite('e2e states');
  const served = `${uniqueLabel('served')}.e2e-states.example`;
  // A long name: the waiting row, its tag and the record button must still fit 1280 px.
  const waiting = `${uniqueLabel('waiting-for-its-proof-of-control')}.e2e-states.example`;
  const origin = { upstreams: [{ ip: '1.1.1.1', port: 80 }] };
  await api('user', createDomains, {
    params: { siteId: site.siteID },
    body: { domains: [{ name: served, ...origin }] },
  });
  await api('client', putDomainProofSetting, { body: { required: true } });
  const [claim] = await api('user', createDomains, {
    params: { siteId: site.siteID },
    body: { domains: [{ name: waiting, ...origin }] },
  });
  expect(claim?.proofStatus).toBe(0);

  await login(page, 'user');
  await page.goto(`/user/sitesManagement/sitesSetting/${site.siteID}`);
  const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
  await expect(row(served).getByLabel(`Serving state of ${served}`)).toHaveText('Served');
  await expect(row(waiting).getByLabel(`Serving state of ${waiting}`)).toHaveText('Waiting for proof');
  // The origin is shown by default, and the list does not scroll sideways at 1280 px.
  await expect(row(waiting).getByText('http://1.1.1.1:80')).toBeVisible();
  // Measured once the table has laid its columns out (it fits them to the width after the rows come).
  const widest = () =>
    page.evaluate(() =>
      Math.max(
        ...Array.from(document.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body'))
          .filter((element) => element.offsetParent !== null)
          .map((element) => element.scrollWidth - element.clientWidth),
      ),
    );
  await expect.poll(widest, { timeout: 5_000 }).toBeLessThanOrEqual(1);

  await row(waiting).getByRole('button', { name: 'Record to create' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel(`TXT record name for ${waiting}`)).toHaveText(`_rampart-challenge.${waiting}`);
  await expect(dialog.getByLabel(`TXT record value for ${waiting}`)).toHaveText(claim?.proofToken ?? '');
  await expect(dialog.getByRole('button', { name: /Copy/ }).first()).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Verify' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Once the operator waives proof, the same row reads served.
  await api('client', putDomainProofSetting, { body: { required: false } });
  await page.reload();
  await expect(row(waiting).getByLabel(`Serving state of ${waiting}`)).toHaveText('Served');
});

test("a served domain shows by how many of its zone's nodes it is served, and an origin that is down says so", async ({
  page,
}) => {
  const { siteID, zoneID, groupID } = await customerSite('e2e origin down');
  // Two nodes in the site's zone: one applies the plane with the domain, the other never reports one.
  const node = await registerNodeWithSecret(uniqueLabel('states-edge-'));
  const idle = await registerNodeWithSecret(uniqueLabel('states-idle-'));
  await api('client', initializeNodes, { body: { ids: [node.nodeId, idle.nodeId], zoneID, groupID } });
  const name = `${uniqueLabel('down')}.e2e-states.example`;
  const [domain] = await api('user', createDomains, {
    params: { siteId: siteID },
    body: { domains: [{ name, upstreams: [{ ip: '1.1.1.1', port: 80 }] }] },
  });
  if (!domain) throw new Error('no domain created');
  const plane = (await nodeApi(node, getNodePlane, { query: {} })) as { data: PlaneAnswer };
  await nodeApi(node, reportNodeStatus, {
    body: { version: '0.1.0', appliedVersion: '', lastError: '', planeVersion: plane.data.to },
  });
  // The origin failed every request of the last minutes: not reached (502) or timed out (504).
  const failed = (status: number) => ({ domainId: domain.id, host: name, status, upstreamStatus: status });
  await shipEvents(node, [
    edgeEvent(node.nodeId, 1, failed(502)),
    edgeEvent(node.nodeId, 2, failed(502)),
    edgeEvent(node.nodeId, 3, failed(504)),
  ]);

  await login(page, 'user');
  await page.goto(`/user/sitesManagement/sitesSetting/${siteID}`);
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
  await expect(row.getByLabel(`Serving state of ${name}`)).toHaveText('Served');
  // The idle node reports no plane: counted apart, not as a node that does not serve the domain.
  const nodes = row.getByLabel(`Nodes serving ${name}`);
  await expect(nodes).toHaveText('1/1 nodes');
  await nodes.hover();
  await expect(page.getByRole('tooltip')).toContainText('1 more node of its zone reports no plane');
  const origin = row.getByLabel(`Origin state of ${name}`);
  await expect(origin).toHaveText('Origin down');
  await origin.hover();
  await expect(page.getByRole('tooltip').filter({ hasText: '3 of 3 requests to the origin failed' })).toBeVisible();

  // The operator's list of every customer's domains wears the same badges.
  await page.context().clearCookies();
  await login(page, 'client');
  await page.goto(`/client/sitesManagement/domains?name=${encodeURIComponent(name)}`);
  const listed = page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
  await expect(listed.getByLabel(`Nodes serving ${name}`)).toHaveText('1/1 nodes');
  await expect(listed.getByLabel(`Origin state of ${name}`)).toHaveText('Origin down');
});
