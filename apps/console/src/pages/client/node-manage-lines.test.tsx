import {
  addLineNodes,
  addLineVirtualNodes,
  addVirtualNodeCname,
  addVirtualNodeNodeRecords,
  createVirtualNode,
  deleteVirtualNodeRecords,
  deleteVirtualNodes,
  lineNodeCandidates,
  lineNodeNums,
  lineVirtualNodeCandidates,
  listDnsLines,
  listGroups,
  listInitializedNodes,
  listLineNodes,
  listLineVirtualNodes,
  listVirtualNodeRecords,
  listVirtualNodes,
  listZones,
  metaZones,
  moveLineNodes,
  removeLineNodes,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { initializedNode, nodeGroup } from '../../test/fixtures';
import { chooseOption, clickButton, findModal, findPopconfirm, findRow, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds), so the
// line and virtual-node screens share one file.
const api = pageTestApi(() => signedInFakeApi('client'));

beforeEach(() => {
  api.on(
    listDnsLines,
    ok([
      { id: 'default', name: 'Default' },
      { id: 'telecom', name: 'China Telecom' },
      { id: 'unicom', name: 'China Unicom' },
    ]),
  );
});

const at = (ms: string) => `2026-03-01T10:${ms}.000Z`;

/** The drawer whose title is `title`. */
async function findDrawer(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title);
  const drawer = heading.closest('[role="dialog"]');
  if (!(drawer instanceof HTMLElement)) throw new Error(`${title} is not a drawer title`);
  return drawer;
}

function tick(row: HTMLElement): void {
  fireEvent.click(within(row).getByRole('checkbox'));
}

describe('a group’s DNS lines', () => {
  beforeEach(() => {
    api.on(
      listZones,
      okPage([{ id: 1, name: 'Asia', memo: '', nodeCount: 3, createdAt: at('00:00'), updatedAt: at('00:00') }]),
    );
    api.on(listGroups, { zoneID: 1 }, okPage([nodeGroup({ nodeCount: 2, virtualNodeCount: 1 })]));
    api.on(
      lineNodeNums,
      { zoneID: 1, groupID: 5 },
      ok([
        { line: 'default', nodeNum: 2, virtualNodeNum: 0 },
        { line: 'telecom', nodeNum: 1, virtualNodeNum: 1 },
        { line: 'unicom', nodeNum: 0, virtualNodeNum: 0 },
      ]),
    );
    api.on(
      listLineNodes,
      { zoneID: 1, groupID: 5, lineID: 'telecom' },
      okPage([{ id: 21, name: 'edge-sh-1', ips: ['203.0.113.21'] }]),
    );
    api.on(
      listLineVirtualNodes,
      { zoneID: 1, groupID: 5, lineID: 'telecom' },
      okPage([{ id: 9, name: 'cdn-pool', portType: 7, recordCount: 2 }]),
    );
  });

  async function openTelecom(): Promise<HTMLElement> {
    renderAt('/client/nodeManage/zonesList?zone=1');
    const group = await findRow('edge-a');
    fireEvent.click(within(group).getByRole('button', { name: /expand/i }));
    const telecom = await findRow('China Telecom');
    expect(within(telecom).getAllByText('1')).toHaveLength(2); // one node, one virtual node
    clickButton('Manage', telecom);
    return findDrawer('edge-a · China Telecom');
  }

  it('lists a line’s nodes, adds picked candidates, moves and removes selected ones', async () => {
    api.on(
      lineNodeCandidates,
      { zoneID: 1, groupID: 5, lineID: 'telecom' },
      okPage([{ id: 22, name: 'edge-sh-2', ips: ['203.0.113.22'] }]),
    );
    api.on(addLineNodes, { zoneID: 1, groupID: 5, lineID: 'telecom' }, ok(true));
    api.on(moveLineNodes, { zoneID: 1, groupID: 5, lineID: 'telecom' }, ok(true));
    api.on(removeLineNodes, { zoneID: 1, groupID: 5, lineID: 'telecom' }, ok(true));
    const drawer = await openTelecom();
    const node = await findRow('edge-sh-1');
    expect(within(node).getByText('203.0.113.21')).toBeTruthy();

    clickButton('Add nodes', drawer);
    const picker = await findModal();
    const candidate = await findRow('edge-sh-2');
    tick(candidate);
    clickButton('Add selected (1)', picker);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(addLineNodes, { zoneID: 1, groupID: 5, lineID: 'telecom' })[0]?.body).toEqual({ nodeIDs: [22] });

    tick(await findRow('edge-sh-1'));
    await chooseOption(drawer, 'Move selected to line', 'China Unicom');
    await waitFor(() =>
      expect(api.sent(moveLineNodes, { zoneID: 1, groupID: 5, lineID: 'telecom' })[0]?.body).toEqual({
        nodeIDs: [21],
        toLine: 'unicom',
      }),
    );

    tick(await findRow('edge-sh-1'));
    clickButton('Remove selected (1)', drawer);
    clickButton('Delete', await findPopconfirm('Take 1 off this line?'));
    await waitFor(() =>
      expect(api.sent(removeLineNodes, { zoneID: 1, groupID: 5, lineID: 'telecom' })[0]?.body).toEqual({
        nodeIDs: [21],
      }),
    );
  });

  it('adds virtual nodes on the second tab and shows the group limit refusal', async () => {
    api.on(
      lineVirtualNodeCandidates,
      { zoneID: 1, groupID: 5, lineID: 'telecom' },
      okPage([{ id: 10, name: 'cdn-spare', portType: 7, recordCount: 0 }]),
    );
    api.on(
      addLineVirtualNodes,
      { zoneID: 1, groupID: 5, lineID: 'telecom' },
      fail(422, 203003, 'grouped nodes reached limit'),
    );
    const drawer = await openTelecom();
    fireEvent.click(within(drawer).getByRole('tab', { name: 'Virtual nodes' }));
    const placed = await findRow('cdn-pool');
    expect(within(placed).getByText('Layer 7 (HTTP/HTTPS)')).toBeTruthy();
    clickButton('Add virtual nodes', drawer);
    const picker = await findModal();
    tick(await findRow('cdn-spare'));
    clickButton('Add selected (1)', picker);
    expect(await screen.findByText('grouped nodes reached limit')).toBeTruthy();
    expect(api.sent(addLineVirtualNodes, { zoneID: 1, groupID: 5, lineID: 'telecom' })[0]?.body).toEqual({
      virtualNodeIDs: [10],
    });
  });
});

const vnode = (overrides: object) => ({
  id: 9,
  zoneId: 2,
  name: 'cdn-eu',
  portType: 7,
  memo: 'west',
  recordCount: 1,
  lineCount: 2,
  createdAt: at('00:00'),
  ...overrides,
});

describe('vNode', () => {
  beforeEach(() => {
    api.on(
      metaZones,
      ok([
        { id: 1, name: 'Asia' },
        { id: 2, name: 'Europe' },
      ]),
    );
    api.on(listVirtualNodes, { zoneID: 2 }, okPage([vnode({})], 11));
  });

  it('reads zone, search and page from the URL, creates one, and shows a refused delete', async () => {
    api.on(createVirtualNode, { zoneID: 2 }, ok(vnode({ id: 12, name: 'cdn-new' })));
    api.on(deleteVirtualNodes, { zoneID: 2 }, fail(409, 206001, 'Virtual Node In Use'));
    renderAt('/client/nodeManage/vNode?zoneID=2&value=cdn&page=2');
    const row = await findRow('cdn-eu');
    expect(within(row).getByText('west')).toBeTruthy();
    expect(screen.getByText('11 in total')).toBeTruthy();
    const sent = api.sent(listVirtualNodes, { zoneID: 2 })[0]?.search;
    expect(Object.fromEntries(sent ?? [])).toEqual({ page: '2', pageSize: '10', value: 'cdn' });

    clickButton('New virtual node');
    const dialog = await findModal();
    typeInto(dialog, 'Name', 'cdn-new');
    fireEvent.click(within(dialog).getByLabelText('Layer 4 (TCP/UDP)'));
    clickButton('OK', dialog);
    expect(await screen.findByText('Create Success!')).toBeTruthy();
    expect(api.sent(createVirtualNode, { zoneID: 2 })[0]?.body).toEqual({ name: 'cdn-new', portType: 4, memo: '' });

    clickButton('Delete', await findRow('cdn-eu'));
    clickButton('Delete', await findPopconfirm('Delete the virtual node cdn-eu?'));
    expect(await screen.findByText('Virtual Node In Use')).toBeTruthy();
    expect(api.sent(deleteVirtualNodes, { zoneID: 2 })[0]?.body).toEqual({ ids: [9] });
  });

  it('shows a virtual node’s records, adds a CNAME (a refused name under its field) and node records, deletes one', async () => {
    const record = { id: 31, type: 'node', value: '', nodeId: 21, nodeName: 'edge-paris-1', createdAt: at('01:00') };
    api.on(listVirtualNodeRecords, { zoneID: 2, id: 9 }, okPage([{ ...record, ips: ['198.51.100.4'] }]));
    const fields = [{ in: 'body', field: 'value', key: 'cnameAlone', message: 'A CNAME must stand alone' }];
    api.on(addVirtualNodeCname, { zoneID: 2, id: 9 }, fail(400, 101003, 'Parameter Error', { fields }));
    api.on(listInitializedNodes, okPage([initializedNode({ id: 22, name: 'edge-paris-2', ips: ['198.51.100.5'] })]));
    api.on(addVirtualNodeNodeRecords, { zoneID: 2, id: 9 }, ok(true));
    api.on(deleteVirtualNodeRecords, { zoneID: 2, id: 9 }, ok(true));
    const router = renderAt('/client/nodeManage/vNode?zoneID=2');
    clickButton('Records', await findRow('cdn-eu'));
    const drawer = await findDrawer('Records of cdn-eu');
    expect(router.state.location.search).toContain('records=9');
    const existing = await findRow('edge-paris-1');
    expect(within(existing).getByText('198.51.100.4')).toBeTruthy();

    clickButton('Add CNAME', drawer);
    const cname = await findModal();
    typeInto(cname, 'Host name', 'cdn.example.com');
    clickButton('OK', cname);
    expect(await within(cname).findByText('A CNAME must stand alone')).toBeTruthy();
    expect(api.sent(addVirtualNodeCname, { zoneID: 2, id: 9 })[0]?.body).toEqual({
      value: 'cdn.example.com',
    });
    clickButton('Cancel', cname);

    clickButton('Add node records', drawer);
    const picker = await findModal();
    tick(await findRow('edge-paris-2'));
    clickButton('Add selected (1)', picker);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(addVirtualNodeNodeRecords, { zoneID: 2, id: 9 })[0]?.body).toEqual({ nodeIDs: [22] });

    tick(await findRow('edge-paris-1'));
    clickButton('Delete selected (1)', drawer);
    clickButton('Delete', await findPopconfirm('Delete 1 record(s)?'));
    await waitFor(() =>
      expect(api.sent(deleteVirtualNodeRecords, { zoneID: 2, id: 9 })[0]?.body).toEqual({ ids: [31] }),
    );
  });
});
