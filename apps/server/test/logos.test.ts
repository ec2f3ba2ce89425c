import { createLogo, deleteLogo, listLogos, logo, type RouteInput, type Tier, updateLogo } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOtherOperator } from './helpers/accounts.js';
import { signIn } from './helpers/auth.js';
import { rawRequest, send } from './helpers/call.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let operator: { accessToken: string };
let rival: { accessToken: string };
let customer: { accessToken: string };
beforeAll(async () => {
  t = await createTestApp();
  operator = await signIn(t.app, 'client');
  rival = await signInOtherOperator(t.app, 'rival');
  customer = await signIn(t.app, 'user');
});
afterAll(async () => t.close());

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(20)]);
const ICO = Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0]), Buffer.alloc(16, 1)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const dataUrl = (mime: string, data: Buffer) => `data:${mime};base64,${data.toString('base64')}`;

type Part = string | { data: Buffer; filename?: string; type?: string };

/** A form-data call as a browser makes it (the file's claimed type is whatever the caller says). */
async function upload(method: 'POST' | 'PUT', parts: Record<string, Part>, tokens = operator) {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([value.data], { type: value.type ?? 'image/png' }), value.filename ?? 'f.png');
  }
  const request = new Request('http://x/', { method: 'POST', body: form });
  const payload = Buffer.from(await request.arrayBuffer());
  return rawRequest(
    t.app,
    method === 'POST' ? createLogo : updateLogo,
    { payload },
    { token: tokens, headers: { 'content-type': request.headers.get('content-type') ?? '' } },
  );
}

async function publicLogo(tier: Tier, query: RouteInput<typeof logo>['query'] = {}) {
  const res = await send(t.app, logo, { params: { auth: tier }, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Record<string, string>;
}

function fieldsOf(res: { statusCode: number; json(): { code: number; extra?: { fields?: unknown[] } } }) {
  expect(res.statusCode).toBe(400);
  expect(res.json().code).toBe(101003);
  return (res.json().extra?.fields ?? []) as { field: string; key: string; message: string }[];
}

describe('operator logos', () => {
  it('serves the defaults without a token while no operator set a logo', async () => {
    const logo = await publicLogo('user');
    expect(logo).toMatchObject({ title: 'Rampart', logo: '', favicon: '', backgroundImage: '' });
    expect(logo.copyright).toContain('Rampart');
    expect((await send(t.app, listLogos, undefined, { token: operator })).json()).toEqual({ data: [], total: 0 });
  });

  it('refuses files by their magic bytes, whatever their name and claimed type, and stores nothing', async () => {
    const res = await upload('POST', {
      title: 'Acme',
      logo: { data: SVG, filename: 'logo.png', type: 'image/png' },
      favicon: { data: Buffer.from('not an icon at all'), filename: 'favicon.ico', type: 'image/x-icon' },
    });
    const fields = fieldsOf(res);
    expect(fields.map((f) => [f.field, f.key]).sort()).toEqual([
      ['favicon', 'fileType'],
      ['logo', 'fileType'],
    ]);
    expect((await send(t.app, listLogos, undefined, { token: operator })).json().total).toBe(0);
  });

  it('refuses a file over its slot limit (in range of the parser and beyond it)', async () => {
    const bigFavicon = Buffer.concat([PNG, Buffer.alloc(128 * 1024)]);
    const hugeBackground = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 + 10)]);
    const fields = fieldsOf(
      await upload('POST', { favicon: { data: bigFavicon }, backgroundImage: { data: hugeBackground } }),
    );
    expect(fields.map((f) => [f.field, f.key]).sort()).toEqual([
      ['backgroundImage', 'fileTooLarge'],
      ['favicon', 'fileTooLarge'],
    ]);
    expect(fields.find((f) => f.field === 'favicon')?.message).toContain('128 KiB');
    expect((await send(t.app, listLogos, undefined, { token: operator })).json().total).toBe(0);
  });

  it('validates the texts, file parts in unknown slots and the reset list with field names', async () => {
    const fields = fieldsOf(
      await upload('POST', { title: 'x'.repeat(257), banner: { data: PNG }, logo: 'text, not a file', reset: 'nope' }),
    );
    expect(fields.map((f) => [f.field, f.key]).sort()).toEqual([['title', 'tooLong']]);
    const later = fieldsOf(await upload('POST', { banner: { data: PNG }, logo: 'text, not a file', reset: 'nope' }));
    expect(later.map((f) => [f.field, f.key]).sort()).toEqual([
      ['banner', 'invalidValue'],
      ['logo', 'wrongFormat'],
      ['reset', 'invalidValue'],
    ]);
  });

  it('creates the logo set and serves it to the login pages of its customers without a token', async () => {
    const res = await upload('POST', {
      title: ' Acme CDN ',
      subTitle: 'Fast',
      logo: { data: PNG },
      favicon: { data: ICO, filename: 'favicon.ico', type: 'image/x-icon' },
      sidebarLogo: { data: GIF, filename: 's.gif', type: 'application/octet-stream' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      operator: 'client',
      title: 'Acme CDN',
      subTitle: 'Fast',
      logo: dataUrl('image/png', PNG),
      favicon: dataUrl('image/x-icon', ICO),
      sidebarLogo: dataUrl('image/gif', GIF),
      backgroundImage: '',
    });
    const list = (await send(t.app, listLogos, undefined, { token: operator })).json();
    expect(list.total).toBe(1);
    expect(list.data[0]).toMatchObject({ title: 'Acme CDN', logo: dataUrl('image/png', PNG) });

    for (const query of [{}, { operator: 'client' }]) {
      const shown = await publicLogo('user', query);
      expect(shown).toMatchObject({ title: 'Acme CDN', subTitle: 'Fast', logo: dataUrl('image/png', PNG) });
      expect(shown.copyright).toContain('Rampart'); // left empty: the default
    }
    expect((await publicLogo('client')).title).toBe('Acme CDN');
    // The vendor console keeps the installation's branding; an unknown operator gets the defaults.
    expect((await publicLogo('admin')).title).toBe('Rampart');
    expect(await publicLogo('user', { operator: 'nobody' })).toMatchObject({ title: 'Rampart', logo: '' });
    expect(await upload('POST', { title: 'again' })).toMatchObject({ statusCode: 409 });
    expect((await upload('POST', { title: 'again' })).json().code).toBe(101025);
  });

  it('changes parts sent, keeps the others, and empties the slots named in reset', async () => {
    const res = await upload('PUT', { description: 'Our CDN', reset: 'favicon, sidebarLogo', logo: { data: GIF } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      title: 'Acme CDN',
      description: 'Our CDN',
      favicon: '',
      sidebarLogo: '',
      logo: dataUrl('image/gif', GIF),
    });
    const bad = fieldsOf(await upload('PUT', { logo: { data: SVG, type: 'image/svg+xml', filename: 'l.svg' } }));
    expect(bad).toMatchObject([{ field: 'logo', key: 'fileType' }]);
    expect((await publicLogo('user')).logo).toBe(dataUrl('image/gif', GIF));
  });

  it('keeps operators apart: another operator neither sees nor changes the logo set, and has its own', async () => {
    expect((await send(t.app, listLogos, undefined, { token: rival })).json()).toEqual({ data: [], total: 0 });
    const put = await upload('PUT', { title: 'stolen' }, rival);
    expect(put.json().code).toBe(101018);
    expect((await send(t.app, deleteLogo, undefined, { token: rival })).json().code).toBe(101018);
    expect((await upload('POST', { title: 'Rival Net', logo: { data: PNG } }, rival)).statusCode).toBe(200);
    expect((await publicLogo('user', { operator: 'rival' })).title).toBe('Rival Net');
    expect((await publicLogo('user')).title).toBe('Acme CDN');
    expect((await send(t.app, listLogos, undefined, { token: operator })).json().data[0].title).toBe('Acme CDN');
    // A customer's token is not the operator's.
    expect((await send(t.app, listLogos, undefined, { token: customer })).json().code).toBe(101018);
    expect((await send(t.app, listLogos, undefined)).json().code).toBe(101013);
  });

  it('deletes the logo set: the login pages show the defaults again', async () => {
    const res = await send(t.app, deleteLogo, undefined, { token: operator });
    expect(res.json()).toEqual({ data: true });
    expect(await publicLogo('user')).toMatchObject({ title: 'Rampart', logo: '' });
    expect((await send(t.app, deleteLogo, undefined, { token: operator })).json().code).toBe(101018);
    expect((await upload('PUT', { title: 'x' })).json().code).toBe(101018);
  });
});
