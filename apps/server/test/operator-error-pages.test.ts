import { getOperatorErrorPages, saveOperatorErrorPages } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOtherOperator } from './helpers/accounts.js';
import { fieldNames, rawInput, sendAs, type Token } from './helpers/call.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// The operator's default error pages (client/setting/errorPages, contract routes/system-settings.ts):
// validated, kept per operator, and carried once in its nodes' snapshots as `dataPlane.errorPages`,
// which the edge serves when a site has no page of its own (apps/edge/test/operator-pages.test.ts).
let t: TestApp;
let fx: SiteFixture;
let rival: Token;

beforeAll(async () => {
  t = await createTestApp();
  fx = await siteFixture(t);
  rival = await signInOtherOperator(t.app);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('client/setting/errorPages', () => {
  it('has none until set, and the snapshot carries none', async () => {
    expect((await fx.call(getOperatorErrorPages)).json()).toEqual({ data: { pages: [] } });
    expect((await fx.snapshot()).dataPlane.errorPages).toBeUndefined();
  });

  it("saves the set (sorted by status) and the operator's nodes get it; another operator's is its own", async () => {
    const saved = await fx.call(saveOperatorErrorPages, {
      body: {
        pages: [
          { status: 929, body: '<h1>Slow down</h1>' },
          { status: 404, body: '<h1>Not here</h1><script>alert(1)</script>' },
        ],
      },
    });
    expect(saved.json()).toEqual({
      data: {
        pages: [
          { status: 404, body: '<h1>Not here</h1><script>alert(1)</script>' },
          { status: 929, body: '<h1>Slow down</h1>' },
        ],
      },
    });
    // The body is data for the edge to send, as it was given: nowhere but the data plane's `errorPages`.
    const snapshot = await fx.snapshot();
    expect(snapshot.dataPlane.errorPages).toEqual(saved.json().data.pages);
    const { dataPlane, ...rest } = snapshot;
    const { errorPages: _pages, ...otherData } = dataPlane;
    expect(JSON.stringify([rest, otherData])).not.toContain('Slow down');

    expect((await sendAs(t.app, rival, getOperatorErrorPages)).json()).toEqual({ data: { pages: [] } });
    await sendAs(t.app, rival, saveOperatorErrorPages, { body: { pages: [{ status: 502, body: 'rival' }] } });
    expect((await fx.snapshot()).dataPlane.errorPages).toEqual(saved.json().data.pages);
    expect((await sendAs(t.app, fx.user, getOperatorErrorPages)).json().code).toBe(101018);
  });

  it('refuses statuses the edge does not answer, twice the same, empty and oversized pages', async () => {
    const bad = await fx.call(
      saveOperatorErrorPages,
      rawInput({
        body: {
          pages: [
            { status: 200, body: 'ok' },
            { status: 403, body: '' },
            { status: 404, body: 'x'.repeat(64 * 1024 + 1) },
            { status: 502, body: 'a' },
            { status: 502, body: 'b' },
          ],
        },
      }),
    );
    expect(bad.json().code).toBe(101003);
    expect(fieldNames(bad)).toEqual(['pages.0.status', 'pages.1.body', 'pages.2.body', 'pages.4.status']);
    // Each page may be 64 KiB, all of them together 256 KiB.
    const pages = [400, 403, 404, 405, 429].map((status) => ({ status, body: 'x'.repeat(60_000) }));
    const tooMuch = await fx.call(saveOperatorErrorPages, { body: { pages } });
    expect(fieldNames(tooMuch)).toEqual(['pages']);
    // Nothing was stored by the refusals.
    expect((await fx.call(getOperatorErrorPages)).json().data.pages.map((p) => p.status)).toEqual([404, 929]);
  });

  it('removes them all with an empty set', async () => {
    await fx.call(saveOperatorErrorPages, { body: { pages: [] } });
    expect((await fx.snapshot()).dataPlane.errorPages).toBeUndefined();
  });
});
