import { domainStates, userDomainsTags } from '@rampart/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, ok, restoreFakeApi, signedInFakeApi } from '../../test/fake-api';
import { SITE_SETTING as SETTING, siteDomain, stubSitePage, userSite } from '../../test/fixtures';
import { findRow } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// Whole-console renders in jsdom: the first one of a file loads antd's modules (seconds).
vi.setConfig({ testTimeout: 20_000 });

let api: FakeApi;
const state = (id: number, over: Partial<Record<string, number | boolean>> = {}) => ({
  id,
  served: true,
  nodesServing: 3,
  nodesOfZone: 3,
  nodesWithoutPlane: 0,
  originRequests: 0,
  originErrors: 0,
  originDown: false,
  ...over,
});

afterEach(() => restoreFakeApi());

describe('sitesSetting: domain states at a glance', () => {
  beforeEach(() => {
    api = signedInFakeApi('user');
    api.on(userDomainsTags, ok([]));
    stubSitePage(
      api,
      [
        siteDomain({ id: 1, name: 'all.example.com', proofStatus: 1 }),
        siteDomain({ id: 2, name: 'some.example.com', proofStatus: 1 }),
        siteDomain({ id: 3, name: 'down.example.com', proofStatus: 1 }),
        siteDomain({ id: 4, name: 'waiting.example.com', proofStatus: 0 }),
      ],
      userSite(),
    );
    api.on(
      domainStates,
      { siteId: 3 },
      ok([
        state(1),
        state(2, { nodesServing: 1 }),
        state(3, { originRequests: 12, originErrors: 9, originDown: true }),
        state(4, { served: false, nodesServing: 0 }),
      ]),
    );
  });

  it("shows by how many of its zone's nodes each served domain is served, and asks for the page's domains only", async () => {
    renderAt(SETTING);
    const nodes = async (name: string) => within(await findRow(name)).queryByLabelText(`Nodes serving ${name}`);
    expect(
      (await within(await findRow('all.example.com')).findByLabelText('Nodes serving all.example.com')).textContent,
    ).toBe('3/3 nodes');
    expect((await nodes('some.example.com'))?.textContent).toBe('1/3 nodes');
    // A domain waiting for proof says so; no node count beside it.
    expect(await nodes('waiting.example.com')).toBeNull();
    expect(api.sent(domainStates, { siteId: 3 }).at(-1)?.search.getAll('ids')).toEqual(['1', '2', '3', '4']);
    fireEvent.mouseEnter((await nodes('some.example.com')) as HTMLElement);
    expect(await screen.findByText(/Served by 1 of the 3 nodes of its zone/)).toBeTruthy();
  });

  it('marks the domain whose origin is failing, with the counts and the cause on hover', async () => {
    renderAt(SETTING);
    const row = await findRow('down.example.com');
    const badge = await within(row).findByLabelText('Origin state of down.example.com');
    expect(badge.textContent).toBe('Origin down');
    expect(within(await findRow('all.example.com')).queryByLabelText('Origin state of all.example.com')).toBeNull();
    fireEvent.mouseEnter(badge);
    expect(
      await screen.findByText(/In the last 5 minutes 9 of 12 requests to the origin failed: the origin answered 5xx/),
    ).toBeTruthy();
  });
});
