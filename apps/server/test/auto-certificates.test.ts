import { X509Certificate } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  getAcmeSetting,
  getZeroSSLSetting,
  listAutoCertificates,
  listDomains,
  renewAutoCertificates,
  saveAcmeSetting,
  saveGoogleTrustSetting,
  saveOutgoingUrlSetting,
  saveZeroSSLSetting,
  setDomainsAutoSSL,
} from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootId, signInOtherOperator } from './helpers/accounts.js';
import { fieldNames, rawInput, sendAs, type Token } from './helpers/call.js';
import { type DnsServer, startDnsServer } from './helpers/dns-server.js';
import { type Pebble, startPebble } from './helpers/pebble.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Automatic certificates (client/autoCertificates, client/setting/acme|zeroSSL|googleTrust) issued
// by a real ACME CA, Debian's pebble, over HTTP-01. Pebble resolves the names through a real DNS
// server (BIND) and fetches the challenge from an HTTP responder that answers only what the node's
// snapshot carries (`acmeChallenges`): the data the edge answers from (apps/edge tests run the real
// edge nginx on it).

const RETRY_BASE_MS = 60_000;

describe('automatic certificates', () => {
  let t: TestApp;
  let fx: SiteFixture;
  let dns: DnsServer;
  let pebble: Pebble;
  let responder: http.Server;
  let rival: Token;
  const served: string[] = [];
  let shopId = 0;
  let lostId = 0;

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        autoCert: {
          timing: { tickMs: 0, settleMs: 0, retryBaseMs: RETRY_BASE_MS, retryMaxMs: 3_600_000 },
          acmePolling: { backoffMin: 100, backoffMax: 500, backoffAttempts: 30 },
        },
      },
    });
    fx = await siteFixture(t);
    // What a node answers on port 80: the key authorization its snapshot carries for host and token.
    responder = http.createServer((req, res) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '');
      const token = /^\/\.well-known\/acme-challenge\/([^/]+)$/.exec(req.url ?? '')?.[1];
      fx.snapshot().then(
        (snapshot) => {
          const found = snapshot.dataPlane.acmeChallenges?.find((c) => c.host === host && c.token === token);
          if (!found) {
            res.writeHead(404).end();
            return;
          }
          served.push(host);
          res.writeHead(200, { 'content-type': 'text/plain' }).end(found.keyAuthorization);
        },
        () => res.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve) => responder.listen(0, '127.0.0.1', resolve));
    dns = await startDnsServer({
      'example.com': ['shop IN A 127.0.0.1', 'lost IN A 127.0.0.2'],
    });
    pebble = await startPebble({ httpPort: (responder.address() as AddressInfo).port, dnsServer: dns.address });
    rival = await signInOtherOperator(t.app);
    [shopId, lostId] = (await fx.addDomains(['shop.example.com', 'lost.example.com'])) as [number, number];
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await pebble?.stop();
    await dns?.stop();
    await new Promise((resolve) => responder?.close(resolve));
  });

  const list = async (query: Record<string, unknown> = {}, token: Token = fx.client) => {
    const res = await sendAs(t.app, token, listAutoCertificates, { query: query as never });
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it("keeps the operator's CA: Let's Encrypt until set, a custom directory with its CA bundle", async () => {
    expect((await fx.call(getAcmeSetting)).json().data).toEqual({
      ca: 'letsEncrypt',
      directoryUrl: '',
      caBundle: '',
      email: '',
    });
    const missing = await fx.call(saveAcmeSetting, rawInput({ body: { ca: 'custom' } }));
    expect(missing.json().code).toBe(101003);
    expect(fieldNames(missing)).toEqual(['directoryUrl']);
    const badBundle = await fx.call(
      saveAcmeSetting,
      rawInput({ body: { ca: 'custom', directoryUrl: pebble.directoryUrl, caBundle: 'not a pem' } }),
    );
    expect(fieldNames(badBundle)).toEqual(['caBundle']);
    const saved = await fx.call(saveAcmeSetting, {
      body: { ca: 'custom', directoryUrl: pebble.directoryUrl, caBundle: pebble.caBundle, email: 'ops@example.com' },
    });
    expect(saved.statusCode).toBe(200);
    expect((await fx.call(getAcmeSetting)).json().data.directoryUrl).toBe(pebble.directoryUrl);
    // Another operator's setting is its own.
    expect((await sendAs(t.app, rival, getAcmeSetting)).json().data.ca).toBe('letsEncrypt');
  });

  it('keeps EAB credentials with a write-only HMAC key', async () => {
    expect((await fx.call(getZeroSSLSetting)).json().data).toBeNull();
    const noKey = await fx.call(saveZeroSSLSetting, { body: { kid: 'kid-1' } });
    expect(noKey.json().code).toBe(101003);
    expect(fieldNames(noKey)).toEqual(['hmacKey']);
    expect((await fx.call(saveZeroSSLSetting, { body: { kid: 'kid-1', hmacKey: 'c2VjcmV0LWtleQ' } })).statusCode).toBe(
      200,
    );
    // Left out: kept.
    const kept = await fx.call(saveZeroSSLSetting, { body: { kid: 'kid-2' } });
    expect(kept.json().data).toEqual({ kid: 'kid-2', hasHmacKey: true });
    expect(JSON.stringify((await fx.call(getZeroSSLSetting)).json())).not.toContain('c2VjcmV0');
    const bad = await fx.call(saveGoogleTrustSetting, rawInput({ body: { kid: '', hmacKey: 'x' } }));
    expect(fieldNames(bad)).toEqual(['kid']);
  });

  it('lists a domain turned to auto SSL as pending, to its operator only', async () => {
    const on = await sendAs(t.app, fx.user, setDomainsAutoSSL, {
      params: { siteId: fx.siteId },
      body: { domainIDs: [shopId, lostId], autoSSL: true },
    });
    expect(on.statusCode).toBe(200);
    const page = await list();
    expect(page.total).toBe(2);
    expect(page.data.map((c) => [c.domain, c.status, c.challenge, c.siteName])).toEqual([
      ['lost.example.com', 'pending', 'http-01', 'shop'],
      ['shop.example.com', 'pending', 'http-01', 'shop'],
    ]);
    expect((await list({}, rival)).total).toBe(0);
  });

  it('issues over HTTP-01 through the data the nodes are given, and records a failure with its reason', async () => {
    expect(await t.app.rampart.autoCertificatesJob.round()).toBe(2);
    const page = await list();
    const shop = page.data.find((c) => c.domain === 'shop.example.com');
    const lost = page.data.find((c) => c.domain === 'lost.example.com');
    expect(shop).toMatchObject({ status: 'valid', lastError: '', failures: 0 });
    expect(served).toContain('shop.example.com');

    // The node serves the certificate pebble issued for the name; the challenge is gone again.
    const snapshot = await fx.snapshot();
    const domain = snapshot.dataPlane.domains.find((d) => d.name === 'shop.example.com');
    const cert = snapshot.dataPlane.certificates.find((c) => c.id === domain?.certificateId);
    expect(cert).toBeDefined();
    const leaf = new X509Certificate(cert?.certPem ?? '');
    expect(leaf.subjectAltName).toBe('DNS:shop.example.com');
    expect(shop?.notAfter).toBe(new Date(leaf.validTo).toISOString());
    expect(snapshot.dataPlane.acmeChallenges).toBeUndefined();
    // Renewed 30 days before it expires.
    expect(Date.parse(shop?.nextAttemptAt ?? '')).toBe(Date.parse(leaf.validTo) - 30 * 86_400_000);

    // lost.example.com points elsewhere: pebble cannot fetch the challenge; retried after the backoff.
    expect(lost?.status).toBe('failed');
    expect(lost?.lastError).toMatch(/lost\.example\.com|127\.0\.0\.2|connection/i);
    expect(lost?.failures).toBe(1);
    expect(Date.parse(lost?.nextAttemptAt ?? '') - Date.parse(lost?.lastAttemptAt ?? '')).toBeGreaterThanOrEqual(
      RETRY_BASE_MS,
    );
    expect(snapshot.dataPlane.domains.find((d) => d.name === 'lost.example.com')?.certificateId).toBeNull();
    // The operator and the site's customer are alerted (one alert per certificate and day).
    const raised = (await t.app.rampart.alerts.recent(await rootId(t.app, 'client'), 50)).filter(
      (a) => a.kind === 'certificateRenewalFailed',
    );
    expect(new Set(raised.map((a) => a.id)).size).toBe(1);
    expect(raised[0]).toMatchObject({
      customerId: await rootId(t.app, 'user'),
      params: { domain: 'lost.example.com' },
    });

    // The customer sees where each domain's certificate stands, with the failure's reason.
    const domains = await sendAs(t.app, fx.user, listDomains, { params: { siteId: fx.siteId }, query: {} });
    expect(
      domains
        .json()
        .data.filter((d) => d.autoSSL)
        .map((d) => [d.name, d.autoSSLStatus, d.autoSSLError]),
    ).toEqual(
      expect.arrayContaining([
        ['shop.example.com', 'valid', ''],
        ['lost.example.com', 'failed', lost?.lastError],
      ]),
    );

    // Filters.
    expect((await list({ status: 'failed' })).data.map((c) => c.domain)).toEqual(['lost.example.com']);
    expect((await list({ domain: 'SHOP' })).data.map((c) => c.domain)).toEqual(['shop.example.com']);
    expect((await list({ lastError: lost?.lastError.slice(0, 12) })).data.map((c) => c.domain)).toEqual([
      'lost.example.com',
    ]);
    const inYears = new Date(Date.now() + 10 * 365 * 86_400_000).toISOString();
    expect((await list({ expiresBefore: inYears })).data.map((c) => c.domain)).toEqual(['shop.example.com']);
    expect((await list({ siteID: fx.otherSiteId })).total).toBe(0);
    expect((await list({ pageSize: 1, page: 2 })).data.map((c) => c.domain)).toEqual(['shop.example.com']);
    // Nothing is due: a round does nothing.
    expect(await t.app.rampart.autoCertificatesJob.round()).toBe(0);
  }, 60_000);

  it('retries a failure when asked, doubling the wait, and renews a certificate in place', async () => {
    const before = await list();
    const ids = before.data.map((c) => c.id);
    const oldSnapshot = await fx.snapshot();
    const oldDomain = oldSnapshot.dataPlane.domains.find((d) => d.name === 'shop.example.com');
    const oldPem = oldSnapshot.dataPlane.certificates.find((c) => c.id === oldDomain?.certificateId)?.certPem;

    expect((await fx.call(renewAutoCertificates, { body: { ids } })).statusCode).toBe(200);
    // The renew call woke the job (no round driven here).
    await t.app.rampart.autoCertificatesJob.settled();
    const after = await list();
    const lost = after.data.find((c) => c.domain === 'lost.example.com');
    expect(lost?.failures).toBe(2);
    expect(Date.parse(lost?.nextAttemptAt ?? '') - Date.parse(lost?.lastAttemptAt ?? '')).toBeGreaterThanOrEqual(
      2 * RETRY_BASE_MS,
    );
    const snapshot = await fx.snapshot();
    const domain = snapshot.dataPlane.domains.find((d) => d.name === 'shop.example.com');
    // The same certificate entry, a new chain: the nodes take it like an upload, without a reload.
    expect(domain?.certificateId).toBe(oldDomain?.certificateId);
    const pem = snapshot.dataPlane.certificates.find((c) => c.id === domain?.certificateId)?.certPem;
    expect(pem).toBeDefined();
    expect(pem).not.toBe(oldPem);

    // Every attempt is recorded.
    const shopRow = after.data.find((c) => c.domain === 'shop.example.com');
    const attempts = await t.app.rampart.autoCertificatesJob.attemptsOf(shopRow?.id ?? 0);
    expect(attempts.map((a) => a.ok)).toEqual([true, true]);
    const lostAttempts = await t.app.rampart.autoCertificatesJob.attemptsOf(lost?.id ?? 0);
    expect(lostAttempts.map((a) => [a.ok, a.error !== ''])).toEqual([
      [false, true],
      [false, true],
    ]);
  }, 60_000);

  it("refuses another operator's ids, all or none", async () => {
    const ids = (await list()).data.map((c) => c.id);
    const res = await sendAs(t.app, rival, renewAutoCertificates, { body: { ids } });
    expect(res.json().code).toBe(101018);
    const mixed = await fx.call(renewAutoCertificates, { body: { ids: [...ids, 999_999] } });
    expect(mixed.json().code).toBe(101018);
    const empty = await fx.call(renewAutoCertificates, rawInput({ body: { ids: [] } }));
    expect(empty.json().code).toBe(101003);
    expect(fieldNames(empty)).toEqual(['ids']);
  });

  it("asks the CA only when its directory is on the operator's outgoing URL list", async () => {
    const shop = async () => (await list({ domain: 'shop.example.com' })).data[0];
    const id = (await shop())?.id ?? 0;
    const elsewhere = await fx.call(saveOutgoingUrlSetting, { body: { urls: ['https://acme.example.net'] } });
    expect(elsewhere.statusCode).toBe(200);
    expect((await fx.call(renewAutoCertificates, { body: { ids: [id] } })).statusCode).toBe(200);
    await t.app.rampart.autoCertificatesJob.settled();
    const refused = await shop();
    expect(refused?.status).toBe('failed');
    expect(refused?.lastError).toContain(`${pebble.directoryUrl} is not on the operator's outgoing URL list`);

    // On the list (its origin): issued again.
    const origin = new URL(pebble.directoryUrl);
    await fx.call(saveOutgoingUrlSetting, { body: { urls: ['https://acme.example.net', `https://${origin.host}`] } });
    expect((await fx.call(renewAutoCertificates, { body: { ids: [id] } })).statusCode).toBe(200);
    await t.app.rampart.autoCertificatesJob.settled();
    expect(await shop()).toMatchObject({ status: 'valid', lastError: '' });
  }, 60_000);

  it('drops a domain that turned auto SSL off; its certificate stays', async () => {
    await sendAs(t.app, fx.user, setDomainsAutoSSL, {
      params: { siteId: fx.siteId },
      body: { domainIDs: [shopId], autoSSL: false },
    });
    expect((await list()).data.map((c) => c.domain)).toEqual(['lost.example.com']);
    const snapshot = await fx.snapshot();
    expect(snapshot.dataPlane.domains.find((d) => d.name === 'shop.example.com')?.certificateId).not.toBeNull();
  });
});
