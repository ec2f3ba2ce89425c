import { deleteGeoDatabase, getGeoDatabase, getSelf, tierPermissions, uploadGeoDatabase } from '@rampart/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fail, fakeApiForEachTest, ok, selfInfo, signedInFakeApi } from '../../test/fake-api';
import { buttonByText, clickButton, findPopconfirm } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The operator's geo database page (client/setting/geoDatabase), against a fake API.
vi.setConfig({ testTimeout: 20_000 });

const api = fakeApiForEachTest(() => signedInFakeApi('client'));

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
const row = (label: string) =>
  screen.getByText(label, { selector: 'th, th *' }).closest('tr')?.querySelector('td')?.textContent;

function choose(name: string) {
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File([new Uint8Array([1, 2, 3])], name)] } });
}

describe('the geo database page', () => {
  it('is in the menu, says when none is installed, and installs the chosen file as the part `file`', async () => {
    api.on(getGeoDatabase, ok(null));
    api.on(uploadGeoDatabase, ok(installed));
    renderAt(PAGE);
    expect(await screen.findByText(/No geo database installed/, undefined, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Geo database' }).getAttribute('href')).toBe(PAGE);
    expect(buttonByText('Install').disabled).toBe(true);
    choose('GeoLite2-City.mmdb');
    expect(await screen.findByText('GeoLite2-City.mmdb')).toBeTruthy();
    clickButton('Install');
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
    clickButton('Remove');
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
    clickButton('Install');
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
