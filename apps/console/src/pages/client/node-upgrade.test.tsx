import type { InitializedNode } from '@rampart/contract';
import {
  getLatestNodeVersion,
  getNodeSystem,
  listInitializedNodes,
  listNodeCommands,
  listNodeUpgradeLogs,
  listUninitializedNodes,
  metaZones,
  upgradeNodes,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { initializedNode } from '../../test/fixtures';
import { clickButton, findModal, findRow, showAllColumns } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// Node upgrade on the initialised-nodes tab: the latest version, the upgrade status column and
// filter, the upgrade action (offered only when there is something to upgrade) and a node's
// upgrade log in its drawer.

const api = pageTestApi(() => signedInFakeApi('client'));

const node = (overrides: Partial<InitializedNode>) => initializedNode(overrides);
const old = node({ upgradeStatus: 'failed' });
const current = node({ id: 22, name: 'edge-paris-2', version: '0.4.0', upgradeStatus: 'succeeded' });

beforeEach(() => {
  api.on(listUninitializedNodes, okPage([]));
  api.on(metaZones, ok([{ id: 2, name: 'Europe' }]));
  api.on(listInitializedNodes, okPage([old, current]));
  api.on(getLatestNodeVersion, ok({ version: '0.4.0', available: true }));
});

afterEach(() => {
  vi.useRealTimers();
});

async function menuItem(row: HTMLElement, item: string) {
  clickButton('More', row);
  const entries = await screen.findAllByText(item, { selector: '.ant-dropdown-menu-title-content' });
  return entries.at(-1) as HTMLElement;
}

describe('node upgrade', () => {
  it('shows the latest version and each node’s upgrade status, and keeps the status filter in the URL', async () => {
    renderAt('/client/nodeManage/nodesList?tab=initialized&upgradeStatuses=failed&upgradeStatuses=upgrading');
    await findRow('edge-paris-1');
    await showAllColumns();
    expect(within(await findRow('edge-paris-1')).getByText('Upgrade failed')).toBeTruthy();
    expect(within(await findRow('edge-paris-2')).getByText('Upgraded')).toBeTruthy();
    expect(await screen.findByText('Latest agent version: 0.4.0')).toBeTruthy();
    const query = api.sent(listInitializedNodes)[0]?.search;
    expect(query?.getAll('upgradeStatuses')).toEqual(['failed', 'upgrading']);
  });

  it('upgrades a node from its row after confirming the version', async () => {
    api.on(upgradeNodes, ok([]));
    renderAt('/client/nodeManage/nodesList?tab=initialized');
    await screen.findByText('Latest agent version: 0.4.0');
    fireEvent.click(await menuItem(await findRow('edge-paris-1'), 'Upgrade agent'));
    const dialog = await findModal();
    expect(within(dialog).getByText(/downloads version 0\.4\.0/)).toBeTruthy();
    clickButton('OK', dialog);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(upgradeNodes).map((r) => r.body)).toEqual([{ ids: [21] }]);
  });

  it('does not offer the upgrade for a node already on the latest version', async () => {
    renderAt('/client/nodeManage/nodesList?tab=initialized');
    await screen.findByText('Latest agent version: 0.4.0');
    const upToDate = await menuItem(await findRow('edge-paris-2'), 'Upgrade agent');
    expect(upToDate.closest('li')?.getAttribute('aria-disabled')).toBe('true');
    expect(api.sent(upgradeNodes)).toEqual([]);
  });

  it('says when the control plane has no release of its version', async () => {
    api.on(getLatestNodeVersion, ok({ version: '0.4.0', available: false }));
    renderAt('/client/nodeManage/nodesList?tab=initialized');
    await screen.findByText('Latest agent version: 0.4.0');
    const item = await menuItem(await findRow('edge-paris-1'), 'Upgrade agent');
    expect(item.closest('li')?.getAttribute('aria-disabled')).toBe('true');
  });

  it('shows a node’s upgrade log in its drawer, newest first and paged', async () => {
    api.on(getNodeSystem, { zoneID: 2, id: 21 }, ok(null));
    api.on(listNodeCommands, { zoneID: 2, id: 21 }, okPage([]));
    const entry = (id: number, stage: string, message: string) => ({
      id,
      nodeId: 21,
      commandId: 5,
      version: '0.4.0',
      stage,
      message,
      createdAt: '2026-03-01T10:00:00.000Z',
    });
    api.on(
      listNodeUpgradeLogs,
      { id: 21 },
      okPage([
        entry(3, 'failed', 'lua/rampart/init.lua: SHA-256 differs'),
        entry(2, 'downloading', ''),
        entry(1, 'queued', ''),
      ]),
    );
    renderAt('/client/nodeManage/nodesList?tab=initialized&node=21');
    expect(await screen.findByText('Upgrade log')).toBeTruthy();
    expect(await screen.findByText('lua/rampart/init.lua: SHA-256 differs')).toBeTruthy();
    expect(screen.getByText('Downloading')).toBeTruthy();
    expect(screen.getByText('Queued')).toBeTruthy();
    await waitFor(() => expect(api.sent(listNodeUpgradeLogs, { id: 21 })[0]?.search.get('page')).toBe('1'));
  });
});
