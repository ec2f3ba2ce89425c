import { createHash } from 'node:crypto';
import {
  DATA_PLANE_LIMITS,
  type DataPlane,
  dataPlaneSchema,
  type EdgeCertificate,
  type EdgeDomain,
  type EdgeSnapshot,
  EMPTY_NGINX_TUNING,
  mergeNginxTuning,
  NO_ZONE_LIMITS,
} from '@rampart/contract';
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { Db } from '../../platform/db/database.js';
import {
  certificates,
  groupNodes,
  groupVirtualNodes,
  nodeGroups,
  nodes,
  productGroups,
  sites,
  virtualNodeRecords,
  zones,
} from '../../platform/db/schema.js';
import { edgeModulesOf } from '../site-modules/site-modules.edge.js';
import { edgeStreamPorts } from '../site-ports/site-ports.edge.js';
import { edgeSiteSettings } from '../site-settings/site-settings.edge.js';
import { edgeCachePolicies } from '../sites/site-cache.edge.js';
import { OperatorNginxService } from '../zones/operator-nginx.service.js';
import { ZoneSettingsRepository } from '../zones/zone-settings.repository.js';

/**
 * Builds what one node serves: node → its layer-7 groups → products using those groups (as main
 * or backup: backup nodes hold the configuration so a DNS switch to them serves at once) → those
 * products' sites → their enabled domains, upstreams and certificates.
 *
 * A domain of a site that is paused, limited or expired stays in the snapshot marked disabled, so
 * the edge answers it with the "disabled" page instead of "unknown host". Disabled domains are
 * left out (their names may belong to an enabled domain elsewhere), and so are claims that have
 * not proved control of their name (pending or lost; see domain-proof.service.ts).
 *
 * A node the operator switched off gets an empty data plane: it stays connected (commands, status)
 * but serves no site, so the edge answers every host with its unknown-host page.
 *
 * The listen ports, HTTP/2, the force-SSL redirect code, the per-IP limits and the nginx settings
 * (when the zone turned them on) come from the node's zone. A node waiting to be placed listens on 80 and 443
 * and serves nothing.
 */
export const DEFAULT_LISTEN = { httpPorts: [80], httpsPorts: [443], http2: true } as const;
const DEFAULT_FORCE_SSL_CODE = 301;

/** A served domain as the builder's query answers it (see the json_build_array there). */
type ServedDomainRow = [
  id: number,
  name: string,
  forceSSL: boolean,
  scheme: 0 | 1,
  hashType: 0 | 1,
  hostName: string,
  certificateId: number | null,
  siteId: number,
  siteServes: boolean,
  upstreams: [ip: string, port: number, weight: number, backup: boolean][],
  portMap: boolean,
];

export type SnapshotContent = Omit<EdgeSnapshot, 'version' | 'generatedAt'>;

/** Equal content gives an equal version, on every build and every control-plane process. */
export function contentVersion(content: SnapshotContent): string {
  const { dataPlane, ...rest } = content;
  const { version: _ignored, ...plane } = dataPlane;
  return createHash('sha256')
    .update(JSON.stringify({ ...rest, dataPlane: plane }))
    .digest('hex')
    .slice(0, 32);
}

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

/** A node's snapshot with the sites it could not carry. */
export interface BuiltSnapshot {
  snapshot: EdgeSnapshot;
  leftOut: LeftOutSite[];
}

export class SnapshotBuilder {
  private readonly limits: SnapshotLimits;

  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    limits: Partial<SnapshotLimits> = {},
  ) {
    this.limits = {
      domains: Math.min(limits.domains ?? DATA_PLANE_LIMITS.domains, DATA_PLANE_LIMITS.domains),
      certificates: Math.min(limits.certificates ?? DATA_PLANE_LIMITS.certificates, DATA_PLANE_LIMITS.certificates),
      documentBytes: Math.min(limits.documentBytes ?? DATA_PLANE_LIMITS.documentBytes, DATA_PLANE_LIMITS.documentBytes),
    };
  }

  /**
   * The node's snapshot. It always fits the data plane's schema: sites that would take it over a
   * limit, or whose rows the schema refuses, are left out whole and named in `leftOut`, so one
   * tenant can never stop a node from taking every other tenant's changes.
   */
  async build(nodeId: number, now: Date): Promise<BuiltSnapshot> {
    const found: Omit<LeftOutSite, 'name'>[] = [];
    const content = await this.content(nodeId, now, found);
    const names =
      found.length === 0
        ? []
        : await this.db
            .select({ id: sites.id, name: sites.name })
            .from(sites)
            .where(
              inArray(
                sites.id,
                found.map((s) => s.siteId),
              ),
            );
    const leftOut = found.map((s) => ({ ...s, name: names.find((n) => n.id === s.siteId)?.name ?? '' }));
    const version = contentVersion(content);
    const snapshot = {
      version,
      generatedAt: now.toISOString(),
      ...content,
      dataPlane: { ...content.dataPlane, version },
    };
    return { snapshot, leftOut };
  }

  private async content(nodeId: number, now: Date, leftOut: Omit<LeftOutSite, 'name'>[]): Promise<SnapshotContent> {
    const [node] = await this.db
      .select({
        ownerId: nodes.ownerId,
        status: nodes.status,
        zoneId: nodes.zoneId,
        enabled: nodes.enabled,
        logRotateTime: nodes.logRotateTime,
        cacheEpoch: nodes.cacheEpoch,
        http2: zones.http2,
        forceSSLRedirectCode: zones.forceSSLRedirectCode,
        invalidDomainLimitCount: zones.invalidDomainLimitCount,
        tlsLimitCount: zones.tlsLimitCount,
        nginxEnabled: zones.nginxEnabled,
        nginxTuning: zones.nginxTuning,
      })
      .from(nodes)
      .leftJoin(zones, eq(zones.id, nodes.zoneId))
      .where(eq(nodes.id, nodeId));
    const cacheEpoch = node?.cacheEpoch ?? 0;
    // The zone's limits (docs/decisions.md "Zone limits") hold for every host, served or not, so
    // they ride along even when the node serves no domain.
    const limits: DataPlane['limits'] =
      node?.status === 'initialized' && node.zoneId !== null
        ? {
            invalidDomainPerMinute: node.invalidDomainLimitCount ?? 0,
            tlsHandshakesPerMinute: node.tlsLimitCount ?? 0,
          }
        : { ...NO_ZONE_LIMITS };
    const noDomains = (): DataPlane => ({
      version: 'pending',
      domains: [],
      certificates: [],
      caches: [],
      cacheEpoch,
      modules: [],
      settings: [],
      limits,
    });
    if (node?.status !== 'initialized' || node.zoneId === null) {
      return {
        initialized: false,
        listen: {
          ...DEFAULT_LISTEN,
          httpPorts: [...DEFAULT_LISTEN.httpPorts],
          httpsPorts: [...DEFAULT_LISTEN.httpsPorts],
        },
        nginx: { ...EMPTY_NGINX_TUNING },
        dataPlane: noDomains(),
        streamPorts: [],
        logRotateTime: node?.logRotateTime ?? null,
      };
    }
    const forceSSLCode = (node.forceSSLRedirectCode ?? DEFAULT_FORCE_SSL_CODE) as EdgeDomain['forceSSLCode'];
    const ports = await new ZoneSettingsRepository(this.db).ports(node.zoneId);
    const zoneLevel = {
      initialized: true,
      listen: {
        httpPorts: ports.filter((p) => p.portType === 'http').map((p) => p.port),
        httpsPorts: ports.filter((p) => p.portType === 'https').map((p) => p.port),
        http2: node.http2 ?? DEFAULT_LISTEN.http2,
      },
      // The operator's settings under the zone's (when the zone turned its own on); both were
      // checked against the contract when written.
      nginx: mergeNginxTuning(
        await new OperatorNginxService(this.db).tuning(node.ownerId),
        node.nginxEnabled && node.nginxTuning ? node.nginxTuning : null,
      ),
      logRotateTime: node.logRotateTime,
      streamPorts: [] as SnapshotContent['streamPorts'],
    };
    const empty = (): SnapshotContent => ({ ...zoneLevel, dataPlane: noDomains() });
    if (!node.enabled) return empty();

    // The node's groups: those it is on (any line), and those a virtual node naming it is on,
    // since DNS sends that virtual node's traffic to the node's IPs.
    const directGroups = this.db
      .select({ id: groupNodes.groupId })
      .from(groupNodes)
      .where(eq(groupNodes.nodeId, nodeId));
    const virtualGroups = this.db
      .select({ id: groupVirtualNodes.groupId })
      .from(groupVirtualNodes)
      .innerJoin(virtualNodeRecords, eq(virtualNodeRecords.virtualNodeId, groupVirtualNodes.virtualNodeId))
      .where(eq(virtualNodeRecords.nodeId, nodeId));
    // Layer-4 ports of sites served through the node's port-type-4 groups (rendered into nginx.conf).
    zoneLevel.streamPorts = await edgeStreamPorts(
      this.db,
      node.ownerId,
      or(inArray(productGroups.groupId, directGroups), inArray(productGroups.groupId, virtualGroups)),
      [...zoneLevel.listen.httpPorts, ...zoneLevel.listen.httpsPorts],
      now,
    );
    const servedSites = this.db
      .selectDistinct({ id: sites.id })
      .from(sites)
      .innerJoin(productGroups, eq(productGroups.productId, sites.productId))
      .innerJoin(nodeGroups, eq(nodeGroups.id, productGroups.groupId))
      .where(
        and(
          or(inArray(productGroups.groupId, directGroups), inArray(productGroups.groupId, virtualGroups)),
          eq(nodeGroups.portType, 7),
          eq(sites.ownerId, node.ownerId),
        ),
      );

    // One query answering one JSON document: far cheaper than 10,000s of rows through the driver
    // (on PGlite most of the time went into row decoding). Upstreams ride along as [ip, port,
    // weight, backup] tuples, enabled ones only, in their id order.
    const served = await this.db.execute(sql`
      SELECT coalesce(json_agg(json_build_array(
        d.id, d.name, d.force_ssl, d.scheme, d.hash_type, d.host_name, d.certificate_id, d.site_id,
        s.status = 'normal' AND (s.expires_at IS NULL OR s.expires_at > ${now.toISOString()}::timestamptz),
        (SELECT coalesce(json_agg(json_build_array(u.ip, u.port, u.weight, u.backup) ORDER BY u.id), '[]'::json)
           FROM domain_upstreams u WHERE u.domain_id = d.id AND u.enabled),
        d.port_map
      ) ORDER BY d.id), '[]'::json) AS doc
      FROM domains d JOIN sites s ON s.id = d.site_id
      WHERE d.enabled AND d.proof_status IN (1, 2) AND d.site_id IN ${servedSites}`);
    const raw = (served as unknown as { rows: { doc: unknown }[] }).rows[0]?.doc;
    const domainRows = (typeof raw === 'string' ? JSON.parse(raw) : raw) as ServedDomainRow[];
    if (domainRows.length === 0) return empty();

    const siteIds = [...new Set(domainRows.map((row) => row[7]))];
    const caches = await edgeCachePolicies(this.db, siteIds);
    const cached = new Set(caches.map((policy) => policy.id));
    const siteModules = await edgeModulesOf(
      this.db,
      domainRows.map((row) => row[0]),
    );
    const settings = await edgeSiteSettings(this.db, siteIds);
    const withSettings = new Set(settings.map((entry) => entry.id));
    const all: EdgeDomain[] = [];
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
      siteServes,
      upstreamTuples,
      portMap,
    ] of domainRows) {
      const upstreams = upstreamTuples.map(([ip, port, weight, backup]) => ({ ip, port, weight, backup }));
      // The API refuses this (401008); a row in that state is skipped rather than breaking the node.
      if (!upstreams.some((u) => !u.backup)) continue;
      siteOf.set(id, siteId);
      all.push({
        id,
        name,
        enabled: siteServes,
        forceSSL,
        forceSSLCode,
        certificateId,
        cacheId: cached.has(siteId) ? siteId : null,
        modules: siteModules.byDomain.get(id) ?? null,
        settingsId: withSettings.has(siteId) ? siteId : null,
        origin: {
          scheme: scheme === 1 ? 'https' : 'http',
          host: hostName === '' ? null : hostName,
          balance: hashType === 1 ? 'ip_hash' : 'round_robin',
          portMap,
          upstreams,
        },
      });
    }

    const certIds = [...new Set(all.map((d) => d.certificateId).filter((id): id is number => id !== null))];
    const certRows =
      certIds.length === 0
        ? []
        : await this.db
            .select({ id: certificates.id, certPem: certificates.certPem, keySealed: certificates.keySealed })
            .from(certificates)
            .where(inArray(certificates.id, certIds))
            .orderBy(asc(certificates.id));
    const certs: EdgeCertificate[] = certRows.map((c) => ({
      id: c.id,
      certPem: c.certPem,
      keyPem: this.box.open(c.keySealed),
    }));
    const planWithout = (out: ReadonlySet<number>): DataPlane => {
      const domains = out.size === 0 ? all : all.filter((d) => !out.has(siteOf.get(d.id) ?? 0));
      const usedCerts = new Set(domains.map((d) => d.certificateId));
      const usedCaches = new Set(domains.map((d) => d.cacheId));
      const usedSettings = new Set(domains.map((d) => d.settingsId));
      const usedModules = new Set(
        domains.flatMap((d) => (d.modules ? Object.values(d.modules).filter((m) => m !== null) : [])),
      );
      return {
        version: 'pending',
        domains,
        certificates: certs.filter((cert) => usedCerts.has(cert.id)),
        caches: caches.filter((policy) => usedCaches.has(policy.id)),
        cacheEpoch,
        modules: siteModules.modules.filter((module) => usedModules.has(module.id)),
        settings: settings.filter((entry) => usedSettings.has(entry.id)),
        limits,
      };
    };
    const fitted = fitSites(all, siteOf, planWithout, this.limits);
    leftOut.push(...fitted.leftOut);
    const plane = fitted.plane;
    return { ...zoneLevel, dataPlane: plane };
  }
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
