import type { InitializedNode } from '@rampart/contract';
import { getLatestNodeVersion, listInitializedNodes, listNodeUpgradeLogs, upgradeNodes } from '@rampart/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, fakeApiForEachTest, ok, okPage, signedInFakeApi } from '../../test/fake-api';
import { initializedNode } from '../../test/fixtures';
import { buttonByText, clickButton, findModal, findRow, selectRows } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The version upgrade page (System settings → Version upgrade): the control plane's version and
// release, the nodes not on it (paged on the server), their upgrade, its progress and log.

vi.setConfig({ testTimeout: 20_000 });

const PAGE = '/client/systemManagement/systemUpgrade';
const api = fakeApiForEachTest(() => signedInFakeApi('client'));

const old: InitializedNode = initializedNode({ id: 21, name: 'edge-paris-1', version: '0.3.0' });
const older: InitializedNode = initializedNode({
  id: 23,
  name: 'edge-lyon-1',
  version: '0.2.0',
  upgradeStatus: 'failed',
});

beforeEach(() => {
  api.on(getLatestNodeVersion, ok({ version: '0.4.0', available: true }));
  api.on(listInitializedNodes, okPage([old, older], 2));
});

describe('version upgrade page', () => {
  it('shows the control plane’s version and release, and lists the nodes not on it from the server', async () => {
    renderAt(`${PAGE}?page=2&pageSize=50`);
    expect(await screen.findByText('Version 0.4.0, served to nodes')).toBeTruthy();
    expect(screen.getByText('Control plane version')).toBeTruthy();
    expect(screen.getByText('Nodes not on version 0.4.0')).toBeTruthy();
    expect(within(await findRow('edge-lyon-1')).getByText('Upgrade failed')).toBeTruthy();
    expect(within(await findRow('edge-paris-1')).getByText('0.3.0')).toBeTruthy();
    const query = api.sent(listInitializedNodes)[0]?.search;
    expect(query?.get('notVersion')).toBe('0.4.0');
    expect(query?.get('page')).toBe('2');
    expect(query?.get('pageSize')).toBe('50');
  });

  it('upgrades the selected nodes after confirming the version', async () => {
    api.on(upgradeNodes, ok([]));
    renderAt(PAGE);
    await findRow('edge-paris-1');
    await selectRows(['edge-paris-1']);
    clickButton('Upgrade selected (1)');
    const dialog = await findModal();
    expect(within(dialog).getByText(/downloads version 0\.4\.0/)).toBeTruthy();
    clickButton('OK', dialog);
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    expect(api.sent(upgradeNodes).map((r) => r.body)).toEqual([{ ids: [21] }]);
  });

  it('upgrades every node not on the version, also those on other pages', async () => {
    api.on(listInitializedNodes, (request) =>
      request.search.get('pageSize') === '500'
        ? okPage([old, older, initializedNode({ id: 24, name: 'edge-nice-1', version: '0.1.0' })], 3)
        : okPage([old], 3),
    );
    api.on(upgradeNodes, ok([]));
    renderAt(`${PAGE}?pageSize=25`);
    await findRow('edge-paris-1');
    clickButton('Upgrade all (3)');
    const dialog = await findModal();
    expect(within(dialog).getByText('edge-paris-1, edge-lyon-1, edge-nice-1')).toBeTruthy();
    clickButton('OK', dialog);
    await waitFor(() => expect(api.sent(upgradeNodes).map((r) => r.body)).toEqual([{ ids: [21, 23, 24] }]));
    const all = api.sent(listInitializedNodes).find((r) => r.search.get('pageSize') === '500');
    expect(all?.search.get('notVersion')).toBe('0.4.0');
  });

  it('says when the control plane has no release to serve, and offers no upgrade', async () => {
    api.on(getLatestNodeVersion, ok({ version: '0.4.0', available: false }));
    renderAt(PAGE);
    expect(await screen.findByText('None to serve')).toBeTruthy();
    expect(screen.getByText(/has no agent release of version 0\.4\.0 to serve/)).toBeTruthy();
    await findRow('edge-paris-1');
    expect(buttonByText('Upgrade all (2)').disabled).toBe(true);
    expect(buttonByText('Upgrade selected (0)').disabled).toBe(true);
  });

  it('reloads the list while a node is upgrading, and stops when none is', async () => {
    let calls = 0;
    api.on(listInitializedNodes, () => {
      calls += 1;
      return calls === 1
        ? okPage([{ ...old, upgradeStatus: 'upgrading' }], 1)
        : okPage([{ ...old, upgradeStatus: 'failed' }], 1);
    });
    renderAt(PAGE);
    expect(within(await findRow('edge-paris-1')).getByText('Upgrading')).toBeTruthy();
    await waitFor(
      () => expect(within(screen.getByRole('row', { name: /edge-paris-1/ })).getByText('Upgrade failed')).toBeTruthy(),
      {
        timeout: 8000,
      },
    );
    const seen = calls;
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(calls).toBe(seen);
  });

  it('shows a node’s upgrade log in a drawer', async () => {
    api.on(
      listNodeUpgradeLogs,
      { id: 23 },
      okPage([
        {
          id: 3,
          nodeId: 23,
          commandId: 5,
          version: '0.4.0',
          stage: 'failed',
          message: 'sha256 of lua/rampart/init.lua differs',
          createdAt: '2026-03-01T10:00:00.000Z',
        },
      ]),
    );
    renderAt(PAGE);
    clickButton('Upgrade log', await findRow('edge-lyon-1'));
    expect(await screen.findByText('Upgrade log of edge-lyon-1')).toBeTruthy();
    expect(await screen.findByText('sha256 of lua/rampart/init.lua differs')).toBeTruthy();
    expect(api.sent(listNodeUpgradeLogs, { id: 23 })[0]?.search.get('page')).toBe('1');
  });

  it('says when the version could not be loaded, with a retry', async () => {
    api.on(getLatestNodeVersion, fail(500, 100001, 'Server Error'));
    renderAt(PAGE);
    expect(await screen.findByText('The version and the agent release could not be loaded.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
