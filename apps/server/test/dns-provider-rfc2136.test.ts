import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DnsProviderError, recordSet } from '../src/modules/dns/dns-provider.js';
import { Rfc2136Provider } from '../src/modules/dns/rfc2136.provider.js';
import { TargetGuard } from '../src/platform/http/target-guard.js';
import { checkProviderRoundTrip, dnsLookup } from './helpers/dns-provider-checks.js';
import { type DnsServer, startDnsServer, type TsigKeySpec } from './helpers/dns-server.js';

// The stand-ins listen on loopback: private targets allowed, as an installation of a test rig would.
const LOOPBACK_ALLOWED = new TargetGuard(true);

// RFC 2136 updates signed with TSIG, written by the product's own wire code, against a real BIND
// (Debian's bind9) that the test starts; what BIND then answers is read with node:dns.
const zone = 'cdn-rfc.test';
const key: TsigKeySpec = { name: 'rampart-key', algorithm: 'hmac-sha256', secret: randomBytes(32).toString('base64') };
let bind: DnsServer;
let resolver: Resolver;

beforeAll(async () => {
  bind = await startDnsServer({ [zone]: ['old IN A 192.0.2.9'] }, undefined, { updateKey: key });
  resolver = new Resolver({ timeout: 1000, tries: 1 });
  resolver.setServers([bind.address]);
});
afterAll(async () => {
  await bind?.stop();
});

const provider = (overrides: Partial<TsigKeySpec> = {}) =>
  new Rfc2136Provider({
    server: bind.address,
    zone,
    key: { ...key, ...overrides },
    timeoutMs: 3000,
    targets: LOOPBACK_ALLOWED,
  });

describe('RFC 2136 provider against BIND', () => {
  it('tests the zone: the signed TXT probe is written and removed', async () => {
    const detail = await provider().test();
    expect(detail).toContain('written and removed');
    await expect(resolver.resolveTxt(`_rampart-probe.${zone}`)).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('creates, reads, replaces and deletes A/AAAA/CNAME/TXT sets that BIND then answers', async () => {
    await checkProviderRoundTrip(provider(), dnsLookup(resolver), 'round');
  });

  it('deletes a record set the zone file had', async () => {
    await provider().applyChanges([{ kind: 'delete', name: `old.${zone}`, type: 'A', line: 'default' }]);
    await expect(resolver.resolve4(`old.${zone}`)).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('reports a wrong TSIG secret and an unknown key with the server’s words, and changes nothing', async () => {
    const wrong = provider({ secret: randomBytes(32).toString('base64') });
    await expect(wrong.test()).rejects.toThrow(/BADSIG|NOTAUTH/);
    await expect(
      wrong.applyChanges([{ kind: 'upsert', set: recordSet(`bad.${zone}`, 'A', 60, ['192.0.2.1']) }]),
    ).rejects.toBeInstanceOf(DnsProviderError);
    await expect(resolver.resolve4(`bad.${zone}`)).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(provider({ name: 'other-key' }).test()).rejects.toThrow(/BADKEY|NOTAUTH/);
  });

  it('refuses names outside the zone before sending anything', async () => {
    await expect(
      provider().applyChanges([{ kind: 'upsert', set: recordSet('www.example.org', 'A', 60, ['192.0.2.1']) }]),
    ).rejects.toThrow('not in zone');
  });

  it('reports an unreachable server within the timeout', async () => {
    const closed = new Rfc2136Provider({
      server: '127.0.0.1:1',
      zone,
      key,
      timeoutMs: 1000,
      targets: LOOPBACK_ALLOWED,
    });
    await expect(closed.test()).rejects.toBeInstanceOf(DnsProviderError);
  });
});
