import {
  type EdgeCertificate,
  type EdgeDomain,
  type EdgeDomainAuth,
  type EdgeDomainModules,
  type EdgeModule,
  emptyEdgeFirewall,
} from '@rampart/contract';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { ServedDomainRow, SnapshotRepository } from './snapshot.repository.js';
import { type EdgeProjections, inChunks, type SiteLevelParts, type SiteParts } from './snapshot-plane.js';

/**
 * What the sites of `domainRows` put into a data plane (every domain, a disabled namesake of
 * another included: uniqueNames picks), each value from that feature's projection: the one code
 * both the whole snapshot (snapshot-builder.ts) and the per-site entries (plane-entries.ts) are
 * built with. `known`: the sites' site-level parts when the caller knows them as they are now.
 */
export async function readSiteParts(
  projections: EdgeProjections,
  repository: SnapshotRepository,
  box: SecretBox,
  domainRows: readonly ServedDomainRow[],
  forceSSLCode: EdgeDomain['forceSSLCode'],
  known?: SiteLevelParts,
): Promise<SiteParts> {
  const siteIds = [...new Set(domainRows.map((row) => row[7]))];
  const level: SiteLevelParts = known ?? {
    caches: await projections.cachePolicies(siteIds),
    settings: await projections.siteSettings(siteIds),
    firewalls: await projections.firewalls(siteIds),
  };
  const caches = [...level.caches];
  const cached = new Set(caches.map((policy) => policy.id));
  const served = domainRows.filter((row) => row[8]);
  const siteModules = { byDomain: new Map<number, NonNullable<EdgeDomainModules>>(), modules: [] as EdgeModule[] };
  const moduleIds = new Set<number>();
  for (const part of await inChunks(
    served.map((row) => row[0]),
    (ids) => projections.modules(ids),
  )) {
    for (const [id, modules] of part.byDomain) siteModules.byDomain.set(id, modules);
    for (const module of part.modules) {
      if (!moduleIds.has(module.id)) siteModules.modules.push(module);
      moduleIds.add(module.id);
    }
  }
  const settings = [...level.settings];
  const withSettings = new Set(settings.map((entry) => entry.id));
  const firewalls = [...level.firewalls];
  const withFirewall = new Set(firewalls.map((entry) => entry.id));
  // A domain with its own lists runs them in its site's firewall: a site without rules gets an
  // empty entry for it (docs/decisions.md "Header blocking, anti-referer and anti-header lists").
  // Only the domains with lists name such an entry; the site's other domains stay without a firewall.
  const access = new Map(
    (
      await inChunks(
        served.map((row) => row[0]),
        (ids) => projections.domainAccess(ids),
      )
    ).flatMap((part) => [...part]),
  );
  const domainAuth = projections.domainAuth?.bind(projections);
  const auth = new Map<number, EdgeDomainAuth>(
    domainAuth
      ? (
          await inChunks(
            served.map((row) => ({ id: row[0], siteId: row[7] })),
            (domains) => domainAuth(domains),
          )
        ).flatMap((part) => [...part])
      : [],
  );
  const onlyLists = new Set<number>();
  for (const row of domainRows) {
    const siteId = row[7];
    if (!access.has(row[0]) || withFirewall.has(siteId)) continue;
    firewalls.push(emptyEdgeFirewall(siteId));
    withFirewall.add(siteId);
    onlyLists.add(siteId);
  }
  const firewallOf = (domainId: number, siteId: number) =>
    withFirewall.has(siteId) && (!onlyLists.has(siteId) || access.has(domainId)) ? siteId : null;
  const domains: EdgeDomain[] = [];
  const siteOf = new Map<number, number>();
  for (const [
    id,
    name,
    forceSSL,
    scheme,
    hashType,
    hostName,
    certificateId,
    siteId,
    serves,
    upstreamTuples,
    portMap,
  ] of domainRows) {
    const settingsId = withSettings.has(siteId) ? siteId : null;
    if (!serves) {
      siteOf.set(id, siteId);
      domains.push({
        id,
        name,
        enabled: false,
        forceSSL,
        forceSSLCode,
        certificateId,
        cacheId: null,
        modules: null,
        settingsId,
        firewallId: null,
        origin: null,
      });
      continue;
    }
    const upstreams = upstreamTuples.map(([ip, port, weight, backup]) => ({ ip, port, weight, backup }));
    // The API refuses this (401008); a row in that state is skipped rather than breaking the node.
    if (!upstreams.some((u) => !u.backup)) continue;
    siteOf.set(id, siteId);
    domains.push({
      id,
      name,
      enabled: true,
      forceSSL,
      forceSSLCode,
      certificateId,
      cacheId: cached.has(siteId) ? siteId : null,
      modules: siteModules.byDomain.get(id) ?? null,
      settingsId,
      firewallId: firewallOf(id, siteId),
      ...(access.has(id) ? { access: access.get(id) } : {}),
      ...(auth.has(id) ? { auth: auth.get(id) } : {}),
      origin: {
        scheme: scheme === 1 ? 'https' : 'http',
        host: hostName === '' ? null : hostName,
        balance: hashType === 1 ? 'ip_hash' : 'round_robin',
        portMap,
        upstreams,
      },
    });
  }
  const certIds = [...new Set(domains.map((d) => d.certificateId).filter((id): id is number => id !== null))];
  const certRows = await repository.certificates(certIds);
  const certificates: EdgeCertificate[] = certRows.map((c) => ({
    id: c.id,
    certPem: c.certPem,
    keyPem: box.open(c.keySealed),
  }));
  return { domains, siteOf, certificates, caches, modules: siteModules.modules, settings, firewalls, level };
}
