import { X509Certificate } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { listAutoCertificates, saveAcmeSetting, saveDnsSetting, setDomainsAutoSSL } from '@rampart/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendAs } from './helpers/call.js';
import { dnsLookup } from './helpers/dns-provider-checks.js';
import { type Pebble, startPebble } from './helpers/pebble.js';
import { type PowerDnsServer, powerDnsSetting, startPowerDns } from './helpers/powerdns-server.js';
import { type SiteFixture, siteFixture } from './helpers/site-fixture.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// DNS-01 for a wildcard name (issue 23): the job writes `_acme-challenge.<name>` TXT through the
// operator's DNS provider, a real PowerDNS, and pebble reads it there (its `-dnsserver` is that
// PowerDNS); the record is removed once the CA has checked it.

const zone = 'example.test';

describe('automatic certificates over DNS-01', () => {
  let t: TestApp;
  let fx: SiteFixture;
  let pdns: PowerDnsServer;
  let pebble: Pebble;
  let resolver: Resolver;

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        autoCert: {
          // The TXT record stands at least settleMs before the CA is asked to check it.
          timing: { tickMs: 0, settleMs: 500, retryBaseMs: 60_000, retryMaxMs: 3_600_000 },
          acmePolling: { backoffMin: 100, backoffMax: 500, backoffAttempts: 30 },
        },
      },
    });
    fx = await siteFixture(t);
    pdns = await startPowerDns([zone]);
    // HTTP-01 is never asked for here: any port will do.
    pebble = await startPebble({ httpPort: 1, dnsServer: pdns.dnsAddress });
    resolver = new Resolver({ timeout: 1000, tries: 2 });
    resolver.setServers([pdns.dnsAddress]);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await pebble?.stop();
    await pdns?.stop();
  });

  it('issues a wildcard certificate through the DNS provider and removes the TXT record afterwards', async () => {
    expect((await fx.call(saveDnsSetting, { body: powerDnsSetting(pdns, zone) })).statusCode).toBe(200);
    const acmeSaved = await fx.call(saveAcmeSetting, {
      body: { ca: 'custom', directoryUrl: pebble.directoryUrl, caBundle: pebble.caBundle, email: '' },
    });
    expect(acmeSaved.statusCode, acmeSaved.body).toBe(200);
    const [id] = await fx.addDomains([`*.${zone}`]);
    const on = await sendAs(t.app, fx.user, setDomainsAutoSSL, {
      params: { siteId: fx.siteId },
      body: { domainIDs: [id ?? 0], autoSSL: true },
    });
    expect(on.statusCode, on.body).toBe(200);

    // The TXT value pebble reads, seen at PowerDNS while the CA checks it.
    const seen: string[][] = [];
    const lookup = dnsLookup(resolver);
    const watch = setInterval(() => {
      lookup(`_acme-challenge.${zone}`, 'TXT').then(
        ({ values }) => values.length > 0 && seen.push(values),
        () => {},
      );
    }, 50);
    try {
      expect(await t.app.rampart.autoCertificatesJob.round()).toBe(1);
    } finally {
      clearInterval(watch);
    }
    const page = (await fx.call(listAutoCertificates, { query: {} })).json();
    expect(page.data.map((c) => [c.domain, c.challenge, c.status, c.lastError])).toEqual([
      [`*.${zone}`, 'dns-01', 'valid', ''],
    ]);

    // The wildcard certificate is the domain's, signed by pebble's root.
    const snapshot = await fx.snapshot();
    const domain = snapshot.dataPlane.domains.find((d) => d.name === `*.${zone}`);
    const pem = snapshot.dataPlane.certificates.find((c) => c.id === domain?.certificateId)?.certPem ?? '';
    const leaf = new X509Certificate(pem);
    expect(leaf.subjectAltName).toBe(`DNS:*.${zone}`);
    const chain = pem.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
    const root = new X509Certificate(await pebble.issuingRoot());
    expect(new X509Certificate(chain.at(-1) ?? '').checkIssued(root)).toBe(true);

    // The challenge was published (a base64url SHA-256 digest, RFC 8555 §8.4) and is gone now.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.flat().every((v) => /^[A-Za-z0-9_-]{43}$/.test(v))).toBe(true);
    expect((await lookup(`_acme-challenge.${zone}`, 'TXT')).values).toEqual([]);
  }, 60_000);
});
