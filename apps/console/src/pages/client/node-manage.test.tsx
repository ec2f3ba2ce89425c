import type { InitializedNode } from '@rampart/contract';
import {
  addLineNodes,
  createGroup,
  createZone,
  deleteZone,
  getZoneSettings,
  initializeNodes,
  listGroups,
  listInitializedNodes,
  listUninitializedNodes,
  listZones,
  metaGroups,
  metaZones,
  moveNodesToZone,
  nodeInfo,
  setZoneForceSSLRedirectCode,
  setZoneHttp2,
} from '@rampart/contract';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, okPage, okText, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { initializedNode, nodeGroup } from '../../test/fixtures';
import {
  chooseOption,
  clickButton,
  findModal,
  findPopconfirm,
  findRow,
  showAllColumns,
  typeInto,
} from '../../test/queries';
import { renderAt } from '../../test/render-app';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds), so the
// screens of a menu group share one file.
const api = pageTestApi(() => signedInFakeApi('client'));

afterEach(() => {
  vi.useRealTimers();
});

const zone = (id: number, name: string, nodeCount = 0) => ({
  id,
  name,
  memo: `${name} memo`,
  nodeCount,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
});

describe('zonesList', () => {
  beforeEach(() => {
    api.on(listZones, okPage([zone(1, 'Asia', 3), zone(2, 'Europe')], 12));
  });

  it('reads page, size and sort from the URL, shows the server’s rows and total, and deletes after confirming', async () => {
    api.on(deleteZone, fail(409, 201001, 'has nodes'));
    const router = renderAt('/client/nodeManage/zonesList?page=2&pageSize=10&sortBy=name&orderBy=asc');
    expect(await screen.findByText('Asia')).toBeTruthy();
    expect(screen.getByText('Europe memo')).toBeTruthy();
    expect(screen.getByText('12 in total')).toBeTruthy();
    const sent = api.sent(listZones)[0];
    expect(Object.fromEntries(sent?.search ?? [])).toEqual({
      page: '2',
      pageSize: '10',
      sortBy: 'name',
      orderBy: 'asc',
    });

    fireEvent.click(screen.getByTitle('1'));
    await waitFor(() => expect(router.state.location.search).toContain('page=1'));
    await waitFor(() => expect(api.sent(listZones).at(-1)?.search.get('page')).toBe('1'));

    // A refusal reads as the catalogue's message.
    clickButton('Delete', await findRow('Asia'));
    clickButton('Delete', await findPopconfirm('Delete the zone Asia?'));
    expect(await screen.findByText('Please Remove Nodes In This Zone')).toBeTruthy();
    expect(api.sent(deleteZone)[0]?.body).toEqual({ id: 1 });
  });

  it('creates a zone, and puts a refused name under its field', async () => {
    const fields = [{ in: 'body', field: 'name', key: 'wrongFormat', message: 'Wrong format' }];
    api.on(createZone, (request) =>
      (request.body as { name: string }).name === 'bad name'
        ? fail(400, 101003, 'Parameter Error', { fields })
        : ok(zone(3, 'Americas')),
    );
    renderAt('/client/nodeManage/zonesList');
    await screen.findByText('Asia');
    clickButton('New zone');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'bad name');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Wrong format')).toBeTruthy();

    typeInto(dialog, 'Name', 'Americas');
    typeInto(dialog, 'Memo', 'west');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(createZone).at(-1)?.body).toEqual({ name: 'Americas', memo: 'west' });
    await waitFor(() => expect(api.sent(listZones)).toHaveLength(2)); // the list reloads
  });

  it('lists a zone’s groups in a drawer and creates a backup group there', async () => {
    api.on(listGroups, { zoneID: 1 }, okPage([nodeGroup({ nodeCount: 2 })]));
    api.on(createGroup, { zoneID: 1 }, ok(nodeGroup({ id: 6, name: 'spare', portType: 4, isBackup: true })));
    const router = renderAt('/client/nodeManage/zonesList');
    clickButton('Groups', await findRow('Asia'));
    expect(await screen.findByText('Groups of Asia')).toBeTruthy();
    expect(await screen.findByText('edge-a')).toBeTruthy();
    expect(router.state.location.search).toBe('?zone=1');

    clickButton('New group');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'spare');
    fireEvent.click(within(dialog).getByLabelText('Layer 4 (TCP/UDP)'));
    fireEvent.click(within(dialog).getByLabelText('Backup group'));
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(createGroup, { zoneID: 1 })[0]?.body).toEqual({
      name: 'spare',
      portType: 4,
      isBackup: true,
      memo: '',
    });
  });
  it('shows a zone’s settings in a drawer and saves each change as it is made; HTTP/3 stays off', async () => {
    const settings = {
      http2: true,
      http3: false,
      forceSSLRedirectCode: 301,
      invalidDomainLimitCount: 0,
      tlsLimitCount: 0,
      challengeWorkBits: 21,
    };
    api.on(getZoneSettings, { zoneID: 1 }, ok(settings));
    api.on(setZoneHttp2, { zoneID: 1 }, ok({ ...settings, http2: false }));
    api.on(setZoneForceSSLRedirectCode, { zoneID: 1 }, ok({ ...settings, forceSSLRedirectCode: 308 }));
    const router = renderAt('/client/nodeManage/zonesList');
    clickButton('Settings', await findRow('Asia'));
    expect(await screen.findByText('Settings of Asia')).toBeTruthy();
    expect(router.state.location.search).toBe('?settings=1');
    const drawer = await screen.findByRole('dialog');
    const http2 = await within(drawer).findByLabelText('HTTP/2');
    expect(http2.getAttribute('aria-checked')).toBe('true');
    const http3 = within(drawer).getByLabelText('HTTP/3');
    expect(http3.getAttribute('aria-checked')).toBe('false');
    expect((http3 as HTMLButtonElement).disabled).toBe(true);
    expect(within(drawer).getByText(/has no QUIC support/)).toBeTruthy();

    fireEvent.click(http2);
    await waitFor(() => expect(api.sent(setZoneHttp2, { zoneID: 1 })[0]?.body).toEqual({ enable: false }));
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    await chooseOption(drawer, 'Force-SSL redirect code', '308 Permanent Redirect');
    await waitFor(() => expect(api.sent(setZoneForceSSLRedirectCode, { zoneID: 1 })[0]?.body).toEqual({ code: 308 }));
  });
});

const waiting = {
  id: 11,
  name: 'edge-tokyo-1',
  ips: ['203.0.113.7'],
  version: '0.3.0',
  createdAt: '2026-03-01T10:00:00.000Z',
  lastSeenAt: '2026-03-01T10:05:00.000Z',
};
const placed = (overrides: Partial<InitializedNode>) =>
  initializedNode({
    ips: ['198.51.100.4', '2001:db8::4'],
    groups: [{ id: 5, name: 'web', line: 'default' }],
    ...overrides,
  });

describe('nodesList', () => {
  beforeEach(() => {
    api.on(listUninitializedNodes, okPage([waiting]));
    api.on(metaZones, ok([{ id: 2, name: 'Europe' }]));
    api.on(metaGroups, { zoneID: 2 }, ok([{ id: 5, name: 'web' }]));
  });

  it('initialises a waiting node in a zone, then puts it in the chosen group on the default line', async () => {
    api.on(initializeNodes, ok(true));
    renderAt('/client/nodeManage/nodesList');
    const row = await findRow('edge-tokyo-1');
    expect(within(row).getByText('203.0.113.7')).toBeTruthy();
    clickButton('Initialize', row);
    const dialog = await findModal();
    await chooseOption(dialog, 'Zone', 'Europe');
    await waitFor(() => expect(api.sent(metaGroups, { zoneID: 2 })).toHaveLength(1));
    // A new node serves port type 7: only layer-7 groups are offered.
    expect(api.sent(metaGroups, { zoneID: 2 })[0]?.search.get('portType')).toBe('7');
    await chooseOption(dialog, 'Group', 'web');
    clickButton('OK', dialog);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(initializeNodes)[0]?.body).toEqual({ ids: [11], zoneID: 2, groupID: 5 });
    expect(api.sent(addLineNodes, { zoneID: 2, groupID: 5, lineID: 'default' })).toEqual([]);
  });

  it('shows initialised nodes with their sync state and connection, filtered by zone and search in the URL', async () => {
    api.on(
      listInitializedNodes,
      okPage([
        placed({}),
        placed({
          id: 22,
          name: 'edge-paris-2',
          currentVersion: 'b'.repeat(32),
          connection: 'offline',
          lastError: 'nginx -t failed',
          snapshotError: "left out of this node's snapshot: site 9 (big): the node would serve more than 50000 domains",
        }),
        // Its snapshot is current, but its store holds a plane before the plane's last change.
        placed({ id: 24, name: 'edge-paris-4', appliedPlane: '41', currentPlane: '142' }),
        placed({ id: 25, name: 'edge-paris-5', appliedPlane: '142', currentPlane: '142' }),
        placed({
          id: 23,
          name: 'edge-paris-3',
          failedPorts: [
            { kind: 'stream', port: 22, protocol: 'tcp', portID: 9, siteID: 3, error: 'EADDRINUSE' },
            { kind: 'stream', port: 53, protocol: 'udp', portID: 10, siteID: 3, error: 'EADDRINUSE' },
          ],
        }),
      ]),
    );
    renderAt('/client/nodeManage/nodesList?tab=initialized&zoneIDs=2&value=paris');
    const first = await findRow('edge-paris-1');
    await showAllColumns();
    expect(within(first).getByText('198.51.100.4, 2001:db8::4')).toBeTruthy();
    expect(within(first).getByText('web (default)')).toBeTruthy();
    expect(within(first).getByText('In sync')).toBeTruthy();
    expect(within(first).getByText('Online')).toBeTruthy();
    const second = await findRow('edge-paris-2');
    expect(within(second).getByText('Pending')).toBeTruthy();
    expect(within(await findRow('edge-paris-4')).getByText('Pending')).toBeTruthy();
    expect(within(await findRow('edge-paris-5')).getByText('In sync')).toBeTruthy();
    expect(within(second).getByText('Offline')).toBeTruthy();
    expect(within(second).getByText('nginx -t failed')).toBeTruthy();
    // What the control plane could not put into the node's snapshot shows beside the agent's error.
    expect(
      within(second).getByText(
        "Snapshot: left out of this node's snapshot: site 9 (big): the node would serve more than 50000 domains",
      ),
    ).toBeTruthy();
    expect(within(first).queryByText(/^Snapshot:/)).toBeNull();
    // Ports the node could not listen on are shown with its errors.
    expect(within(await findRow('edge-paris-3')).getByText('Could not listen on 22/tcp, 53/udp')).toBeTruthy();
    const query = api.sent(listInitializedNodes)[0]?.search;
    expect(query?.getAll('zoneIDs')).toEqual(['2']);
    expect(query?.get('value')).toBe('paris');
  });

  it('moves selected nodes to another zone, and shows the refusal of a node still in a group', async () => {
    api.on(
      metaZones,
      ok([
        { id: 1, name: 'Asia' },
        { id: 2, name: 'Europe' },
      ]),
    );
    api.on(listInitializedNodes, okPage([placed({})]));
    let calls = 0;
    api.on(moveNodesToZone, () => {
      calls += 1;
      return calls === 1 ? fail(409, 202003, 'Node Exists In Group', { nodeIDs: [21] }) : ok(true);
    });
    renderAt('/client/nodeManage/nodesList?tab=initialized');
    const row = await findRow('edge-paris-1');
    fireEvent.click(within(row).getByRole('checkbox'));
    clickButton('Move selected to zone (1)');
    const dialog = await findModal();
    expect(within(dialog).getByText('edge-paris-1')).toBeTruthy();
    await chooseOption(dialog, 'Zone', 'Asia');
    clickButton('OK', dialog);
    expect(await screen.findByText('Node Exists In Group')).toBeTruthy();
    clickButton('OK', dialog);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(moveNodesToZone).map((r) => r.body)).toEqual([
      { nodeIDs: [21], zoneID: 1 },
      { nodeIDs: [21], zoneID: 1 },
    ]);
  });

  it('reloads the list every 5000 ms', async () => {
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
    });
    renderAt('/client/nodeManage/nodesList');
    await findRow('edge-tokyo-1');
    const before = api.sent(listUninitializedNodes).length;
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(api.sent(listUninitializedNodes)).toHaveLength(before);
    await act(() => vi.advanceTimersByTimeAsync(1100));
    await waitFor(() => expect(api.sent(listUninitializedNodes)).toHaveLength(before + 1));
  });

  it('shows both join commands, each explained and with a copy button, then the URL and the token', async () => {
    const install =
      'curl -fsSL https://cdn.example.com/api/edge/v1/install.sh | sudo RAMPART_JOIN_TOKEN=jt_secret sh -s -- --control-plane https://cdn.example.com';
    const local =
      'RAMPART_JOIN_TOKEN=jt_secret npm run edge -- --control-plane https://cdn.example.com --state-dir .edge-node --port-map 80=18080,443=18443 --listen-address 127.0.0.1 --ips 127.0.0.1';
    const text = [
      'control_plane_url=https://cdn.example.com',
      'join_token=jt_secret',
      `install_command=${install}`,
      'install_script_url=https://cdn.example.com/api/edge/v1/install.sh',
      `local_command=${local}`,
      '',
    ].join('\n');
    api.on(nodeInfo, okText(text));
    renderAt('/client/nodeManage/nodesList');
    await findRow('edge-tokyo-1');
    clickButton('Join a node');
    const dialog = await findModal();
    const installBox = (await within(dialog).findByLabelText('Install on a new Debian machine')) as HTMLTextAreaElement;
    expect(installBox.value).toBe(install);
    const localBox = within(dialog).getByLabelText('Try it on this machine') as HTMLTextAreaElement;
    expect(localBox.value).toBe(local);
    // Each command says where and how it runs.
    expect(within(dialog).getByText(/As root on a fresh Debian 12 or newer machine/)).toBeTruthy();
    expect(within(dialog).getByText(/In the repository checkout where npm start runs, without root/)).toBeTruthy();
    // The commands come first, in this order.
    const fields = [...dialog.querySelectorAll('textarea, input')].map((e) => e.id);
    expect(fields).toEqual([
      'node-info-install_command',
      'node-info-local_command',
      'node-info-control_plane_url',
      'node-info-join_token',
      'node-info-install_script_url',
    ]);
    expect((within(dialog).getByLabelText('Join token') as HTMLInputElement).value).toBe('jt_secret');
    expect((within(dialog).getByLabelText('Control plane URL') as HTMLInputElement).value).toBe(
      'https://cdn.example.com',
    );
    expect(within(dialog).getAllByText('Copy')).toHaveLength(5);

    // The copy button next to a command copies exactly that command.
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const copyOf = (box: HTMLElement) => within(box.closest('.ant-space-compact') as HTMLElement).getByText('Copy');
    fireEvent.click(copyOf(installBox));
    fireEvent.click(copyOf(localBox));
    await waitFor(() => expect(writeText.mock.calls).toEqual([[install], [local]]));
  });

  it('warns that another machine cannot join through a loopback control plane URL, and only then', async () => {
    const lines = (url: string) =>
      `control_plane_url=${url}\njoin_token=jt_x\ninstall_command=curl -fsSL ${url}/api/edge/v1/install.sh | sudo RAMPART_JOIN_TOKEN=jt_x sh -s -- --control-plane ${url}\n`;
    for (const [url, warned] of [
      ['http://127.0.0.1:8080', true],
      ['http://localhost:8080', true],
      ['http://[::1]:8080', true],
      ['https://cdn.example.com', false],
      ['http://10.0.0.5:8080', false],
    ] as const) {
      api.on(nodeInfo, okText(lines(url)));
      renderAt('/client/nodeManage/nodesList');
      await findRow('edge-tokyo-1');
      clickButton('Join a node');
      const dialog = await findModal();
      await within(dialog).findByLabelText('Install on a new Debian machine');
      const warning = within(dialog).queryByText(/another machine cannot join through it/);
      expect([url, warning?.textContent.includes(url) ?? false]).toEqual([url, warned]);
      if (warning) expect(warning.textContent).toContain('Set PUBLIC_URL to an address the nodes can reach');
      cleanup();
    }
  });

  it('shows the lines of an older control plane as they come', async () => {
    api.on(
      nodeInfo,
      okText(
        'control_plane_url=https://cdn.example.com\njoin_token=jt_old\ninstall_command=rampart-edge join --token jt_old\n',
      ),
    );
    renderAt('/client/nodeManage/nodesList');
    await findRow('edge-tokyo-1');
    clickButton('Join a node');
    const dialog = await findModal();
    const box = (await within(dialog).findByLabelText('Install on a new Debian machine')) as HTMLTextAreaElement;
    expect(box.value).toBe('rampart-edge join --token jt_old');
    expect(within(dialog).queryByLabelText('Try it on this machine')).toBeNull();
    expect(within(dialog).getAllByText('Copy')).toHaveLength(3);
  });
});
