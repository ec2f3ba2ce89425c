import { metaUserSites, networkStatisticsRoutes as n, userDomainsMeta, userDomainsTags } from '@rampart/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, ok, restoreFakeApi, signedInFakeApi } from '../../test/fake-api';
import { renderAt } from '../../test/render-app';

// The layer-4 attack page's ASN top (user/statistics/network/outcomes/asns/tops), against a fake API.
vi.mock('../../features/statistics/EChartView', () => ({
  default: ({ label }: { label: string }) => <div data-testid="echart" role="img" aria-label={label} />,
}));
vi.setConfig({ testTimeout: 30_000 });

const PAGE = '/user/dataAnalysis/l4AttackAnalysis';
const sum = { passBits: 0, dropBits: 8000, passPackets: 0, dropPackets: 10 };
let api: FakeApi;

beforeEach(() => {
  api = signedInFakeApi('user');
  api.on(metaUserSites, ok([{ id: 3, name: 'shop' }]));
  api.on(userDomainsMeta, ok([]));
  api.on(userDomainsTags, ok([]));
});
afterEach(() => restoreFakeApi());

describe('dataAnalysis/l4AttackAnalysis', () => {
  it("names each ASN with the organisation the operator's ASN database gives, and 0 as unknown", async () => {
    api.on(
      n.userNetworkAsnsTops,
      ok([
        { key: '13335', name: 'Cloudflare, Inc.', ...sum },
        { key: '0', ...sum },
        { key: '64500', ...sum },
      ]),
    );
    renderAt(PAGE);
    const top = await screen.findByTestId('network-top-asn', {}, { timeout: 10_000 });
    expect(await within(top).findByText('AS13335 Cloudflare, Inc.')).toBeTruthy();
    expect(within(top).getByText('Unknown')).toBeTruthy();
    // Without a name (the database names none): the number alone.
    expect(within(top).getByText('AS64500')).toBeTruthy();
  });
});
