import { type DataPlane, dataPlaneSchema, type EdgeDomain } from '@rampart/contract';

/** What one node's data plane may carry (DATA_PLANE_LIMITS by default; tests and installs go lower). */
export interface SnapshotLimits {
  domains: number;
  certificates: number;
  documentBytes: number;
}

/** A site the builder left out of a node's snapshot, and why (shown to the operator on the node). */
export interface LeftOutSite {
  siteId: number;
  name: string;
  reason: string;
}

/**
 * The data plane without the sites that do not fit: while the node's domains, certificates or
 * document bytes are over the limits, the site with the most domains on the node goes first (the
 * fewest tenants lose service; ties: the newest site), then any site whose rows the schema
 * refuses (a row written before a check existed, or by hand). Deterministic: the same rows give the
 * same choice on every build and every control-plane process.
 */
export function fitSites(
  all: readonly EdgeDomain[],
  siteOf: ReadonlyMap<number, number>,
  planWithout: (out: ReadonlySet<number>) => DataPlane,
  limits: SnapshotLimits,
): { plane: DataPlane; leftOut: Omit<LeftOutSite, 'name'>[] } {
  const out = new Set<number>();
  const leftOut: Omit<LeftOutSite, 'name'>[] = [];
  const domainsOf = new Map<number, number>();
  const certsOf = new Map<number, Set<number>>();
  for (const d of all) {
    const site = siteOf.get(d.id) ?? 0;
    domainsOf.set(site, (domainsOf.get(site) ?? 0) + 1);
    if (d.certificateId !== null) {
      const set = certsOf.get(site) ?? new Set<number>();
      set.add(d.certificateId);
      certsOf.set(site, set);
    }
  }
  const bySize = [...domainsOf.keys()].sort((a, b) => (domainsOf.get(b) ?? 0) - (domainsOf.get(a) ?? 0) || b - a);
  let domains = all.length;
  let certs = new Set(all.map((d) => d.certificateId).filter((id) => id !== null)).size;
  for (const site of bySize) {
    if (domains <= limits.domains && certs <= limits.certificates) break;
    out.add(site);
    domains -= domainsOf.get(site) ?? 0;
    certs -= certsOf.get(site)?.size ?? 0;
    leftOut.push({
      siteId: site,
      reason:
        domains + (domainsOf.get(site) ?? 0) > limits.domains
          ? `the node would serve more than ${limits.domains} domains`
          : `the node would hold more than ${limits.certificates} certificates`,
    });
  }
  // Rows the schema refuses: each issue is traced to the site whose row it is.
  for (let round = 0; ; round++) {
    const plane = planWithout(out);
    const checked = dataPlaneSchema.safeParse({ ...plane, version: 'check' });
    const bytes = checked.success ? Buffer.byteLength(JSON.stringify(plane), 'utf8') : 0;
    if (checked.success && bytes <= limits.documentBytes) return { plane, leftOut };
    if (round >= 3) {
      throw new SnapshotBuildError(
        checked.success
          ? `the data plane is ${bytes} bytes, over the limit of ${limits.documentBytes}`
          : `the data plane breaks its schema: ${checked.error.issues[0]?.path.join('.')} ${checked.error.issues[0]?.message}`,
      );
    }
    if (!checked.success) {
      const blamed = new Map<number, string>();
      for (const issue of checked.error.issues) {
        for (const site of sitesOfIssue(plane, siteOf, issue.path)) {
          if (!blamed.has(site))
            blamed.set(site, `${issue.path.slice(2).join('.') || issue.path.join('.')}: ${issue.message}`);
        }
      }
      if (blamed.size === 0) {
        const first = checked.error.issues[0];
        throw new SnapshotBuildError(`the data plane breaks its schema: ${first?.path.join('.')} ${first?.message}`);
      }
      for (const [site, why] of [...blamed].sort(([a], [b]) => a - b)) {
        out.add(site);
        leftOut.push({ siteId: site, reason: `its configuration breaks the data plane's schema (${why})` });
      }
    } else {
      // Over the byte limit: the largest sites by their share of the document go first.
      const share = new Map<number, number>();
      for (const d of plane.domains) {
        const site = siteOf.get(d.id) ?? 0;
        share.set(site, (share.get(site) ?? 0) + JSON.stringify(d).length);
      }
      const byCert = new Map(plane.certificates.map((c) => [c.id, c.certPem.length + c.keyPem.length]));
      for (const [site, ids] of certsOf) {
        if (!share.has(site)) continue;
        for (const id of ids) share.set(site, (share.get(site) ?? 0) + (byCert.get(id) ?? 0));
      }
      let left = bytes;
      for (const [site, size] of [...share].sort(([a, x], [b, y]) => y - x || b - a)) {
        if (left <= limits.documentBytes) break;
        out.add(site);
        left -= size;
        leftOut.push({ siteId: site, reason: `the node's data plane would be over ${limits.documentBytes} bytes` });
      }
    }
  }
}

/** The sites whose rows an issue at `path` of the data plane is about. */
function sitesOfIssue(plane: DataPlane, siteOf: ReadonlyMap<number, number>, path: readonly PropertyKey[]): number[] {
  const [list, index] = path;
  if (typeof index !== 'number') return [];
  const bySite = (pick: (d: EdgeDomain) => boolean) => [
    ...new Set(plane.domains.filter(pick).map((d) => siteOf.get(d.id) ?? 0)),
  ];
  switch (list) {
    case 'domains': {
      const domain = plane.domains[index];
      return domain ? [siteOf.get(domain.id) ?? 0] : [];
    }
    case 'certificates': {
      const id = plane.certificates[index]?.id;
      return bySite((d) => d.certificateId === id);
    }
    case 'caches': {
      const id = plane.caches[index]?.id;
      return bySite((d) => d.cacheId === id);
    }
    case 'settings': {
      const id = plane.settings[index]?.id;
      return bySite((d) => d.settingsId === id);
    }
    case 'firewalls': {
      const id = plane.firewalls[index]?.id;
      return bySite((d) => d.firewallId === id);
    }
    case 'modules': {
      const id = plane.modules[index]?.id;
      return bySite((d) => (d.modules ? Object.values(d.modules).includes(id ?? -1) : false));
    }
    default:
      return [];
  }
}

/** A node's snapshot cannot be built at all; the message names the cause for the operator. */
export class SnapshotBuildError extends Error {}
