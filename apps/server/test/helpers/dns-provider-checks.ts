import type { Resolver } from 'node:dns/promises';
import { expect } from 'vitest';
import { type DnsProvider, type RecordType, recordSet } from '../../src/modules/dns/dns-provider.js';

/** What the authority holds under a name and type: sorted values (and the TTL when it tells it). */
export type Lookup = (name: string, type: RecordType) => Promise<{ values: string[]; ttl?: number }>;

/** A lookup through real DNS queries to the authoritative server `resolver` points at. */
export function dnsLookup(resolver: Resolver): Lookup {
  return async (name, type) => {
    try {
      switch (type) {
        case 'A':
        case 'AAAA': {
          const found = await (type === 'A'
            ? resolver.resolve4(name, { ttl: true })
            : resolver.resolve6(name, { ttl: true }));
          return { values: found.map((r) => r.address).sort(), ttl: found[0]?.ttl };
        }
        case 'CNAME':
          return { values: (await resolver.resolveCname(name)).sort() };
        case 'TXT':
          return { values: (await resolver.resolveTxt(name)).map((parts) => parts.join('')).sort() };
      }
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOTFOUND' || (error as { code?: string }).code === 'ENODATA') {
        return { values: [] };
      }
      throw error;
    }
  };
}

/**
 * What every DNS provider must do, checked against what the authority then holds (`lookup`):
 * create A/AAAA/CNAME/TXT sets, read them back, replace and delete them. Uses names under
 * `<prefix>.<zone>` so tests sharing a zone do not meet.
 */
export async function checkProviderRoundTrip(
  provider: DnsProvider,
  lookup: Lookup,
  prefix: string,
  ttl = 120,
): Promise<void> {
  const zone = provider.zone;
  const www = `www.${prefix}.${zone}`;
  const alias = `alias.${prefix}.${zone}`;
  const txt = `_acme-challenge.${prefix}.${zone}`;
  await provider.applyChanges([
    { kind: 'upsert', set: recordSet(www, 'A', ttl, ['198.51.100.2', '198.51.100.1']) },
    { kind: 'upsert', set: recordSet(www, 'AAAA', ttl, ['2001:db8:0:0::1']) },
    { kind: 'upsert', set: recordSet(alias, 'CNAME', ttl, [www]) },
    { kind: 'upsert', set: recordSet(txt, 'TXT', ttl, ['token "quoted" value']) },
  ]);
  expect(await lookup(www, 'A')).toMatchObject({ values: ['198.51.100.1', '198.51.100.2'] });
  const a = await lookup(www, 'A');
  if (a.ttl !== undefined) expect(a.ttl).toBe(ttl);
  expect(await lookup(www, 'AAAA')).toMatchObject({ values: ['2001:db8::1'] });
  expect(await lookup(alias, 'CNAME')).toMatchObject({ values: [www] });
  expect(await lookup(txt, 'TXT')).toMatchObject({ values: ['token "quoted" value'] });

  expect(await provider.listRecords([www, alias, txt, `none.${prefix}.${zone}`])).toEqual([
    recordSet(www, 'A', ttl, ['198.51.100.1', '198.51.100.2']),
    recordSet(www, 'AAAA', ttl, ['2001:db8::1']),
    recordSet(alias, 'CNAME', ttl, [www]),
    recordSet(txt, 'TXT', ttl, ['token "quoted" value']),
  ]);

  // Replacing a set leaves only the new values (a kept value with its new TTL); deleting removes it.
  await provider.applyChanges([
    { kind: 'upsert', set: recordSet(www, 'A', ttl * 2, ['198.51.100.3', '198.51.100.1']) },
    { kind: 'delete', name: www, type: 'AAAA', line: 'default' },
    { kind: 'delete', name: txt, type: 'TXT', line: 'default' },
  ]);
  expect(await lookup(www, 'A')).toMatchObject({ values: ['198.51.100.1', '198.51.100.3'] });
  expect(await lookup(www, 'AAAA')).toEqual({ values: [] });
  expect(await lookup(txt, 'TXT')).toEqual({ values: [] });
  expect(await provider.listRecords([www, txt])).toEqual([
    recordSet(www, 'A', ttl * 2, ['198.51.100.1', '198.51.100.3']),
  ]);
}
