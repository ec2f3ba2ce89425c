import {
  addSitePorts,
  addSitePortUpstreams,
  batchCreateSitePorts,
  deleteSitePorts,
  deleteSitePortUpstreams,
  disableSitePorts,
  listSitePorts,
  listSitePortUpstreams,
  listSiteZonePorts,
  updateSitePort,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi } from '../../test/fake-api';
import { signedInSiteTab } from '../../test/fixtures';
import { chooseOption, clickButton, findModal, findPopconfirm, findRow, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The Ports tab of the site settings, rendered in jsdom against a fake API.
const api = pageTestApi(signedInSiteTab);

beforeEach(() => {
  api.on(
    listSiteZonePorts,
    { siteId: 3 },
    ok([
      { zoneID: 1, zoneName: 'Asia', port: 80, portType: 'http' },
      { zoneID: 1, zoneName: 'Asia', port: 443, portType: 'https' },
    ]),
  );
  api.on(listSitePorts, { siteId: 3 }, okPage([minecraft]));
});

const PORTS = '/user/sitesManagement/sitesSetting/3/game?tab=ports';

const minecraft = {
  id: 11,
  siteID: 3,
  port: 25565,
  protocol: 'tcp',
  hashType: 0,
  status: 1,
  memo: 'minecraft',
  upstreams: [
    { id: 21, ip: '198.51.100.7', port: 25565, weight: 1, backup: false, status: 1 },
    { id: 22, ip: '198.51.100.8', port: 25565, weight: 1, backup: true, status: 1 },
  ],
  failedNodes: [] as { nodeID: number; nodeName: string; error: string }[],
  createdAt: '2026-01-02T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
};

describe('sitesSetting: ports', () => {
  it('lists ports with their upstreams and the zone ports the site cannot use', async () => {
    renderAt(PORTS);
    const row = await findRow('minecraft');
    expect(within(row).getByText('25565')).toBeTruthy();
    expect(within(row).getByText('TCP')).toBeTruthy();
    expect(within(row).getByText('198.51.100.7:25565')).toBeTruthy();
    expect(within(row).getByText('198.51.100.8:25565 (backup)')).toBeTruthy();
    expect((await screen.findByTestId('zone-ports')).textContent).toContain('80 (http, Asia), 443 (https, Asia)');
  });

  it('shows a port that a node could not listen on, naming the node', async () => {
    const held = { ...minecraft, failedNodes: [{ nodeID: 4, nodeName: 'edge-tokyo-1', error: 'EADDRINUSE' }] };
    api.on(listSitePorts, { siteId: 3 }, okPage([held]));
    renderAt(PORTS);
    await findRow('minecraft');
    expect((await screen.findByTestId('port-failed-25565')).textContent).toBe(
      'Not listening on edge-tokyo-1: the port is held by another program there',
    );
  });

  it('lists no failure for a port every node listens on', async () => {
    renderAt(PORTS);
    await findRow('minecraft');
    expect(screen.queryByTestId('port-failed-25565')).toBeNull();
  });

  it('adds a port with an upstream, and shows the server refusing a taken number on the field', async () => {
    let calls = 0;
    api.on(addSitePorts, { siteId: 3 }, () => {
      calls++;
      return calls === 1
        ? fail(400, 101003, 'Parameter Error', {
            fields: [
              { in: 'body', field: 'ports.0.port', key: 'portInUse', message: 'Port 443 is already used in this zone' },
            ],
          })
        : ok([{ ...minecraft, id: 12, port: 7000 }]);
    });
    renderAt(PORTS);
    await findRow('minecraft');
    clickButton('Add port');
    const dialog = await findModal();
    typeInto(dialog, 'Port', '443');
    await chooseOption(dialog, 'Protocol', 'TCP + UDP');
    typeInto(dialog, 'Origin 1 IP', '198.51.100.9');
    typeInto(dialog, 'Origin 1 port', '7000');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Port 443 is already used in this zone')).toBeTruthy();
    typeInto(dialog, 'Port', '7000');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(addSitePorts, { siteId: 3 })[1]?.body).toEqual({
      ports: [
        {
          port: 7000,
          protocol: 'both',
          hashType: 0,
          memo: '',
          upstreams: [{ ip: '198.51.100.9', port: 7000, weight: 1, backup: false, status: 1 }],
        },
      ],
    });
  });

  it('edits a port, turns it off, and deletes it', async () => {
    api.on(updateSitePort, { siteId: 3 }, ok({ ...minecraft, port: 25566 }));
    api.on(disableSitePorts, { siteId: 3 }, ok(true));
    api.on(deleteSitePorts, { siteId: 3 }, ok(true));
    renderAt(PORTS);
    clickButton('Edit', await findRow('minecraft'));
    const dialog = await findModal();
    expect((within(dialog).getByLabelText('Port') as HTMLInputElement).value).toBe('25565');
    typeInto(dialog, 'Port', '25566');
    await chooseOption(dialog, 'Balancing', 'Client IP hash');
    clickButton('OK', dialog);
    expect(await screen.findByText('Update Success')).toBeTruthy();
    expect(api.sent(updateSitePort, { siteId: 3 })[0]?.body).toEqual({
      id: 11,
      port: 25566,
      protocol: 'tcp',
      hashType: 1,
      memo: 'minecraft',
    });

    fireEvent.click(screen.getByLabelText('Port 25565 on'));
    await waitFor(() => expect(api.sent(disableSitePorts, { siteId: 3 })[0]?.body).toEqual({ ids: [11] }));

    clickButton('Delete', await findRow('minecraft'));
    clickButton('Delete', await findPopconfirm('Delete port 25565 and its upstreams?'));
    await waitFor(() => expect(api.sent(deleteSitePorts, { siteId: 3 })[0]?.body).toEqual({ ids: [11] }));
  });

  it('batch-creates ports from a range and shows Inconsistent Ports from the server', async () => {
    api.on(batchCreateSitePorts, { siteId: 3 }, fail(400, 101011, 'Inconsistent Ports'));
    renderAt(PORTS);
    await findRow('minecraft');
    clickButton('Batch create');
    const dialog = await findModal();
    typeInto(dialog, 'Listen ports from', '30000');
    typeInto(dialog, 'Listen ports to', '30002');
    typeInto(dialog, 'Upstream ports from', '40000');
    typeInto(dialog, 'Upstream ports to', '40003');
    const ips = within(dialog).getByLabelText('Upstream IPs');
    fireEvent.change(ips, { target: { value: '198.51.100.9' } });
    fireEvent.keyDown(ips, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await within(dialog).findByText('198.51.100.9');
    clickButton('OK', dialog);
    expect(await screen.findByText('Inconsistent Ports')).toBeTruthy();
    expect(api.sent(batchCreateSitePorts, { siteId: 3 })[0]?.body).toEqual({
      portFrom: 30000,
      portTo: 30002,
      upstreamPortFrom: 40000,
      upstreamPortTo: 40003,
      protocol: 'tcp',
      upstreams: [{ ip: '198.51.100.9' }],
    });
  });

  it('names every bad upstream IP of a batch with its place and sends nothing', async () => {
    api.on(batchCreateSitePorts, { siteId: 3 }, ok([]));
    renderAt(PORTS);
    await findRow('minecraft');
    clickButton('Batch create');
    const dialog = await findModal();
    typeInto(dialog, 'Listen ports from', '30000');
    typeInto(dialog, 'Listen ports to', '30002');
    typeInto(dialog, 'Upstream ports from', '40000');
    typeInto(dialog, 'Upstream ports to', '40002');
    const ips = within(dialog).getByLabelText('Upstream IPs');
    fireEvent.change(ips, { target: { value: 'nope,198.51.100.9,300.1.1.1,' } });
    clickButton('OK', dialog);
    expect(await within(dialog).findByText(/^IP 1 \(nope\): /)).toBeTruthy();
    expect(within(dialog).getByText(/^IP 3 \(300\.1\.1\.1\): /)).toBeTruthy();
    expect(within(dialog).queryByText(/^IP 2 /)).toBeNull();
    expect(api.sent(batchCreateSitePorts, { siteId: 3 })).toHaveLength(0);
  });

  it("manages a port's upstreams in their dialog", async () => {
    api.on(listSitePortUpstreams, { siteId: 3, portId: 11 }, ok(minecraft.upstreams));
    api.on(addSitePortUpstreams, { siteId: 3, portId: 11 }, ok(minecraft.upstreams));
    api.on(deleteSitePortUpstreams, { siteId: 3, portId: 11 }, fail(422, 401008, 'Upstream without enabled'));
    renderAt(PORTS);
    clickButton('Upstreams', await findRow('minecraft'));
    const dialog = await findModal();
    expect(await within(dialog).findByText('198.51.100.8')).toBeTruthy();
    typeInto(dialog, 'New upstream IP', '198.51.100.10');
    clickButton('Add upstream', dialog);
    await waitFor(() =>
      expect(api.sent(addSitePortUpstreams, { siteId: 3, portId: 11 })[0]?.body).toEqual({
        upstreams: [{ ip: '198.51.100.10', port: 25565, weight: 1, backup: false }],
      }),
    );
    const first = within(dialog).getByText('198.51.100.7').closest('tr') as HTMLElement;
    clickButton('Delete', first);
    clickButton('Delete', await findPopconfirm('Delete upstream 198.51.100.7:25565?'));
    await waitFor(() =>
      expect(api.sent(deleteSitePortUpstreams, { siteId: 3, portId: 11 })[0]?.body).toEqual({ ids: [21] }),
    );
  });
});
