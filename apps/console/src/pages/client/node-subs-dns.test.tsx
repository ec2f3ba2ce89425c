import { getLatestNodeVersion, listInitializedNodes, listUninitializedNodes, metaZones } from '@rampart/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { initializedNode } from '../../test/fixtures';
import { chooseOption, findRow, showAllColumns } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The initialised-node list's sub-node and DNS status columns and filters, against a fake API.

const api = pageTestApi(() => signedInFakeApi('client'));

const withSubs = initializedNode({ subNodeCount: 3, dnsStatus: 'recorded' });
const bare = initializedNode({ id: 22, name: 'edge-paris-2', subNodeCount: 0, dnsStatus: 'none' });

beforeEach(() => {
  api.on(listUninitializedNodes, okPage([]));
  api.on(metaZones, ok([{ id: 2, name: 'Europe' }]));
  api.on(listInitializedNodes, okPage([withSubs, bare]));
  api.on(getLatestNodeVersion, ok({ version: '0.3.0', available: true }));
});

describe('sub-nodes and DNS status in the node list', () => {
  it("shows each node's sub-node count and DNS status", async () => {
    renderAt('/client/nodeManage/nodesList?tab=initialized');
    const first = await findRow('edge-paris-1');
    await showAllColumns();
    expect(within(first).getByText('3', { selector: 'td' })).toBeTruthy();
    expect(within(first).getByText('Recorded')).toBeTruthy();
    const second = await findRow('edge-paris-2');
    expect(within(second).getByText('0', { selector: 'td' })).toBeTruthy();
    expect(within(second).getByText('No record')).toBeTruthy();
  });

  it('sends the filters from the URL and ignores values the API does not know', async () => {
    renderAt('/client/nodeManage/nodesList?tab=initialized&subNodeType=withSubs&dnsStatus=bogus');
    await findRow('edge-paris-1');
    const search = api.sent(listInitializedNodes)[0]?.search;
    expect(search?.get('subNodeType')).toBe('withSubs');
    expect(search?.has('dnsStatus')).toBe(false);
    const select = (label: string) => screen.getByLabelText(label).closest('.ant-select')?.textContent;
    expect(select('Sub-nodes')).toContain('With sub-nodes');
    expect(select('DNS status')).toContain('DNS status: all');
  });

  it('puts a chosen filter in the URL, sends it, and "all" takes it out again', async () => {
    const router = renderAt('/client/nodeManage/nodesList?tab=initialized&page=2');
    await findRow('edge-paris-1');
    const page = document.body;
    await chooseOption(page, 'DNS status', 'No record');
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('dnsStatus')).toBe('none'));
    // A new filter starts from the first page.
    expect(new URLSearchParams(router.state.location.search).has('page')).toBe(false);
    await waitFor(() => expect(api.sent(listInitializedNodes).at(-1)?.search.get('dnsStatus')).toBe('none'));

    await chooseOption(page, 'Sub-nodes', 'Without sub-nodes');
    await waitFor(() => expect(api.sent(listInitializedNodes).at(-1)?.search.get('subNodeType')).toBe('withoutSubs'));

    await chooseOption(page, 'DNS status', 'DNS status: all');
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).has('dnsStatus')).toBe(false));
    await waitFor(() => {
      const last = api.sent(listInitializedNodes).at(-1)?.search;
      expect([last?.get('subNodeType'), last?.has('dnsStatus')]).toEqual(['withoutSubs', false]);
    });
  });
});
