import {
  createMonitorGroup,
  createMonitorNode,
  deleteMonitorNode,
  listInitializedNodes,
  listMonitorCandidates,
  listMonitorGroupNodes,
  listMonitorGroups,
  listMonitorNodes,
  listNodesEnableStatus,
  listUninitializedNodes,
  metaMonitors,
  metaZones,
  updateMonitorGroup,
  updateMonitorNode,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { initializedNode } from '../../test/fixtures';
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

// The monitorManagement screens share one file: the first render of a file loads antd (seconds).
const api = pageTestApi(() => signedInFakeApi('client'));

const at = '2026-03-01T10:00:00.000Z';

const monitor = (overrides: object = {}) => ({
  id: 1,
  nodeId: 11,
  name: 'probe-tokyo',
  ips: ['203.0.113.9'],
  initialized: false,
  connection: 'online',
  memo: 'rack 4',
  enabled: true,
  groups: [{ id: 3, name: 'web' }],
  createdAt: at,
  ...overrides,
});

const edgeNode = initializedNode({
  appliedVersion: '',
  currentVersion: '',
  lastSeenAt: at,
  createdAt: at,
  monitor: true,
  monitorState: { state: 'down', since: at },
});

describe('monitorNodeList', () => {
  beforeEach(() => {
    api.on(
      listMonitorNodes,
      okPage([monitor(), monitor({ id: 2, name: 'edge-as-probe', initialized: true, groups: [] })]),
    );
  });

  it('lists monitor nodes with their kind, connection and groups; pauses one and removes one', async () => {
    api.on(updateMonitorNode, ok(monitor({ enabled: false })));
    api.on(deleteMonitorNode, ok(true));
    renderAt('/client/monitorManagement/monitorNodeList');
    const row = await findRow('probe-tokyo');
    expect(within(row).getByText('Dedicated machine')).toBeTruthy();
    expect(within(row).getByText('Online')).toBeTruthy();
    expect(within(row).getByText('web')).toBeTruthy();
    expect(within(await findRow('edge-as-probe')).getByText('Edge node')).toBeTruthy();

    fireEvent.click(within(row).getByLabelText('Probing probe-tokyo'));
    await waitFor(() =>
      expect(api.sent(updateMonitorNode)[0]?.body).toEqual({ id: 1, memo: 'rack 4', enabled: false }),
    );

    clickButton('Remove', row);
    clickButton('Delete', await findPopconfirm(/Stop using probe-tokyo/));
    await waitFor(() => expect(api.sent(deleteMonitorNode)[0]?.body).toEqual({ id: 1 }));
  });

  it('adds a waiting machine as a monitor node', async () => {
    api.on(
      listMonitorCandidates,
      okPage([{ id: 31, name: 'probe-box', ips: ['192.0.2.5'], connection: 'online', createdAt: at }]),
    );
    api.on(createMonitorNode, ok(monitor({ id: 3 })));
    renderAt('/client/monitorManagement/monitorNodeList');
    await findRow('probe-tokyo');
    clickButton('Add monitor node');
    const dialog = await findModal();
    await chooseOption(dialog, 'Dedicated machine', 'probe-box (192.0.2.5)');
    typeInto(dialog, 'Memo', 'spare');
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(createMonitorNode)[0]?.body).toEqual({ nodeID: 31, memo: 'spare' });
  });

  it('adds an edge node found by a search on the server', async () => {
    api.on(listMonitorCandidates, okPage([]));
    api.on(listInitializedNodes, okPage([edgeNode]));
    api.on(createMonitorNode, ok(monitor({ id: 3 })));
    renderAt('/client/monitorManagement/monitorNodeList');
    await findRow('probe-tokyo');
    clickButton('Add monitor node');
    const dialog = await findModal();
    fireEvent.click(within(dialog).getByLabelText('An initialised edge node'));
    fireEvent.change(await within(dialog).findByLabelText('Search name or IP'), { target: { value: 'paris' } });
    await waitFor(() => expect(api.sent(listInitializedNodes).at(-1)?.search.get('value')).toBe('paris'));
    await chooseOption(dialog, 'Search name or IP', 'edge-paris-1 (198.51.100.4)');
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(createMonitorNode)[0]?.body).toEqual({ nodeID: 21, memo: '' }));
  });

  it('asks for a node before sending anything', async () => {
    api.on(listMonitorCandidates, okPage([]));
    renderAt('/client/monitorManagement/monitorNodeList');
    await findRow('probe-tokyo');
    clickButton('Add monitor node');
    const dialog = await findModal();
    expect(await within(dialog).findByText(/No machine is waiting/)).toBeTruthy();
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    expect(api.sent(createMonitorNode)).toEqual([]);
  });
});

const group = {
  id: 3,
  name: 'web',
  memo: '',
  enabled: true,
  intervalSeconds: 60,
  timeoutSeconds: 5,
  failureThreshold: 3,
  monitors: [{ id: 1, name: 'probe-tokyo' }],
  targets: [{ id: 21, name: 'edge-paris-1' }],
  counts: { up: 4, down: 1, unknown: 0 },
  createdAt: at,
};

describe('monitorNodeGroup', () => {
  beforeEach(() => {
    api.on(listMonitorGroups, okPage([group]));
    api.on(metaMonitors, ok([{ id: 1, name: 'probe-tokyo', enabled: true }]));
    api.on(listInitializedNodes, okPage([edgeNode]));
  });

  it('creates a group with its monitors and the nodes it probes, and shows a refused field under it', async () => {
    let calls = 0;
    api.on(createMonitorGroup, () => {
      calls += 1;
      const fields = [
        { in: 'body', field: 'nodeIDs.0', key: 'invalidValue', message: 'Not one of the allowed values' },
      ];
      return calls === 1 ? fail(400, 101003, 'Parameter Error', { fields }) : ok(group);
    });
    renderAt('/client/monitorManagement/monitorNodeGroup');
    const row = await findRow('web');
    expect(within(row).getByText('probe-tokyo')).toBeTruthy();
    expect(within(row).getByText('Down')).toBeTruthy();

    clickButton('New monitor group');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'api');
    await chooseOption(dialog, 'Monitor nodes', 'probe-tokyo');
    await chooseOption(dialog, 'Search name or IP', 'edge-paris-1 (198.51.100.4)');
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Not one of the allowed values')).toBeTruthy();
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(createMonitorGroup)[1]?.body).toEqual({
      name: 'api',
      memo: '',
      enabled: true,
      intervalSeconds: 60,
      timeoutSeconds: 5,
      failureThreshold: 3,
      monitorIDs: [1],
      nodeIDs: [21],
    });
  });

  it('checks a timeout that is not shorter than the interval before sending', async () => {
    renderAt('/client/monitorManagement/monitorNodeGroup');
    clickButton('Edit', await findRow('web'));
    const dialog = await findModal();
    fireEvent.change(within(dialog).getByLabelText('Timeout (seconds)'), { target: { value: '30' } });
    fireEvent.change(within(dialog).getByLabelText('Interval (seconds)'), { target: { value: '20' } });
    clickButton('OK', dialog);
    expect(await within(dialog).findByText('Must be at most 19')).toBeTruthy();
    expect(api.sent(updateMonitorGroup)).toEqual([]);
  });

  it("opens a group's nodes with their state, since when, reason and latest changes", async () => {
    api.on(
      listMonitorGroupNodes,
      { id: 3 },
      okPage([
        {
          nodeId: 21,
          name: 'edge-paris-1',
          ips: ['198.51.100.4'],
          zoneName: 'Europe',
          state: 'down',
          since: at,
          checkedAt: at,
          reason: '443 ECONNREFUSED',
          history: [
            { state: 'down', at, reason: '443 ECONNREFUSED' },
            { state: 'up', at: '2026-02-28T10:00:00.000Z', reason: '' },
          ],
        },
      ]),
    );
    const router = renderAt('/client/monitorManagement/monitorNodeGroup');
    clickButton('Nodes', await findRow('web'));
    expect(await screen.findByText('Nodes probed by web')).toBeTruthy();
    expect(router.state.location.search).toBe('?group=3');
    const row = await findRow('443 ECONNREFUSED');
    expect(within(row).getAllByText('Down')).toHaveLength(2);
    expect(within(row).getByText('Up')).toBeTruthy();

    await chooseOption(await screen.findByRole('dialog'), 'State', 'Down');
    await waitFor(() => expect(api.sent(listMonitorGroupNodes, { id: 3 }).at(-1)?.search.get('state')).toBe('down'));
  });
});

describe('monitorNodeGroup node states', () => {
  it('lists every initialised node with its state across groups, filtered by state and search in the URL', async () => {
    api.on(
      listNodesEnableStatus,
      okPage([
        {
          id: 21,
          name: 'edge-paris-1',
          ips: ['198.51.100.4'],
          zoneName: 'Europe',
          state: 'down',
          since: at,
          groups: [
            { id: 3, name: 'web', state: 'down', since: at, checkedAt: at, reason: '443 ECONNREFUSED' },
            { id: 4, name: 'api', state: 'up', since: at, checkedAt: at, reason: '' },
          ],
        },
        {
          id: 22,
          name: 'edge-paris-2',
          ips: ['198.51.100.5'],
          zoneName: 'Europe',
          state: 'unmonitored',
          since: null,
          groups: [],
        },
      ]),
    );
    const router = renderAt('/client/monitorManagement/monitorNodeGroup?tab=nodes&state=down&value=paris');
    const row = await findRow('edge-paris-1');
    expect(within(row).getByText('Down')).toBeTruthy();
    expect(within(row).getByText('web: Down')).toBeTruthy();
    expect(within(row).getByText('api: Up')).toBeTruthy();
    expect(within(await findRow('edge-paris-2')).getByText('Not monitored')).toBeTruthy();
    const query = api.sent(listNodesEnableStatus)[0]?.search;
    expect(query?.get('state')).toBe('down');
    expect(query?.get('value')).toBe('paris');

    await chooseOption(document.body, 'State', 'Up');
    await waitFor(() => expect(router.state.location.search).toContain('state=up'));
    await waitFor(() => expect(api.sent(listNodesEnableStatus).at(-1)?.search.get('state')).toBe('up'));
  });
});

describe('node list', () => {
  it("shows each initialised node's monitoring state, and 'Not monitored' for one switched off", async () => {
    api.on(listUninitializedNodes, okPage([]));
    api.on(metaZones, ok([]));
    api.on(listInitializedNodes, okPage([edgeNode, { ...edgeNode, id: 22, name: 'edge-paris-2', monitor: false }]));
    renderAt('/client/nodeManage/nodesList?tab=initialized');
    await findRow('edge-paris-1');
    await showAllColumns();
    expect(within(await findRow('edge-paris-1')).getByText('Down')).toBeTruthy();
    const off = await findRow('edge-paris-2');
    expect(within(off).queryByText('Down')).toBeNull();
    expect(within(off).getByText('Not monitored')).toBeTruthy();
  });
});
