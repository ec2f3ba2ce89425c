import type { EdgeAcmeChallenge, EdgeDomain, PlaneEntryKind } from '@rampart/contract';
import { entryHash } from '@rampart/contract/plane-hash';
import { type SiteParts, usedIds, usedParts } from './snapshot-plane.js';

/* A site's entries of the data plane as entries (plane-entries.ts builds them, plane-writes.ts stores them). */

export interface SiteEntry {
  readonly kind: PlaneEntryKind;
  readonly key: string;
  readonly hash: string;
  readonly value: unknown;
}

/**
 * What one site's rebuild wrote: its entries, and which of its stored entries they stand for
 * (`scope`, as `kind\0key`): null for the whole site, else only those (a per-domain rebuild).
 */
export interface Rebuild {
  readonly entries: SiteEntry[];
  readonly scope: ReadonlySet<string> | null;
}

/** The entry kinds a domain names by id, with the field that names them. */
export const REFERENCES = {
  certificate: 'certificates',
  cache: 'caches',
  module: 'modules',
  settings: 'settings',
  firewall: 'firewalls',
} as const satisfies Partial<Record<PlaneEntryKind, keyof ReturnType<typeof usedIds>>>;
export const DOMAIN_FIELDS = {
  certificate: 'certificateId',
  cache: 'cacheId',
  settings: 'settingsId',
  firewall: 'firewallId',
} as const satisfies Partial<Record<keyof typeof REFERENCES, keyof EdgeDomain>>;

/** The `kind\0key` of the entries `domains` name (certificates, caches, modules, settings, firewalls). */
export function referenced(domains: readonly EdgeDomain[]): Set<string> {
  const ids = usedIds(domains);
  const out = new Set<string>();
  for (const [kind, field] of Object.entries(REFERENCES)) {
    for (const id of ids[field]) if (id !== null) out.add(`${kind}\0${id}`);
  }
  return out;
}

/**
 * The entries of one site's `domains` (of `parts`) and its ACME `challenges`: the one code the
 * whole-site and the per-domain rebuild make entries with.
 */
export function entriesOf(
  siteId: number,
  domains: readonly EdgeDomain[],
  parts: SiteParts,
  challenges: readonly EdgeAcmeChallenge[],
): SiteEntry[] {
  const entries: SiteEntry[] = [];
  const add = (kind: PlaneEntryKind, key: string, value: unknown) =>
    entries.push({ kind, key, value, hash: entryHash(kind, key, value) });
  for (const { forceSSLCode: _code, ...domain } of domains) add('domain', domain.name, domain);
  const used = usedParts(domains, parts);
  for (const cert of used.certificates) add('certificate', String(cert.id), cert);
  for (const policy of used.caches) add('cache', String(policy.id), policy);
  for (const module of used.modules) add('module', String(module.id), module);
  for (const settings of used.settings) add('settings', String(settings.id), settings);
  for (const firewall of used.firewalls) add('firewall', String(firewall.id), firewall);
  const hosts = new Set(domains.map((d) => d.name));
  const own = challenges.filter((c) => hosts.has(c.host));
  if (own.length > 0) add('acme', String(siteId), own);
  return entries;
}

/** A jsonb value as the driver answers it (PGlite may answer text). */
export function parsed(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}
