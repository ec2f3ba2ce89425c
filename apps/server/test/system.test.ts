import { health, logo } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsRepository } from '../src/platform/settings/settings.repository.js';
import { rawInput, send } from './helpers/call.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { TEST_DB_KIND } from './helpers/test-db.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('GET /api/v1/health', () => {
  it('reports the config store and this installation', async () => {
    const res = await send(t.app, health, undefined);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ status: 'ok', database: TEST_DB_KIND, databaseOk: true, version: 'test' });
    expect(data.instanceId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('GET /api/v1/{auth}/logo', () => {
  it.each(['user', 'client', 'admin'] as const)(
    'gives the default branding to the %s console without a token',
    async (auth) => {
      const res = await send(t.app, logo, { params: { auth } });
      expect(res.statusCode).toBe(200);
      const { data } = res.json();
      expect(data.title).toBe('Rampart');
      expect(data.copyright).toMatch(/Rampart/);
      for (const image of ['logo', 'favicon', 'backgroundImage', 'sidebarLogo', 'sidebarSimpleLogo'] as const)
        expect(data[image]).toBe('');
    },
  );

  it('uses what is stored for the fields the operator set', async () => {
    await new SettingsRepository(t.db.database.db).put('branding', {
      title: 'Acme CDN',
      logo: 'data:image/png;base64,AA==',
    });
    const { data } = (await send(t.app, logo, { params: { auth: 'user' } })).json();
    expect(data).toMatchObject({ title: 'Acme CDN', logo: 'data:image/png;base64,AA==', favicon: '' });
  });

  it('rejects an unknown console kind with 101003 naming the auth parameter', async () => {
    const res = await send(t.app, logo, rawInput({ params: { auth: 'root' } }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 101003,
      extra: { fields: [{ in: 'params', field: 'auth', key: 'invalidValue' }] },
    });
  });
});
