import {
  type ClientDomain,
  clientDomainStates,
  clientDomainTags,
  listClientDomains,
  metaSites,
} from '@rampart/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApiForEachTest, ok, okPage, signedInFakeApi } from '../../test/fake-api';
import { findRow } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The operator's list of every customer's domains wears the customer's state badges, from the
// operator's own call for the ids of the page.
vi.setConfig({ testTimeout: 20_000 });

const LIST = '/client/sitesManagement/domains';
const domain = (id: number, name: string, status: 0 | 1): ClientDomain => ({
  id,
  name,
  siteID: id < 20 ? 1 : 2,
  siteName: id < 20 ? 'shop' : 'blog',
  userAccount: id < 20 ? 'bob' : 'carol',
  status,
  tags: [],
  createdAt: '2026-03-01T10:00:00.000Z',
});
const state = (id: number, over: Partial<Record<string, number | boolean>> = {}) => ({
  id,
  served: true,
  nodesServing: 2,
  nodesOfZone: 2,
  nodesWithoutPlane: 0,
  originRequests: 0,
  originErrors: 0,
  originDown: false,
  ...over,
});

const api = fakeApiForEachTest(() => signedInFakeApi('client'));
beforeEach(() => {
  api.on(metaSites, ok([]));
  api.on(clientDomainTags, ok([]));
  api.on(
    listClientDomains,
    okPage([
      domain(11, 'www.shop.example', 1),
      domain(12, 'off.shop.example', 0),
      domain(21, 'www.blog.example', 1),
      domain(22, 'old.blog.example', 1),
    ]),
  );
  api.on(
    clientDomainStates,
    ok([
      state(11),
      state(12, { served: false, nodesServing: 0 }),
      state(21, { originRequests: 8, originErrors: 6, originDown: true }),
      state(22, { nodesServing: 1, nodesOfZone: 1, nodesWithoutPlane: 2 }),
    ]),
  );
});

describe('domains (operator): states at a glance', () => {
  const nodes = async (name: string) => within(await findRow(name)).queryByLabelText(`Nodes serving ${name}`);

  it("asks for the page's domains only and shows the nodes serving each served domain", async () => {
    renderAt(LIST);
    expect(
      (await within(await findRow('www.shop.example')).findByLabelText('Nodes serving www.shop.example')).textContent,
    ).toBe('2/2 nodes');
    expect(api.sent(clientDomainStates).at(-1)?.search.getAll('ids')).toEqual(['11', '12', '21', '22']);
    // A domain the edge does not serve wears no node count.
    expect(await nodes('off.shop.example')).toBeNull();
  });

  it('says how many nodes report no plane, apart from the count', async () => {
    renderAt(LIST);
    const badge = await within(await findRow('old.blog.example')).findByLabelText('Nodes serving old.blog.example');
    expect(badge.textContent).toBe('1/1 nodes');
    fireEvent.mouseEnter(badge);
    expect(await screen.findByText(/2 more nodes of its zone report no plane/)).toBeTruthy();
  });

  it("marks a customer's domain whose origin is failing, with the counts on hover", async () => {
    renderAt(LIST);
    const badge = await within(await findRow('www.blog.example')).findByLabelText('Origin state of www.blog.example');
    expect(badge.textContent).toBe('Origin down');
    expect(within(await findRow('www.shop.example')).queryByLabelText('Origin state of www.shop.example')).toBeNull();
    fireEvent.mouseEnter(badge);
    expect(await screen.findByText(/In the last 5 minutes 6 of 8 requests to the origin failed/)).toBeTruthy();
  });
});
