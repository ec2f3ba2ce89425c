import { createHash } from 'node:crypto';
import type { DataPlane, EdgeCertificate, EdgeDomain, EdgeSnapshot } from '@rampart/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { Db } from '../../platform/db/database.js';
import { certificates, groupNodes, nodeGroups, nodes, productGroups, sites, zones } from '../../platform/db/schema.js';

/**
 * Builds what one node serves: node → its layer-7 groups → products using those groups (as main
 * or backup: backup nodes hold the configuration so a DNS switch to them serves at once) → those
 * products' sites → their enabled domains, upstreams and certificates.
 *
 * A domain of a site that is paused, limited or expired stays in the snapshot marked disabled, so
 * the edge answers it with the "disabled" page instead of "unknown host". Disabled domains are
 * left out (their names may belong to an enabled domain elsewhere).
 *
 * A node the operator switched off gets an empty data plane: it stays connected (commands, status)
 * but serves no site, so the edge answers every host with its unknown-host page.
 *
 * HTTP/2 and the force-SSL redirect code come from the node's zone. The listen ports are 80 and
 * 443 until zones get their own ports.
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
  siteServes: boolean,
  upstreams: [ip: string, port: number, weight: number, backup: boolean][],
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
        enabled: nodes.enabled,
        logRotateTime: nodes.logRotateTime,
        http2: zones.http2,
        forceSSLRedirectCode: zones.forceSSLRedirectCode,
      })
      .from(nodes)
      .leftJoin(zones, eq(zones.id, nodes.zoneId))
      .where(eq(nodes.id, nodeId));
    const empty = (initialized: boolean, http2: boolean = DEFAULT_LISTEN.http2): SnapshotContent => ({
      initialized,
      listen: {
        httpPorts: [...DEFAULT_LISTEN.httpPorts],
        httpsPorts: [...DEFAULT_LISTEN.httpsPorts],
        http2,
      },
      dataPlane: { version: 'pending', domains: [], certificates: [] },
      logRotateTime: node?.logRotateTime ?? null,
    });
    if (node?.status !== 'initialized') return empty(false);
    const http2 = node.http2 ?? DEFAULT_LISTEN.http2;
    if (!node.enabled) return empty(true, http2);
    const forceSSLCode = (node.forceSSLRedirectCode ?? DEFAULT_FORCE_SSL_CODE) as EdgeDomain['forceSSLCode'];

    const servedSites = this.db
      .selectDistinct({ id: sites.id })
      .from(sites)
      .innerJoin(productGroups, eq(productGroups.productId, sites.productId))
      .innerJoin(groupNodes, eq(groupNodes.groupId, productGroups.groupId))
      .innerJoin(nodeGroups, eq(nodeGroups.id, groupNodes.groupId))
      .where(and(eq(groupNodes.nodeId, nodeId), eq(nodeGroups.portType, 7), eq(sites.ownerId, node.ownerId)));

    // One query answering one JSON document: far cheaper than 10,000s of rows through the driver
    // (on PGlite most of the time went into row decoding). Upstreams ride along as [ip, port,
    // weight, backup] tuples, enabled ones only, in their id order.
    const served = await this.db.execute(sql`
      SELECT coalesce(json_agg(json_build_array(
        d.id, d.name, d.force_ssl, d.scheme, d.hash_type, d.host_name, d.certificate_id,
        s.status = 'normal' AND (s.expires_at IS NULL OR s.expires_at > ${now.toISOString()}::timestamptz),
        (SELECT coalesce(json_agg(json_build_array(u.ip, u.port, u.weight, u.backup) ORDER BY u.id), '[]'::json)
           FROM domain_upstreams u WHERE u.domain_id = d.id AND u.enabled)
      ) ORDER BY d.id), '[]'::json) AS doc
      FROM domains d JOIN sites s ON s.id = d.site_id
      WHERE d.enabled AND d.site_id IN ${servedSites}`);
    const raw = (served as unknown as { rows: { doc: unknown }[] }).rows[0]?.doc;
    const domainRows = (typeof raw === 'string' ? JSON.parse(raw) : raw) as ServedDomainRow[];
    if (domainRows.length === 0) return empty(true, http2);

    const out: EdgeDomain[] = [];
    for (const [
      id,
      name,
      forceSSL,
      scheme,
      hashType,
      hostName,
      certificateId,
      siteServes,
      upstreamTuples,
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
        origin: {
          scheme: scheme === 1 ? 'https' : 'http',
          host: hostName === '' ? null : hostName,
          balance: hashType === 1 ? 'ip_hash' : 'round_robin',
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
    return { ...empty(true, http2), dataPlane: plane };
  }
}
