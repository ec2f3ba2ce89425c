import { Resolver } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DNS_PROVIDER_TIMEOUT_MS, DnsProviderError, recordSet } from '../src/modules/dns/dns-provider.js';
import { PowerDnsProvider } from '../src/modules/dns/powerdns.provider.js';
import { TargetGuard } from '../src/platform/http/target-guard.js';
import { checkProviderRoundTrip, dnsLookup } from './helpers/dns-provider-checks.js';
import { type PowerDnsServer, startPowerDns } from './helpers/powerdns-server.js';

// The stand-ins listen on loopback: private targets allowed, as an installation of a test rig would.
const LOOPBACK_ALLOWED = new TargetGuard(true);

// The PowerDNS provider against a real PowerDNS 4.7 (Debian's pdns-server, SQLite backend) the
// test starts on loopback; what PowerDNS then answers on its DNS port is read with node:dns.
const zone = 'cdn-pdns.test';
let pdns: PowerDnsServer;
let resolver: Resolver;

beforeAll(async () => {
  pdns = await startPowerDns([zone]);
  resolver = new Resolver({ timeout: 1000, tries: 1 });
  resolver.setServers([pdns.dnsAddress]);
});
afterAll(async () => {
  await pdns?.stop();
});

const provider = (overrides: { apiKey?: string; serverId?: string; zone?: string } = {}) =>
  new PowerDnsProvider({
    apiUrl: pdns.apiUrl,
    apiKey: pdns.apiKey,
    serverId: 'localhost',
    zone,
    timeoutMs: 3000,
    targets: LOOPBACK_ALLOWED,
    ...overrides,
  });

describe('PowerDNS provider against pdns_server', () => {
  it('tests the zone: readable, the TXT probe written and removed', async () => {
    expect(await provider().test()).toContain('written and removed');
    await expect(resolver.resolveTxt(`_rampart-probe.${zone}`)).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('creates, reads, replaces and deletes A/AAAA/CNAME/TXT sets that PowerDNS then answers', async () => {
    await checkProviderRoundTrip(provider(), dnsLookup(resolver), 'round');
  });

  it('reports a wrong API key, an unknown zone and an unknown server id with PowerDNS’s words', async () => {
    await expect(provider({ apiKey: 'wrong' }).test()).rejects.toThrow(/PowerDNS 401/);
    await expect(provider({ zone: 'other.test' }).test()).rejects.toThrow(/PowerDNS 404/);
    await expect(provider({ serverId: 'nope' }).test()).rejects.toThrow(/PowerDNS 404/);
  });

  it('reports a change PowerDNS refuses, and writes nothing of that PATCH', async () => {
    const p = provider();
    const name = `refused.${zone}`;
    await expect(
      p.applyChanges([
        { kind: 'upsert', set: recordSet(`ok.${zone}`, 'A', 60, ['192.0.2.1']) },
        { kind: 'upsert', set: recordSet(name, 'CNAME', 60, ['a.example', 'b.example']) },
      ]),
    ).rejects.toThrow(/PowerDNS 422/);
    await expect(resolver.resolve4(`ok.${zone}`)).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('bounds calls to an API that never answers by the timeout', async () => {
    const net = await import('node:net');
    const silent = net.createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const port = (silent.address() as { port: number }).port;
    try {
      const started = Date.now();
      const p = new PowerDnsProvider({
        apiUrl: `http://127.0.0.1:${port}`,
        apiKey: 'k',
        serverId: 'localhost',
        zone,
        timeoutMs: 500,
        targets: LOOPBACK_ALLOWED,
      });
      await expect(p.test()).rejects.toThrow(/no answer within 500 ms/);
      // Its own timeout ended it, not the default one (DNS_PROVIDER_TIMEOUT_MS, 20 times longer).
      expect(Date.now() - started).toBeLessThan(DNS_PROVIDER_TIMEOUT_MS);
    } finally {
      silent.close();
    }
  });

  it('refuses a line the provider has not', async () => {
    await expect(
      provider().applyChanges([{ kind: 'upsert', set: recordSet(`x.${zone}`, 'A', 60, ['192.0.2.1'], 'telecom') }]),
    ).rejects.toBeInstanceOf(DnsProviderError);
  });
});
