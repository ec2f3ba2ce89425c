import { createHash } from 'node:crypto';
import type { DataPlane, EdgeCertificate, EdgeDomain, EdgeSnapshot } from '@rampart/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { Db } from '../../platform/db/database.js';
import {
  certificates,
  domains,
  domainUpstreams,
  groupNodes,
  nodeGroups,
  nodes,
  productGroups,
  sites,
} from '../../platform/db/schema.js';

/**
 * Builds what one node serves: node → its layer-7 groups → products using those groups (as main
 * or backup: backup nodes hold the configuration so a DNS switch to them serves at once) → those
 * products' sites → their enabled domains, upstreams and certificates.
 *
 * A domain of a site that is paused, limited or expired stays in the snapshot marked disabled, so
 * the edge answers it with the "disabled" page instead of "unknown host". Disabled domains are
 * left out (their names may belong to an enabled domain elsewhere).
 *
 * Zone-level listen settings come with the zone-settings work; until then every node listens on
 * 80 and 443 with HTTP/2 and force-SSL redirects use 301.
 */
export const DEFAULT_LISTEN = { httpPorts: [80], httpsPorts: [443], http2: true } as const;
const FORCE_SSL_CODE = 301;

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
    const empty = (initialized: boolean): SnapshotContent => ({
      initialized,
      listen: {
        ...DEFAULT_LISTEN,
        httpPorts: [...DEFAULT_LISTEN.httpPorts],
        httpsPorts: [...DEFAULT_LISTEN.httpsPorts],
      },
      dataPlane: { version: 'pending', domains: [], certificates: [] },
    });
    const [node] = await this.db
      .select({ ownerId: nodes.ownerId, status: nodes.status })
      .from(nodes)
      .where(eq(nodes.id, nodeId));
    if (node?.status !== 'initialized') return empty(false);

    const servedSites = this.db
      .selectDistinct({ id: sites.id })
      .from(sites)
      .innerJoin(productGroups, eq(productGroups.productId, sites.productId))
      .innerJoin(groupNodes, eq(groupNodes.groupId, productGroups.groupId))
      .innerJoin(nodeGroups, eq(nodeGroups.id, groupNodes.groupId))
      .where(and(eq(groupNodes.nodeId, nodeId), eq(nodeGroups.portType, 7), eq(sites.ownerId, node.ownerId)));

    const domainRows = await this.db
      .select({
        id: domains.id,
        name: domains.name,
        forceSSL: domains.forceSSL,
        scheme: domains.scheme,
        hashType: domains.hashType,
        hostName: domains.hostName,
        certificateId: domains.certificateId,
        siteStatus: sites.status,
        siteExpiresAt: sites.expiresAt,
      })
      .from(domains)
      .innerJoin(sites, eq(sites.id, domains.siteId))
      .where(and(eq(domains.enabled, true), inArray(domains.siteId, servedSites)))
      .orderBy(asc(domains.id));
    if (domainRows.length === 0)
      return { ...empty(true), dataPlane: { version: 'pending', domains: [], certificates: [] } };

    const upstreamRows = await this.db
      .select({
        domainId: domainUpstreams.domainId,
        ip: domainUpstreams.ip,
        port: domainUpstreams.port,
        weight: domainUpstreams.weight,
        backup: domainUpstreams.backup,
      })
      .from(domainUpstreams)
      .innerJoin(domains, eq(domains.id, domainUpstreams.domainId))
      .where(and(eq(domainUpstreams.enabled, true), eq(domains.enabled, true), inArray(domains.siteId, servedSites)))
      .orderBy(asc(domainUpstreams.domainId), asc(domainUpstreams.id));
    const upstreamsOf = new Map<number, EdgeDomain['origin']['upstreams']>();
    for (const u of upstreamRows) {
      const list = upstreamsOf.get(u.domainId) ?? [];
      list.push({ ip: u.ip, port: u.port, weight: u.weight, backup: u.backup });
      upstreamsOf.set(u.domainId, list);
    }

    const out: EdgeDomain[] = [];
    for (const d of domainRows) {
      const upstreams = upstreamsOf.get(d.id) ?? [];
      // The API refuses this (401008); a row in that state is skipped rather than breaking the node.
      if (!upstreams.some((u) => !u.backup)) continue;
      const siteServes = d.siteStatus === 'normal' && (d.siteExpiresAt === null || d.siteExpiresAt > now);
      out.push({
        id: d.id,
        name: d.name,
        enabled: siteServes,
        forceSSL: d.forceSSL,
        forceSSLCode: FORCE_SSL_CODE,
        certificateId: d.certificateId,
        origin: {
          scheme: d.scheme === 1 ? 'https' : 'http',
          host: d.hostName === '' ? null : d.hostName,
          balance: d.hashType === 1 ? 'ip_hash' : 'round_robin',
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
    const plane: DataPlane = { version: 'pending', domains: out, certificates: certs };
    return { ...empty(true), dataPlane: plane };
  }
}
