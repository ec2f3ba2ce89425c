import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudflareProvider } from '../src/modules/dns/cloudflare.provider.js';
import { recordSet } from '../src/modules/dns/dns-provider.js';
import { DnspodProvider } from '../src/modules/dns/dnspod.provider.js';
import { TargetGuard } from '../src/platform/http/target-guard.js';
import { checkProviderRoundTrip, type Lookup } from './helpers/dns-provider-checks.js';
import { type HostedStandin, startCloudflareStandin, startDnspodStandin } from './helpers/hosted-dns-standins.js';

// The stand-ins listen on loopback: private targets allowed, as an installation of a test rig would.
const LOOPBACK_ALLOWED = new TargetGuard(true);

// Cloudflare and DNSPod providers against local STAND-INS of their APIs (helpers/hosted-dns-standins.ts
// says what they are): the real services cannot be reached from the tests.
const zone = 'cdn-hosted.test';

/** What a stand-in holds under a name and type (line `default`). */
function standinLookup(standin: HostedStandin, line = 'default'): Lookup {
  return async (name, type) => {
    const held = standin.records.filter((r) => r.name === name && r.type === type && r.line === line);
    return { values: held.map((r) => r.value).sort(), ...(held[0] ? { ttl: held[0].ttl } : {}) };
  };
}

describe('Cloudflare provider against a stand-in of API v4', () => {
  let cf: HostedStandin;
  beforeAll(async () => {
    cf = await startCloudflareStandin(zone, 'cf-token-1');
  });
  afterAll(async () => {
    await cf?.stop();
  });
  const provider = (apiToken = 'cf-token-1', z = zone) =>
    new CloudflareProvider({ apiToken, zone: z, baseUrl: cf.url, timeoutMs: 3000, targets: LOOPBACK_ALLOWED });

  it('tests the zone with a TXT probe it removes again', async () => {
    expect(await provider().test()).toContain('written and removed');
    expect(cf.records).toEqual([]);
    expect(cf.calls).toContain('POST /zones/f1e2d3c4b5a6978800112233445566aa/dns_records');
  });

  it('creates, reads, replaces and deletes sets, one record per value, keeping values that stay', async () => {
    await checkProviderRoundTrip(provider(), standinLookup(cf), 'round');
    // The kept value was corrected in place (PATCH), not deleted and created again.
    expect(cf.calls.filter((c) => c.startsWith('PATCH'))).toHaveLength(1);
  });

  it('answers with Cloudflare’s messages: a wrong token, an unknown zone, a refused TTL', async () => {
    await expect(provider('wrong').test()).rejects.toThrow('Cloudflare 403: Invalid access token (9109)');
    await expect(provider('cf-token-1', 'other.test').test()).rejects.toThrow('no zone other.test');
    await expect(
      provider().applyChanges([{ kind: 'upsert', set: recordSet(`ttl.${zone}`, 'A', 30, ['192.0.2.1']) }]),
    ).rejects.toThrow(/Invalid TTL.*\(9021\)/);
  });
});

describe('DNSPod provider against a stand-in of dnsapi.cn', () => {
  let dp: HostedStandin;
  beforeAll(async () => {
    dp = await startDnspodStandin(zone, '12345,abcdef0123456789');
  });
  afterAll(async () => {
    await dp?.stop();
  });
  const provider = (token = '12345,abcdef0123456789') =>
    new DnspodProvider({ token, zone, baseUrl: dp.url, timeoutMs: 3000, targets: LOOPBACK_ALLOWED });

  it('tests the domain with a TXT probe it removes again', async () => {
    expect(await provider().test()).toContain('written and removed');
    expect(dp.records).toEqual([]);
    expect(dp.calls.slice(0, 2)).toEqual(['Domain.Info', 'Record.Create']);
  });

  it('creates, reads, replaces and deletes sets on the default line', async () => {
    await checkProviderRoundTrip(provider(), standinLookup(dp, '默认'), 'round', 600);
  });

  it('keeps one set per DNS line, under DNSPod’s line names', async () => {
    const name = `lines.${zone}`;
    await provider().applyChanges([
      { kind: 'upsert', set: recordSet(name, 'A', 600, ['192.0.2.1']) },
      { kind: 'upsert', set: recordSet(name, 'A', 600, ['192.0.2.2'], 'telecom') },
    ]);
    expect(dp.records.filter((r) => r.name === name).map((r) => [r.line, r.value])).toEqual([
      ['默认', '192.0.2.1'],
      ['电信', '192.0.2.2'],
    ]);
    expect(await provider().listRecords([name])).toEqual([
      recordSet(name, 'A', 600, ['192.0.2.1']),
      recordSet(name, 'A', 600, ['192.0.2.2'], 'telecom'),
    ]);
    await provider().applyChanges([{ kind: 'delete', name, type: 'A', line: 'telecom' }]);
    expect(dp.records.filter((r) => r.name === name).map((r) => r.line)).toEqual(['默认']);
  });

  it('answers with DNSPod’s message for a wrong token', async () => {
    await expect(provider('1,wrong').test()).rejects.toThrow('DNSPod Domain.Info: Login failed. (-1)');
  });
});
