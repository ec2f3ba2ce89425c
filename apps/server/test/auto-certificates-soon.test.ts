import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createDomains,
  listAutoCertificates,
  saveAcmeSetting,
  setDomainsAutoSSL,
  updateDomain,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendAs } from './helpers/call.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// A domain turned to auto SSL is tried at once, not at the job's next tick (an hour here). The
// operator's CA is a loopback server without an ACME directory, so the attempt fails at once and
// says so: the attempt is what is checked, not the certificate (auto-certificates.test.ts issues
// with pebble).

describe('automatic certificates, turned on', () => {
  let t: TestApp;
  let fx: SiteFixture;
  let ids: number[];
  let ca: http.Server;

  beforeAll(async () => {
    t = await createTestApp({
      config: { autoCert: { timing: { tickMs: 3_600_000, settleMs: 0, retryBaseMs: 60_000, retryMaxMs: 3_600_000 } } },
    });
    fx = await siteFixture(t);
    // The operator's CA: a loopback server that has no ACME directory (every request answers 404).
    ca = http.createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => ca.listen(0, '127.0.0.1', resolve));
    const saved = await fx.call(saveAcmeSetting, {
      body: {
        ca: 'custom',
        directoryUrl: `http://127.0.0.1:${(ca.address() as AddressInfo).port}/dir`,
        caBundle: '',
        email: '',
      },
    });
    expect(saved.statusCode).toBe(200);
    ids = await fx.addDomains(['soon.example.com', 'later.example.com']);
  });

  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => ca?.close(resolve));
  });

  const rows = async () =>
    (await sendAs(t.app, fx.client, listAutoCertificates, { query: {} })).json().data as {
      domain: string;
      status: string;
      lastAttemptAt: string | null;
      lastError: string;
    }[];

  /**
   * The names tried (failed: the CA has no directory), once `names` all were or 60 s passed: "soon"
   * is against the job's tick, an hour here (a loaded CI run took over 15 s for the third name).
   */
  const triedSoon = async (names: string[]) => {
    const deadline = Date.now() + 60_000;
    let seen = await rows();
    const failed = () => seen.filter((r) => r.status === 'failed');
    while (failed().length < names.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await rows();
    }
    for (const row of failed()) expect(row.lastError).toMatch(/404/);
    return failed()
      .map((r) => r.domain)
      .sort();
  };

  it('tries a domain as soon as auto SSL is turned on, and only that one', async () => {
    const on = await sendAs(t.app, fx.user, setDomainsAutoSSL, {
      params: { siteId: fx.siteId },
      body: { domainIDs: [ids[0] as number], autoSSL: true },
    });
    expect(on.statusCode).toBe(200);
    expect(await triedSoon(['soon.example.com'])).toEqual(['soon.example.com']);
  }, 90_000);

  it('tries a domain edited to auto SSL, and one added with it, as soon', async () => {
    const edited = await sendAs(t.app, fx.user, updateDomain, {
      params: { siteId: fx.siteId },
      body: { id: ids[1] as number, upstreams: [{ ip: '127.0.0.1', port: 8080 }], autoSSL: true },
    });
    expect(edited.statusCode).toBe(200);
    const added = await sendAs(t.app, fx.user, createDomains, {
      params: { siteId: fx.siteId },
      body: { domains: [{ name: 'new.example.com', upstreams: [{ ip: '127.0.0.1', port: 8080 }], autoSSL: true }] },
    });
    expect(added.statusCode).toBe(200);
    expect(await triedSoon(['later.example.com', 'new.example.com', 'soon.example.com'])).toEqual([
      'later.example.com',
      'new.example.com',
      'soon.example.com',
    ]);
  }, 90_000);
});
