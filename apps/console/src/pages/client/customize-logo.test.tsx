import { createLogo, deleteLogo, listLogos, updateLogo } from '@rampart/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, ok, okPage, pageTestApi, signedInFakeApi } from '../../test/fake-api';
import { clickButton, findPopconfirm, typeInto } from '../../test/queries';
import { renderAt } from '../../test/render-app';

// The operator's logo page, rendered in jsdom against a fake API.
const api = pageTestApi(() => signedInFakeApi('client'));
const PAGE = '/client/userManagement/customizeLogo';
const PNG_URL = 'data:image/png;base64,iVBORw0KGgo=';
const current = {
  id: 3,
  operator: 'acme',
  title: 'Acme CDN',
  subTitle: '',
  description: '',
  copyright: '',
  version: '',
  backgroundImage: '',
  favicon: '',
  logo: PNG_URL,
  sidebarLogo: PNG_URL,
  sidebarSimpleLogo: '',
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:preview');
  URL.revokeObjectURL = vi.fn();
});

function chooseFile(label: string, file: File) {
  fireEvent.change(screen.getByLabelText(label), { target: { files: [file] } });
}

describe('customizeLogo', () => {
  it('is in the menu, previews the stored images and sends a change as form data', async () => {
    api.on(listLogos, okPage([current]));
    api.on(updateLogo, ok({ ...current, title: 'Acme Edge', sidebarLogo: '' }));
    renderAt(PAGE);
    await waitFor(() => expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Acme CDN'));
    expect((await screen.findByRole('link', { name: 'Logo' })).getAttribute('href')).toBe(PAGE);
    expect(screen.getByAltText('Logo').getAttribute('src')).toBe(PNG_URL);
    expect(screen.getByText(/\/user\/login\?operator=acme$/)).toBeTruthy();

    typeInto(document.body, 'Title', 'Acme Edge');
    const favicon = new File([new Uint8Array([0, 0, 1, 0])], 'favicon.ico', { type: 'image/x-icon' });
    chooseFile('Favicon', favicon);
    expect(screen.getByAltText('Favicon').getAttribute('src')).toBe('blob:preview');
    const sidebar = screen.getByAltText('Sidebar logo').closest('.ant-card') as HTMLElement;
    clickButton('Remove', sidebar);
    clickButton('Save');

    await waitFor(() => expect(api.sent(updateLogo)).toHaveLength(1));
    const body = api.sent(updateLogo)[0]?.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get('title')).toBe('Acme Edge');
    expect(body.get('reset')).toBe('sidebarLogo');
    expect((body.get('favicon') as File).name).toBe('favicon.ico');
    expect(body.get('logo')).toBeNull(); // not chosen: the stored one stays
    expect(await screen.findByText('Logo saved')).toBeTruthy();
  });

  it('creates the first logo set with POST and shows the server refusing a file', async () => {
    api.on(listLogos, okPage([]));
    api.on(createLogo, () =>
      fail(400, 101003, 'Parameter Error', {
        fields: [{ in: 'body', field: 'logo', key: 'fileType', message: 'Only PNG, JPEG, GIF, WebP or ICO images' }],
      }),
    );
    renderAt(PAGE);
    await waitFor(() => expect(screen.getAllByText('No image')).toHaveLength(5), { timeout: 10_000 });
    expect(screen.getByRole('button', { name: /Reset to defaults/ }).hasAttribute('disabled')).toBe(true);
    chooseFile('Logo', new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
    clickButton('Save');
    await waitFor(() => expect(api.sent(createLogo)).toHaveLength(1));
    expect(await screen.findByText(/Only PNG, JPEG, GIF, WebP or ICO images/)).toBeTruthy();
  });

  it('resets to the defaults by deleting the logo set', async () => {
    api.on(listLogos, okPage([current]));
    api.on(deleteLogo, ok(true));
    renderAt(PAGE);
    await waitFor(() => expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Acme CDN'));
    clickButton('Reset to defaults');
    clickButton('Delete', await findPopconfirm(/Remove your logo and texts\?/));
    await waitFor(() => expect(api.sent(deleteLogo)).toHaveLength(1));
    expect(await screen.findByText('Delete Success!')).toBeTruthy();
  });
});
