import type { Resolver } from 'node:dns/promises';
import { expect } from 'vitest';
import { type DnsProvider, recordSet } from '../../src/modules/dns/dns-provider.js';

/**
 * What every DNS provider must do, checked against the real authoritative server it writes to
 * (`resolver` points at that server): create A/AAAA/CNAME/TXT sets, read them back, replace and
 * delete them. Uses names under `<prefix>.<zone>` so tests sharing a zone do not meet.
 */
export async function checkProviderRoundTrip(provider: DnsProvider, resolver: Resolver, prefix: string): Promise<void> {
  const zone = provider.zone;
  const www = `www.${prefix}.${zone}`;
  const alias = `alias.${prefix}.${zone}`;
  const txt = `_acme-challenge.${prefix}.${zone}`;
  await provider.applyChanges([
    { kind: 'upsert', set: recordSet(www, 'A', 120, ['198.51.100.2', '198.51.100.1']) },
    { kind: 'upsert', set: recordSet(www, 'AAAA', 120, ['2001:db8:0:0::1']) },
    { kind: 'upsert', set: recordSet(alias, 'CNAME', 60, [www]) },
    { kind: 'upsert', set: recordSet(txt, 'TXT', 60, ['token "quoted" value']) },
  ]);
  expect((await resolver.resolve4(www)).sort()).toEqual(['198.51.100.1', '198.51.100.2']);
  expect(await resolver.resolve4(www, { ttl: true })).toContainEqual({ address: '198.51.100.1', ttl: 120 });
  expect(await resolver.resolve6(www)).toEqual(['2001:db8::1']);
  expect(await resolver.resolveCname(alias)).toEqual([www]);
  expect(await resolver.resolveTxt(txt)).toEqual([['token "quoted" value']]);

  expect(await provider.listRecords([www, alias, txt, `none.${prefix}.${zone}`])).toEqual([
    recordSet(www, 'A', 120, ['198.51.100.1', '198.51.100.2']),
    recordSet(www, 'AAAA', 120, ['2001:db8::1']),
    recordSet(alias, 'CNAME', 60, [www]),
    recordSet(txt, 'TXT', 60, ['token "quoted" value']),
  ]);

  // Replacing a set leaves only the new values; deleting removes it.
  await provider.applyChanges([
    { kind: 'upsert', set: recordSet(www, 'A', 60, ['198.51.100.3']) },
    { kind: 'delete', name: www, type: 'AAAA', line: 'default' },
    { kind: 'delete', name: txt, type: 'TXT', line: 'default' },
  ]);
  expect(await resolver.resolve4(www)).toEqual(['198.51.100.3']);
  await expect(resolver.resolve6(www)).rejects.toMatchObject({ code: 'ENODATA' });
  await expect(resolver.resolveTxt(txt)).rejects.toMatchObject({ code: 'ENOTFOUND' });
  expect(await provider.listRecords([www, txt])).toEqual([recordSet(www, 'A', 60, ['198.51.100.3'])]);
}
