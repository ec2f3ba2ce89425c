import { createHash } from 'node:crypto';
import {
  type DataPlane,
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
import { edgeModulesOf } from '../site-modules/edge-modules.js';
import { edgeStreamPorts } from '../site-ports/edge-stream-ports.js';
import { edgeSiteSettings } from '../site-settings/site-settings.edge.js';
import { edgeCachePolicies } from '../sites/site-cache.service.js';
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

export class SnapshotBuilder {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  async build(nodeId: number, now: Date): Promise<EdgeSnapshot> {
    const content = await this.content(nodeId, now);
    const version = contentVersion(content);
    return {
      version,
      generatedAt: now.toISOString(),
      ...content,
      dataPlane: { ...content.dataPlane, version },
    };
  }

  private async content(nodeId: number, now: Date): Promise<SnapshotContent> {
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

    const caches = await edgeCachePolicies(this.db, [...new Set(domainRows.map((row) => row[7]))]);
    const cached = new Set(caches.map((policy) => policy.id));
    const siteModules = await edgeModulesOf(
      this.db,
      domainRows.map((row) => row[0]),
    );
    const settings = await edgeSiteSettings(this.db, [...new Set(domainRows.map((row) => row[7]))]);
    const withSettings = new Set(settings.map((entry) => entry.id));
    const out: EdgeDomain[] = [];
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
      out.push({
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

    const certIds = [...new Set(out.map((d) => d.certificateId).filter((id): id is number => id !== null))];
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
    const used = new Set(out.map((d) => d.cacheId));
    const usedSettings = new Set(out.map((d) => d.settingsId));
    const plane: DataPlane = {
      version: 'pending',
      domains: out,
      certificates: certs,
      caches: caches.filter((policy) => used.has(policy.id)),
      cacheEpoch,
      modules: siteModules.modules,
      settings: settings.filter((entry) => usedSettings.has(entry.id)),
      limits,
    };
    return { ...zoneLevel, dataPlane: plane };
  }
}
