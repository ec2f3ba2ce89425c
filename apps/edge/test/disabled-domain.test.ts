import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificate } from './helpers/certificates.js';
import { disabledDomain, document, domain, upstream } from './helpers/documents.js';
import { type Edge, startEdge } from './helpers/edge.js';
import { httpsRequest, request } from './helpers/net.js';
import { type Origin, servedBy, startOrigin } from './helpers/origins.js';

// A disabled domain as the control plane sends it (enabled: false, no origin) through a real
// nginx: its "domain disabled" page, over HTTP and over HTTPS with its own certificate, in the
// visitor's language (Accept-Language), else the site's, else English; enabling and disabling it
// is a push, never a reload.

let edge: Edge;
let origin: Origin;
let fingerprint: string;

const ENGLISH = '<h1>403 Domain disabled</h1>';
const SIMPLIFIED = '<h1>403 域名已停用</h1>';
const TRADITIONAL = '<h1>403 網域已停用</h1>';

const SITE_TW = { id: 30, gzip: null, rates: [], language: 'zh_TW' as const, pages: [] };

function plane(version: string, shopEnabled: boolean) {
  const shop = shopEnabled
    ? domain(1, 'shop.example.com', [upstream(origin.port)], { certificateId: 7 })
    : disabledDomain(1, 'shop.example.com', { certificateId: 7 });
  return document(
    version,
    [
      shop,
      disabledDomain(2, 'parked.example.com', { settingsId: 30, forceSSL: true }),
      disabledDomain(3, '*.wild.example.com'),
    ],
    [{ id: 7, ...certificate }],
    [],
    { settings: [SITE_TW] },
  );
}

let certificate: { certPem: string; keyPem: string };

beforeAll(async () => {
  origin = await startOrigin('origin');
  certificate = await makeCertificate('shop.example.com');
  fingerprint = new X509Certificate(certificate.certPem).fingerprint256;
  edge = await startEdge();
  await edge.push(plane('disabled-1', false));
});

afterAll(async () => {
  await edge?.stop();
  await origin?.close();
});

describe('a disabled domain', () => {
  it('answers 403 with the "domain disabled" page, never the unknown-host one, and never reaches an origin', async () => {
    const before = origin.seen.length;
    for (const host of ['shop.example.com', 'a.wild.example.com']) {
      const answer = await request(edge.httpPort, host, '/any/path');
      expect(answer.status).toBe(403);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.body).toContain(ENGLISH);
      expect(answer.body).not.toContain('Domain not found');
    }
    expect(origin.seen.length).toBe(before);
  });

  it('answers over HTTPS with its own certificate', async () => {
    const answer = await httpsRequest(edge.httpsPort, 'shop.example.com', '/');
    expect(answer.status).toBe(403);
    expect(answer.body).toContain(ENGLISH);
    expect(answer.fingerprint).toBe(fingerprint);
  });

  it('answers the page rather than its forceSSL redirect', async () => {
    const answer = await request(edge.httpPort, 'parked.example.com');
    expect(answer.status).toBe(403);
    expect(answer.headers.location).toBeUndefined();
  });

  it.each([
    ['zh-CN', SIMPLIFIED],
    ['zh-Hans', SIMPLIFIED],
    ['zh-Hans-HK', SIMPLIFIED],
    ['zh-SG', SIMPLIFIED],
    ['zh', SIMPLIFIED],
    ['zh-TW', TRADITIONAL],
    ['zh-HK', TRADITIONAL],
    ['zh-Hant', TRADITIONAL],
    ['zh-Hant-CN', TRADITIONAL],
    ['en-US,en;q=0.9', ENGLISH],
    ['fr-FR, de;q=0.8, zh-TW;q=0.5', TRADITIONAL],
    ['en;q=0.4, zh-CN;q=0.8', SIMPLIFIED],
    ['zh-CN;q=0, en-GB', ENGLISH],
  ])('follows Accept-Language %s', async (accept, heading) => {
    const answer = await request(edge.httpPort, 'shop.example.com', '/', { headers: { 'accept-language': accept } });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain(heading);
    expect(answer.headers.vary).toBe('Accept-Language');
  });

  it("falls back to the site's language, then to English", async () => {
    const site = await request(edge.httpPort, 'parked.example.com', '/', { headers: { 'accept-language': 'fr' } });
    expect(site.body).toContain(TRADITIONAL);
    const noHeader = await request(edge.httpPort, 'parked.example.com');
    expect(noHeader.body).toContain(TRADITIONAL);
    const english = await request(edge.httpPort, 'parked.example.com', '/', { headers: { 'accept-language': 'en' } });
    expect(english.body).toContain(ENGLISH);
    const noSite = await request(edge.httpPort, 'shop.example.com', '/', { headers: { 'accept-language': 'fr, *' } });
    expect(noSite.body).toContain(ENGLISH);
  });

  it('is enabled and disabled again by a push, without a reload', async () => {
    const workers = await edge.nginx.workerPids();
    await edge.push(plane('disabled-2', true));
    const on = await request(edge.httpPort, 'shop.example.com', '/on');
    expect(on.status).toBe(200);
    expect(servedBy(on.body)).toBe('origin');
    await edge.push(plane('disabled-3', false));
    const off = await request(edge.httpPort, 'shop.example.com', '/off');
    expect(off.status).toBe(403);
    expect(off.body).toContain(ENGLISH);
    expect(await edge.nginx.workerPids()).toEqual(workers);
  });
});

describe('the Lua admin endpoint', () => {
  it('refuses an enabled domain without an origin', async () => {
    const doc = document('no-origin', [{ ...disabledDomain(1, 'a.example.com'), enabled: true }]);
    const res = await edge.putRaw(JSON.stringify(doc));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('domains[0].origin');
  });

  it('accepts a disabled domain that still carries its origin (a control plane from before)', async () => {
    const doc = document('with-origin', [domain(1, 'old.example.com', [upstream(origin.port)], { enabled: false })]);
    expect((await edge.putRaw(JSON.stringify(doc))).status).toBe(200);
    const answer = await request(edge.httpPort, 'old.example.com');
    expect(answer.status).toBe(403);
    expect(answer.body).toContain(ENGLISH);
  });
});
