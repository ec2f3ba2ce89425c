import type { InitializedNode } from '@rampart/contract';
import {
  clearNodesCache,
  createSubNodes,
  deleteSubNodes,
  getNodeSystem,
  listInitializedNodes,
  listNodeCommands,
  listSubNodes,
  listUninitializedNodes,
  listZoneNodes,
  listZones,
  metaZones,
  purgeNodesCache,
  rebootZoneNodes,
  removeZoneNode,
  renameZoneNode,
  rotateNodeLogs,
  setNodeLogRotateTime,
  setNodeMemo,
  setNodePortType,
  setNodeStatus,
  updateSubNodeIp,
} from '@rampart/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { initializedNode } from '../../test/fixtures';
import {
  clickButton,
  findModal,
  findPopconfirm,
  findRow,
  modalClosed,
  showAllColumns,
  typeInto,
} from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The operator's node operations on the initialised-nodes tab: row and bulk actions (commands,
// on/off, settings) and a node's details drawer with system information and command history.

const api = pageTestApi(() => signedInFakeApi('client'));

beforeEach(() => {
  api.on(listUninitializedNodes, okPage([]));
  api.on(metaZones, ok([{ id: 2, name: 'Europe' }]));
});

afterEach(() => {
  vi.useRealTimers();
});

const node = (overrides: Partial<InitializedNode>) => initializedNode(overrides);
const paris1 = node({});
const paris2 = node({ id: 22, name: 'edge-paris-2', status: 'off', portType: 4, memo: 'spare rack', monitor: true });
const tokyo = node({ id: 31, name: 'edge-tokyo-1', zoneId: 3, zoneName: 'Asia', logRotateTime: '02:15' });

/** Opens a menu of node actions (a row's "More" or the selection's) and picks `item`. */
async function pick(menuButton: string, item: string, scope?: HTMLElement) {
  clickButton(menuButton, scope);
  fireEvent.click(await screen.findByText(item, { selector: '.ant-dropdown-menu-title-content' }));
}

function selectRow(row: HTMLElement) {
  fireEvent.click(within(row).getByRole('checkbox'));
}

describe('node operations', () => {
  beforeEach(() => {
    api.on(listInitializedNodes, okPage([paris1, paris2, tokyo]));
  });

  it('shows each node’s switch, port type, monitoring and memo, and keeps the new filters in the URL', async () => {
    renderAt('/client/nodeManage/nodesList?tab=initialized&status=off&portType=4&version=0.3.0');
    const row = await findRow('edge-paris-2');
    await showAllColumns();
    expect(within(row).getByText('Off')).toBeTruthy();
    expect(within(row).getByText('Layer 4 (TCP/UDP)')).toBeTruthy();
    expect(within(row).getByText('spare rack')).toBeTruthy();
    expect(within(row).getByText('Never')).toBeTruthy();
    // The monitor switch: off for edge-tokyo-1, which monitoring then leaves out.
    expect(within(row).queryByText('Not monitored')).toBeNull();
    const tokyo = await findRow('edge-tokyo-1');
    expect(within(tokyo).getByText('02:15')).toBeTruthy();
    expect(within(tokyo).getByText('Not monitored')).toBeTruthy();
    const query = api.sent(listInitializedNodes)[0]?.search;
    expect([query?.get('status'), query?.get('portType'), query?.get('version')]).toEqual(['off', '4', '0.3.0']);
  });

  it('reboots one node from its row after confirming, under its zone', async () => {
    api.on(rebootZoneNodes, { zoneID: 2 }, ok([]));
    renderAt('/client/nodeManage/nodesList?tab=initialized');
    await pick('More', 'Reboot', await findRow('edge-paris-1'));
    const dialog = await findModal();
    expect(within(dialog).getByText(/restarts nginx on 1 node/)).toBeTruthy();
    clickButton('OK', dialog);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(rebootZoneNodes, { zoneID: 2 }).map((r) => r.body)).toEqual([{ ids: [21] }]);
  });

  it('switches the selected nodes off, and offers reboot and reset only for nodes of one zone', async () => {
    api.on(setNodeStatus, ok(true));
    api.on(rotateNodeLogs, ok([]));
    renderAt('/client/nodeManage/nodesList?tab=initialized');
    selectRow(await findRow('edge-paris-1'));
    selectRow(await findRow('edge-paris-2'));
    await pick('Actions for selected (2)', 'Switch off');
    clickButton('OK', await findModal());
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(setNodeStatus)[0]?.body).toEqual({ ids: [21, 22], status: 'off' });

    selectRow(await findRow('edge-paris-1'));
    selectRow(await findRow('edge-tokyo-1'));
    clickButton('Actions for selected (2)');
    const reboot = await screen.findByText('Reboot', { selector: '.ant-dropdown-menu-title-content' });
    expect(reboot.closest('li')?.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(await screen.findByText('Rotate logs now', { selector: '.ant-dropdown-menu-title-content' }));
    clickButton('OK', await findModal());
    await waitFor(() => expect(api.sent(rotateNodeLogs)[0]?.body).toEqual({ ids: [21, 31] }));
  });

  it("clears the cache of one zone's nodes, and purges URLs checked line by line", async () => {
    api.on(clearNodesCache, { zoneID: 2 }, ok([]));
    api.on(purgeNodesCache, { zoneID: 2 }, ok([]));
    renderAt('/client/nodeManage/nodesList?tab=initialized');
    await pick('More', 'Clear cache', await findRow('edge-paris-1'));
    let dialog = await findModal();
    expect(within(dialog).getByText(/Every entry cached on 1 node/)).toBeTruthy();
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(clearNodesCache, { zoneID: 2 }).map((r) => r.body)).toEqual([{ ids: [21] }]));
    await modalClosed(dialog);

    // The first row's menu stays in the page: pick from the menu opened last.
    clickButton('More', await findRow('edge-paris-2'));
    const items = await screen.findAllByText('Purge URLs', { selector: '.ant-dropdown-menu-title-content' });
    fireEvent.click(items.at(-1) as HTMLElement);
    dialog = await findModal();
    typeInto(dialog, 'URLs', 'https://www.shop.example/a.css\nftp://www.shop.example/b');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Line 2: Please enter a valid URL')).toBeTruthy();
    expect(api.sent(purgeNodesCache, { zoneID: 2 })).toHaveLength(0);
    typeInto(dialog, 'URLs', 'https://www.shop.example/a.css\n\n http://www.shop.example/b ');
    clickButton('OK', dialog);
    await waitFor(() =>
      expect(api.sent(purgeNodesCache, { zoneID: 2 })[0]?.body).toEqual({
        ids: [22],
        type: 'url',
        urls: ['https://www.shop.example/a.css', 'http://www.shop.example/b'],
      }),
    );
  });

  it('sets memo, port type and the daily rotation time, showing refusals', async () => {
    api.on(setNodeMemo, ok(true));
    api.on(setNodePortType, fail(409, 202005, 'Port Type 4 In Use', { nodeIDs: [21] }));
    api.on(setNodeLogRotateTime, ok(true));
    renderAt('/client/nodeManage/nodesList?tab=initialized');
    const row = await findRow('edge-paris-1');

    await pick('More', 'Set memo', row);
    let dialog = await findModal();
    typeInto(dialog, 'Memo', 'rack 4');
    clickButton('OK', dialog);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(setNodeMemo)[0]?.body).toEqual({ ids: [21], memo: 'rack 4' });

    await pick('More', 'Set port type', row);
    dialog = await findModal();
    fireEvent.click(within(dialog).getByLabelText('Layer 4 (TCP/UDP)'));
    clickButton('OK', dialog);
    expect(await screen.findByText('Port Type 4 In Use')).toBeTruthy();
    expect(api.sent(setNodePortType)[0]?.body).toEqual({ ids: [21], portType: 4 });
    clickButton('Cancel', dialog);

    await pick('More', 'Set daily log rotation', row);
    dialog = await findModal();
    typeInto(dialog, 'Daily log rotation (UTC)', '25:00');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Wrong format')).toBeTruthy();
    expect(api.sent(setNodeLogRotateTime)).toEqual([]);
    typeInto(dialog, 'Daily log rotation (UTC)', '03:30');
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(setNodeLogRotateTime)[0]?.body).toEqual({ ids: [21], time: '03:30' }));
  });
});

describe('a node’s details', () => {
  const system = {
    cpuCount: 4,
    cpuUsage: 12.5,
    memoryTotalBytes: 8e9,
    memoryUsedBytes: 2e9,
    diskTotalBytes: 100e9,
    diskUsedBytes: 40e9,
    loadAverage: [0.5, 0.4, 0.3],
    uptimeSeconds: 90_061,
    nginxVersion: '1.22.1',
    agentVersion: '0.3.0',
    reportedAt: '2026-03-01T10:05:00.000Z',
  };
  const command = {
    id: 7,
    nodeId: 21,
    type: 'reboot',
    status: 'succeeded',
    message: 'nginx restarted: master 10 → 20',
    createdAt: '2026-03-01T10:00:00.000Z',
    sentAt: '2026-03-01T10:00:01.000Z',
    finishedAt: '2026-03-01T10:00:02.000Z',
    results: [],
  };
  const purge = {
    ...command,
    id: 9,
    type: 'purgeUrls',
    message: '2 URL(s): 1 cache entry removed',
    results: [
      {
        url: 'http://www.shop.example/a.css',
        ok: true,
        httpStatus: null,
        cacheStatus: null,
        purged: 1,
        message: 'purged',
      },
      {
        url: 'http://unknown.example/',
        ok: false,
        httpStatus: null,
        cacheStatus: null,
        purged: 0,
        message: 'no domain of this node serves unknown.example',
      },
    ],
  };

  beforeEach(() => {
    api.on(listInitializedNodes, okPage([paris1]));
    api.on(getNodeSystem, { zoneID: 2, id: 21 }, ok(system));
    api.on(
      listNodeCommands,
      { zoneID: 2, id: 21 },
      okPage([command, { ...command, id: 8, type: 'logRotate', status: 'sent', message: '' }, purge]),
    );
  });

  it("opens a URL purge's row on its result per URL", async () => {
    renderAt('/client/nodeManage/nodesList?tab=initialized&node=21');
    const row = (await screen.findByText('2 URL(s): 1 cache entry removed')).closest('tr') as HTMLElement;
    expect(within(row).getByText('URL purge')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: /expand/i }));
    expect(await screen.findByText('no domain of this node serves unknown.example')).toBeTruthy();
    expect(screen.getByText('http://www.shop.example/a.css')).toBeTruthy();
  });

  it('opens from the row with the node in the URL, and shows its system and commands with results', async () => {
    const router = renderAt('/client/nodeManage/nodesList?tab=initialized');
    clickButton('Details', await findRow('edge-paris-1'));
    expect(await screen.findByText('Node edge-paris-1')).toBeTruthy();
    expect(router.state.location.search).toContain('node=21');
    expect(await screen.findByText('4 cores, 12.5% busy')).toBeTruthy();
    expect(screen.getByText('2.00 GB of 8.00 GB')).toBeTruthy();
    expect(screen.getByText('40.00 GB of 100.00 GB')).toBeTruthy();
    expect(screen.getByText('1 d 1 h 1 min')).toBeTruthy();
    expect(screen.getByText('1.22.1')).toBeTruthy();
    expect(await screen.findByText('nginx restarted: master 10 → 20')).toBeTruthy();
    expect(screen.getAllByText('Succeeded')).toHaveLength(2);
    expect(screen.getByText('Running')).toBeTruthy();
    expect(api.sent(listNodeCommands, { zoneID: 2, id: 21 })[0]?.search.get('pageSize')).toBe('20');
  });

  it('lists the sub-nodes, adds several addresses at once, changes one and deletes selected ones', async () => {
    const sub = { id: 5, nodeId: 21, ip: '198.51.100.40', memo: 'nic 2', createdAt: '2026-03-01T10:00:00.000Z' };
    api.on(listSubNodes, { zoneID: 2, id: 21 }, ok([sub]));
    api.on(createSubNodes, { zoneID: 2, id: 21 }, ok([]));
    api.on(updateSubNodeIp, { zoneID: 2, id: 21 }, ok({ ...sub, ip: '198.51.100.41' }));
    api.on(deleteSubNodes, { zoneID: 2, id: 21 }, ok(true));
    renderAt('/client/nodeManage/nodesList?tab=initialized&node=21');
    const row = await findRow('198.51.100.40');
    expect(within(row).getByText('nic 2')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Add sub-nodes'), { target: { value: '198.51.100.42, 2001:db8::42' } });
    clickButton('Add sub-nodes', screen.getByLabelText('Add sub-nodes').parentElement as HTMLElement);
    await waitFor(() => expect(api.sent(createSubNodes, { zoneID: 2, id: 21 })).toHaveLength(1));
    expect(api.sent(createSubNodes, { zoneID: 2, id: 21 })[0]?.body).toEqual({
      ips: ['198.51.100.42', '2001:db8::42'],
    });
    clickButton('Change address', row);
    const modal = await findModal();
    typeInto(modal, 'Address', '198.51.100.41');
    clickButton('Save', modal);
    await waitFor(() => expect(api.sent(updateSubNodeIp, { zoneID: 2, id: 21 })).toHaveLength(1));
    expect(api.sent(updateSubNodeIp, { zoneID: 2, id: 21 })[0]?.body).toEqual({ id: 5, ip: '198.51.100.41' });
    await modalClosed(modal);
    fireEvent.click(within(row).getByRole('checkbox'));
    clickButton('Delete selected (1)');
    clickButton('Delete', await findPopconfirm('Delete 1 sub-node(s)?'));
    await waitFor(() => expect(api.sent(deleteSubNodes, { zoneID: 2, id: 21 })).toHaveLength(1));
    expect(api.sent(deleteSubNodes, { zoneID: 2, id: 21 })[0]?.body).toEqual({ ids: [5] });
  });

  it('says so when the agent has not reported yet', async () => {
    api.on(getNodeSystem, { zoneID: 2, id: 21 }, ok(null));
    renderAt('/client/nodeManage/nodesList?tab=initialized&node=21');
    expect(await screen.findByText('The agent has not reported its system yet.')).toBeTruthy();
  });

  it('reloads the system information and the commands every 2000 ms', async () => {
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
    });
    renderAt('/client/nodeManage/nodesList?tab=initialized&node=21');
    await screen.findByText('4 cores, 12.5% busy', undefined, { timeout: 10_000 });
    const before = api.sent(getNodeSystem, { zoneID: 2, id: 21 }).length;
    const commandsBefore = api.sent(listNodeCommands, { zoneID: 2, id: 21 }).length;
    await act(() => vi.advanceTimersByTimeAsync(2100));
    await waitFor(() => expect(api.sent(getNodeSystem, { zoneID: 2, id: 21 })).toHaveLength(before + 1));
    expect(api.sent(listNodeCommands, { zoneID: 2, id: 21 }).length).toBeGreaterThan(commandsBefore);
  });
});

describe('a zone’s nodes', () => {
  const zone = {
    id: 2,
    name: 'Europe',
    memo: '',
    nodeCount: 2,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
  };

  beforeEach(() => {
    api.on(listZones, okPage([zone]));
    api.on(listZoneNodes, { zoneID: 2 }, okPage([paris1, paris2]));
  });

  it('lists them in a drawer kept in the URL, renames one and refuses to remove one still in a group', async () => {
    api.on(renameZoneNode, { zoneID: 2 }, ok(true));
    api.on(removeZoneNode, { zoneID: 2 }, fail(409, 202003, 'Node Exists In Group', { nodeIDs: [21] }));
    const router = renderAt('/client/nodeManage/zonesList');
    clickButton('Nodes', await findRow('Europe'));
    expect(await screen.findByText('Nodes of Europe')).toBeTruthy();
    expect(router.state.location.search).toBe('?nodes=2');
    const row = await findRow('edge-paris-1');
    expect(api.sent(listZoneNodes, { zoneID: 2 })[0]?.search.get('page')).toBe('1');

    clickButton('Rename', row);
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'Paris 1');
    clickButton('OK', dialog);
    expect(await screen.findByText('Update Success')).toBeTruthy();
    expect(api.sent(renameZoneNode, { zoneID: 2 })[0]?.body).toEqual({ id: 21, name: 'Paris 1' });

    clickButton('Remove from zone', row);
    clickButton('Delete', await findPopconfirm(/Take edge-paris-1 out of the zone/));
    expect(await screen.findByText('Node Exists In Group')).toBeTruthy();
    expect(api.sent(removeZoneNode, { zoneID: 2 })[0]?.body).toEqual({ id: 21 });
  });
});
