import {
  deleteAsnDatabase,
  deleteGeoDatabase,
  getAsnDatabase,
  getGeoDatabase,
  getL4AttackPageSetting,
  getSelf,
  putL4AttackPageSetting,
  tierPermissions,
  uploadAsnDatabase,
  uploadGeoDatabase,
} from '@rampart/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, ok, pageTestApi, selfInfo, signedInFakeApi } from '../../test/fake-api';
import { buttonByText, clickButton, findPopconfirm } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The operator's geo database page: its geo database (client/setting/geoDatabase) and ASN database
// (client/setting/asnDatabase) cards, against a fake API.
const api = pageTestApi(() => {
  const fake = signedInFakeApi('client');
  // The ASN card asks for its database whatever a test is about.
  fake.on(getAsnDatabase, ok(null));
  return fake;
});

const PAGE = '/client/systemManagement/geoDatabase';
const installed = {
  sha256: 'ab'.repeat(32),
  kind: 'city' as const,
  databaseType: 'GeoLite2-City',
  builtAt: '2026-03-01T00:00:00.000Z',
  ipVersion: 6,
  size: 62 * 1024 * 1024,
  cities: 123456,
  uploadedAt: '2026-03-02T10:00:00.000Z',
};
const asnInstalled = {
  sha256: 'cd'.repeat(32),
  databaseType: 'GeoLite2-ASN',
  builtAt: '2026-03-01T00:00:00.000Z',
  ipVersion: 6,
  size: 8 * 1024 * 1024,
  asns: 81234,
  uploadedAt: '2026-03-03T10:00:00.000Z',
};
const card = (slot: 'geo' | 'asn') => screen.getByTestId(`${slot}-database`);
const row = (label: string, slot: 'geo' | 'asn' = 'geo') =>
  within(card(slot)).getByText(label, { selector: 'th, th *' }).closest('tr')?.querySelector('td')?.textContent;

function choose(name: string, slot: 'geo' | 'asn' = 'geo') {
  const input = card(slot).querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File([new Uint8Array([1, 2, 3])], name)] } });
}

describe('the geo database page', () => {
  it('is in the menu, says when none is installed, and installs the chosen file as the part `file`', async () => {
    api.on(getGeoDatabase, ok(null));
    api.on(uploadGeoDatabase, ok(installed));
    renderAt(PAGE);
    expect(await screen.findByText(/No geo database installed/, undefined, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Geo database' }).getAttribute('href')).toBe(PAGE);
    expect(buttonByText('Install', card('geo')).disabled).toBe(true);
    choose('GeoLite2-City.mmdb');
    expect(await screen.findByText('GeoLite2-City.mmdb')).toBeTruthy();
    clickButton('Install', card('geo'));
    expect(await screen.findByText('Geo database installed')).toBeTruthy();
    const body = api.sent(uploadGeoDatabase)[0]?.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect((body.get('file') as File).name).toBe('GeoLite2-City.mmdb');
  });

  it('shows the installed database and removes it after the confirm', async () => {
    api.on(getGeoDatabase, ok(installed));
    api.on(deleteGeoDatabase, ok(true));
    renderAt(PAGE);
    expect(await screen.findByText('GeoLite2-City', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(row('Regions')).toBe('Countries and cities');
    expect(row('Size')).toBe('62.0 MiB');
    expect(row('Cities')).toBe('123456');
    clickButton('Remove', card('geo'));
    clickButton('OK', await findPopconfirm(/Remove the geo database\?/));
    await waitFor(() => expect(api.sent(deleteGeoDatabase)).toHaveLength(1));
  });

  it("shows the server's refusal of a file that is not a MaxMind DB", async () => {
    api.on(getGeoDatabase, ok(null));
    const fields = [
      { in: 'body', field: 'file', key: 'geoDatabaseFile', message: 'Not a MaxMind DB Country or City database: x' },
    ];
    api.on(uploadGeoDatabase, fail(400, 101003, 'Parameter Error', { fields }));
    renderAt(PAGE);
    await screen.findByText(/No geo database installed/, undefined, { timeout: 10_000 });
    choose('notes.txt');
    clickButton('Install', card('geo'));
    expect(await screen.findByText(/Not a MaxMind DB Country or City database: x/)).toBeTruthy();
  });

  it('offers no change without client.settings.write', async () => {
    const permissions = tierPermissions('client').filter((key) => key !== 'client.settings.write');
    api.on(getSelf, { auth: 'client' }, ok(selfInfo('client', { isRoot: false, permissions })));
    api.on(getGeoDatabase, ok(installed));
    renderAt(PAGE);
    expect(await screen.findByText('GeoLite2-City', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByText('Remove')).toBeNull();
    expect(document.querySelector('input[type="file"]')).toBeNull();
  });
});

describe('the ASN database card', () => {
  it('says when none is installed and installs the chosen file as the part `file` of its own call', async () => {
    api.on(getGeoDatabase, ok(installed));
    api.on(uploadAsnDatabase, ok(asnInstalled));
    renderAt(PAGE);
    expect(await screen.findByText(/No ASN database installed/, undefined, { timeout: 10_000 })).toBeTruthy();
    expect(within(card('asn')).getByText('ASN database')).toBeTruthy();
    expect(buttonByText('Install', card('asn')).disabled).toBe(true);
    choose('GeoLite2-ASN.mmdb', 'asn');
    expect(await within(card('asn')).findByText('GeoLite2-ASN.mmdb')).toBeTruthy();
    clickButton('Install', card('asn'));
    expect(await screen.findByText('ASN database installed')).toBeTruthy();
    const body = api.sent(uploadAsnDatabase)[0]?.body as FormData;
    expect((body.get('file') as File).name).toBe('GeoLite2-ASN.mmdb');
    expect(api.sent(uploadGeoDatabase)).toHaveLength(0);
  });

  it('shows the installed database and removes it after its own confirm', async () => {
    api.on(getGeoDatabase, ok(installed));
    api.on(getAsnDatabase, ok(asnInstalled));
    api.on(deleteAsnDatabase, ok(true));
    renderAt(PAGE);
    expect(await screen.findByText('GeoLite2-ASN', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(row('Autonomous systems', 'asn')).toBe('81234');
    expect(row('Size', 'asn')).toBe('8.0 MiB');
    expect(within(card('asn')).getByText(asnInstalled.sha256)).toBeTruthy();
    expect(buttonByText('Replace', card('asn'))).toBeTruthy();
    clickButton('Remove', card('asn'));
    clickButton('OK', await findPopconfirm(/Remove the ASN database\?/));
    await waitFor(() => expect(api.sent(deleteAsnDatabase)).toHaveLength(1));
    expect(api.sent(deleteGeoDatabase)).toHaveLength(0);
  });

  it("shows the server's refusal of a file without ASN records", async () => {
    api.on(getGeoDatabase, ok(null));
    const fields = [
      { in: 'body', field: 'file', key: 'asnDatabaseFile', message: 'Not a MaxMind DB ASN database: no record' },
    ];
    api.on(uploadAsnDatabase, fail(400, 101003, 'Parameter Error', { fields }));
    renderAt(PAGE);
    await screen.findByText(/No ASN database installed/, undefined, { timeout: 10_000 });
    choose('GeoLite2-City.mmdb', 'asn');
    clickButton('Install', card('asn'));
    expect(await screen.findByText(/Not a MaxMind DB ASN database: no record/)).toBeTruthy();
  });
});

describe("the operator's layer-4 attack page switch", () => {
  /** Renders the page with the switch answered `enabled`; answers the switch once it shows that. */
  async function l4Switch(enabled: boolean) {
    api.on(getGeoDatabase, ok(null));
    api.on(getL4AttackPageSetting, ok({ enabled }));
    renderAt(PAGE);
    const name = 'Show the layer-4 attack page to your customers';
    const toggle = await screen.findByRole('switch', { name }, { timeout: 10_000 });
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe(String(enabled)));
    return toggle;
  }

  it('shows the switch off by default and turns it on with a success toast', async () => {
    api.on(putL4AttackPageSetting, ok({ enabled: true }));
    const toggle = await l4Switch(false);
    // Answered on from now on, as the server would after the change.
    api.on(getL4AttackPageSetting, ok({ enabled: true }));
    fireEvent.click(toggle);
    await waitFor(() => expect(api.sent(putL4AttackPageSetting)[0]?.body).toEqual({ enabled: true }));
    expect(await screen.findByText('SET SUCCESS')).toBeTruthy();
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
  });

  it('turns it off again', async () => {
    api.on(putL4AttackPageSetting, ok({ enabled: false }));
    fireEvent.click(await l4Switch(true));
    await waitFor(() => expect(api.sent(putL4AttackPageSetting)[0]?.body).toEqual({ enabled: false }));
  });

  it('is read-only for a sub-account without the settings write key', async () => {
    const permissions = tierPermissions('client').filter((key) => key !== 'client.settings.write');
    api.on(getSelf, { auth: 'client' }, ok(selfInfo('client', { isRoot: false, permissions })));
    expect((await l4Switch(true)).hasAttribute('disabled')).toBe(true);
  });
});
