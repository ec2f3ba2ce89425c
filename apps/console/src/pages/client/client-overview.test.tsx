import { getClientOverview, type Overview } from '@rampart/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, fail, ok, restoreFakeApi, signedInFakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render-app';

// The operator's dashboard: the first-run checklist and the overview of nodes, sites and certificates.
vi.setConfig({ testTimeout: 20_000 });

let api: FakeApi;
beforeEach(() => {
  api = signedInFakeApi('client');
});
afterEach(() => restoreFakeApi());

const CHECKLIST: Overview['checklist'] = {
  zone: true,
  group: true,
  node: false,
  product: false,
  site: false,
  domain: false,
  certificate: false,
  cnameDomain: false,
  domainProof: false,
};

function overview(over: Partial<Overview> = {}): Overview {
  return {
    checklist: CHECKLIST,
    domainProofRequired: true,
    nodes: {
      total: 3,
      online: 2,
      offline: 1,
      uninitialized: 1,
      problems: [
        {
          id: 7,
          name: 'edge-fra',
          ip: '192.0.2.7',
          connection: 'offline',
          lastError: 'nginx -t failed',
          lastSeenAt: '2026-11-20T08:00:00.000Z',
        },
      ],
      versions: [
        { version: '0.2.0', nodes: 2 },
        { version: '0.1.0', nodes: 1 },
      ],
    },
    sites: { sites: 4, domains: 12, proofPending: 2, cnameUnverified: 5 },
    certificates: { total: 6, expiringSoon: 1, expired: 3 },
    ...over,
  };
}

describe('operator dashboard', () => {
  it('lists the open first-run steps with a link to each, and the counts at a glance', async () => {
    api.on(getClientOverview, ok(overview()));
    renderAt('/client/dashboard');
    const checklist = await screen.findByTestId('overview-checklist', {}, { timeout: 10_000 });
    expect(within(checklist).getByTestId('step-zone').dataset.done).toBe('true');
    const node = within(checklist).getByTestId('step-node');
    expect(node.dataset.done).toBe('false');
    expect(within(node).getByText('Join a node and place it in the group')).toBeTruthy();
    expect(within(node).getByRole('link', { name: 'Open' }).getAttribute('href')).toBe('/client/nodeManage/nodesList');
    expect(within(within(checklist).getByTestId('step-cnameDomain')).getByRole('link').getAttribute('href')).toBe(
      '/client/systemManagement/cname',
    );
    expect(within(within(checklist).getByTestId('step-zone')).queryByRole('link')).toBeNull();
    // The domain-proof choice, with where it is made and what holds now.
    const proof = within(checklist).getByTestId('step-domainProof');
    expect(proof.dataset.done).toBe('false');
    expect(
      within(proof).getByText(/must prove ownership with a DNS record before they are served \(now: required\)/),
    ).toBeTruthy();
    expect(within(proof).getByText(/RAMPART_DOMAIN_PROOF/)).toBeTruthy();
    expect(within(proof).getByRole('link', { name: 'Open' }).getAttribute('href')).toBe(
      '/client/systemManagement/cname',
    );

    const nodes = screen.getByTestId('overview-nodes');
    expect(within(nodes).getByText('Waiting to be placed')).toBeTruthy();
    expect(within(nodes).getByText('edge-fra (192.0.2.7)')).toBeTruthy();
    expect(within(nodes).getByText('nginx -t failed')).toBeTruthy();
    expect(within(nodes).getByText('Offline', { selector: '.ant-tag' })).toBeTruthy();
    expect(within(screen.getByTestId('overview-versions')).getByText('0.2.0 × 2')).toBeTruthy();
    const sites = screen.getByTestId('overview-sites');
    expect(within(sites).getByText('Awaiting proof of control')).toBeTruthy();
    expect(within(sites).getByText('12')).toBeTruthy();
    expect(within(screen.getByTestId('overview-certificates')).getByText('Ending within 30 days')).toBeTruthy();
  });

  it('hides the checklist once every step is done, and the parts the account may not read', async () => {
    const done = Object.fromEntries(Object.keys(CHECKLIST).map((k) => [k, true])) as Overview['checklist'];
    api.on(getClientOverview, ok(overview({ checklist: done, sites: null, certificates: null })));
    renderAt('/client/dashboard');
    expect(await screen.findByText('Waiting to be placed', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByTestId('overview-checklist')).toBeNull();
    expect(screen.queryByTestId('overview-sites')).toBeNull();
    expect(screen.queryByTestId('overview-certificates')).toBeNull();
  });

  it('offers a retry when the overview fails, and the account summary still shows', async () => {
    api.on(getClientOverview, fail(500, 100001, 'boom'));
    renderAt('/client/dashboard');
    expect(await screen.findByTestId('account-summary')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('The overview could not be loaded.')).toBeTruthy(), {
      timeout: 10_000,
    });
    api.on(getClientOverview, ok(overview()));
    // The overview's own retry (the traffic analysis below has its own, for its own calls).
    const alert = screen.getByText('The overview could not be loaded.').closest<HTMLElement>('.ant-alert');
    within(alert as HTMLElement)
      .getByRole('button', { name: /retry/i })
      .click();
    expect(await screen.findByTestId('overview-checklist', {}, { timeout: 10_000 })).toBeTruthy();
  });
});
