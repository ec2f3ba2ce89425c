import {
  DATA_PLANE_LIMITS,
  type DataPlane,
  type EdgeAcmeChallenge,
  type EdgeDomain,
  type EdgeFirewall,
  EMPTY_NGINX_TUNING,
  LARGEST_ZONE_LIMITS,
  mergeNginxTuning,
  NO_REAL_IP,
  NODE_EXPORTER_DEFAULT,
} from '@rampart/contract';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { NodeReads } from './node-reads.js';
import { readSiteParts } from './site-parts.js';
import type { ServedDomainRow, SnapshotRepository } from './snapshot.repository.js';
import { fitSites, type LeftOutSite, type SnapshotLimits } from './snapshot-fit.js';
import {
  type BuiltSnapshot,
  contentVersion,
  DEFAULT_LISTEN,
  type EdgeProjections,
  emptyPlane,
  inChunks,
  MAX_CACHE_EPOCH,
  memoized,
  type NodeRow,
  nodeForceSSLCode,
  nodeOwnValues,
  type PlaneMemo,
  type SerializedPlane,
  type SharedDataPlane,
  type SharedPlane,
  type SiteLevelParts,
  type SiteParts,
  type SnapshotContent,
  serializePlane,
  snapshotJson,
  uniqueNames,
  usedParts,
} from './snapshot-plane.js';

/**
 * Builds what one node serves: node → its layer-7 groups → products using those groups (as main
 * or backup: backup nodes hold the configuration so a DNS switch to them serves at once) → those
 * products' sites → their enabled domains, upstreams and certificates.
 *
 * A domain that is not served — disabled itself, or of a site that is paused, limited or expired —
 * stays in the snapshot marked disabled and without its origin, modules or cache, so the edge
 * answers it with the "disabled" page (with the domain's certificate, in the site's language)
 * instead of "unknown host". A disabled domain whose name an enabled one of the node carries, or
 * an earlier disabled one (a disabled duplicate waiting in another site), is left out. Claims that
 * have not proved control of their name (pending or lost; see domain-proof.service.ts) are left
 * out whether enabled or not.
 *
 * A node the operator switched off gets an empty data plane: it stays connected (commands, status)
 * but serves no site, so the edge answers every host with its unknown-host page.
 *
 * The listen ports, HTTP/2, the force-SSL redirect code, the per-IP limits and the nginx settings
 * (when the zone turned them on) come from the node's zone. A node waiting to be placed listens on 80 and 443
 * and serves nothing.
 */

export class SnapshotBuilder {
  private readonly limits: SnapshotLimits;

  /** The key of nodes alike ({@link build}), per node row read. */
  private readonly alikeKeys = new WeakMap<object, string>();

  /** The nodes with their zones and groups, read once for many looks. */
  private readonly nodes: NodeReads;

  constructor(
    private readonly repository: SnapshotRepository,
    private readonly projections: EdgeProjections,
    private readonly box: SecretBox,
    limits: Partial<SnapshotLimits> = {},
  ) {
    this.nodes = new NodeReads(repository);
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
  async build(
    nodeId: number,
    now: Date,
    planes: PlaneMemo = new Map(),
    /** false: the node takes its data plane as entries (plane.service.ts); the snapshot's is empty. */
    withDataPlane = true,
  ): Promise<BuiltSnapshot> {
    const { node, groupIds } = await this.nodeAndGroups(nodeId, planes);
    // Nothing of a snapshot is the node's but what its row and groups say: nodes alike (one zone,
    // the same groups and own values, as every node a change wakes in a large group) share one
    // build within the memo's generation.
    let alike = node ? this.alikeKeys.get(node) : undefined;
    if (alike === undefined) {
      const { id: _id, ...rest } = node ?? { id: nodeId };
      alike = JSON.stringify(rest);
      if (node) this.alikeKeys.set(node, alike);
    }
    return memoized(planes, `snapshot|${withDataPlane}|${groupIds.join(',')}|${alike}`, () =>
      this.buildFor(node, groupIds, now, planes, withDataPlane),
    );
  }

  private async buildFor(
    node: NodeRow,
    groupIds: number[],
    now: Date,
    planes: PlaneMemo,
    withDataPlane: boolean,
  ): Promise<BuiltSnapshot> {
    const found: Omit<LeftOutSite, 'name'>[] = [];
    const { content, shared } = await this.content(node, groupIds, now, found, planes, withDataPlane);
    const names = await this.repository.siteNames(found.map((s) => s.siteId));
    const leftOut = found.map((s) => ({ ...s, name: names.find((n) => n.id === s.siteId)?.name ?? '' }));
    const version = contentVersion(content, shared.hash);
    const snapshot = {
      version,
      generatedAt: now.toISOString(),
      ...content,
      dataPlane: { ...content.dataPlane, version },
    };
    return { snapshot, leftOut, json: snapshotJson(snapshot, shared.json) };
  }

  private async content(
    node: NodeRow,
    groupIds: number[],
    now: Date,
    leftOut: Omit<LeftOutSite, 'name'>[],
    planes: PlaneMemo,
    withDataPlane: boolean,
  ): Promise<{ content: SnapshotContent; shared: SerializedPlane }> {
    const nodeExporter =
      (node &&
        (await memoized(planes, `exporter|${node.ownerId}`, async () =>
          this.projections.nodeExporter?.(node.ownerId),
        ))) ||
      NODE_EXPORTER_DEFAULT;
    const ownPart = { version: 'pending', ...nodeOwnValues(node) };
    const withOwn = (plane: SharedDataPlane, shared: SerializedPlane = serializePlane(plane)) => ({
      dataPlane: { ...plane, ...ownPart },
      shared,
    });
    if (node?.status !== 'initialized' || node.zoneId === null) {
      const { dataPlane, shared } = withOwn(emptyPlane());
      const content: SnapshotContent = {
        initialized: false,
        listen: {
          ...DEFAULT_LISTEN,
          httpPorts: [...DEFAULT_LISTEN.httpPorts],
          httpsPorts: [...DEFAULT_LISTEN.httpsPorts],
        },
        nginx: { ...EMPTY_NGINX_TUNING },
        realIp: { ...NO_REAL_IP, trusted: [] },
        dataPlane,
        streamPorts: [],
        l4: null,
        l4KernelBlocks: false,
        logRotateTime: node?.logRotateTime ?? null,
        nodeExporter,
      };
      return { content, shared };
    }
    const forceSSLCode = nodeForceSSLCode(node);
    const zoneId = node.zoneId;
    const ports = await memoized(planes, `ports|${zoneId}`, () => this.repository.zonePorts(zoneId));
    const zoneLevel = {
      initialized: true,
      listen: {
        httpPorts: ports.filter((p) => p.portType === 'http').map((p) => p.port),
        httpsPorts: ports.filter((p) => p.portType === 'https').map((p) => p.port),
        http2: node.http2 ?? DEFAULT_LISTEN.http2,
      },
      // Who may tell the nodes the visitor's address (the zone's trust setting, routes/zone-trust.ts).
      realIp: {
        trusted: node.trustedProxies ?? [],
        header: node.realIpHeader ?? NO_REAL_IP.header,
        proxyProtocol: node.proxyProtocol ?? false,
      },
      // The operator's settings under the zone's (when the zone turned its own on); both were
      // checked against the contract when written.
      nginx: mergeNginxTuning(
        await memoized(planes, `tuning|${node.ownerId}`, () => this.projections.nginxTuning(node.ownerId)),
        node.nginxEnabled && node.nginxTuning ? node.nginxTuning : null,
      ),
      logRotateTime: node.logRotateTime,
      streamPorts: [] as SnapshotContent['streamPorts'],
      l4: null as SnapshotContent['l4'],
      l4KernelBlocks: node.l4KernelBlocks ?? false,
      nodeExporter,
    };
    // The node's groups (those it is on, and those of virtual nodes naming it): with the owner they
    // decide the layer-4 ports below and the shared data plane.
    const nodeGroups = this.repository.groupsFilter(groupIds);
    // Layer-4 ports of sites served through the node's port-type-4 groups (rendered into nginx.conf).
    const listenPorts = [...zoneLevel.listen.httpPorts, ...zoneLevel.listen.httpsPorts];
    if (node.enabled) {
      zoneLevel.streamPorts = await memoized(
        planes,
        `stream|${node.ownerId}|${groupIds.join(',')}|${listenPorts.join(',')}`,
        () => this.projections.streamPorts(node.ownerId, nodeGroups, listenPorts, now),
      );
    }
    // Their layer-4 rules and the zone's layer-4 protection, for the node's kernel (a node switched
    // off keeps the zone's protection on its listen ports).
    const l4 = this.projections.l4;
    if (l4) {
      const zone = {
        guardedPorts: listenPorts,
        synFlood: node.l4SynFlood ?? null,
        newConnections: node.l4NewConnections ?? null,
        kernelBlocks: zoneLevel.l4KernelBlocks,
        escalation: (node.l4Escalation ?? null) !== null,
      };
      const streamPorts = zoneLevel.streamPorts;
      const built = await memoized(
        planes,
        `l4|${node.ownerId}|${JSON.stringify(streamPorts)}|${JSON.stringify(zone)}`,
        () => l4(node.ownerId, streamPorts, zone),
      );
      zoneLevel.l4 = built.l4;
      leftOut.push(...built.leftOut);
    }
    if (!node.enabled || !withDataPlane) {
      const { dataPlane, shared } = withOwn(emptyPlane());
      return { content: { ...zoneLevel, dataPlane }, shared };
    }
    // Everything else of the data plane follows from the owner and the groups: nodes with the same
    // share one build (within the generation `planes` is for).
    const key = `${node.ownerId}|${forceSSLCode}|${groupIds.join(',')}`;
    const built = await memoized(planes, key, () => this.sharedPlane(node.ownerId, groupIds, forceSSLCode, now));
    leftOut.push(...built.leftOut);
    const { dataPlane, shared: serialized } = withOwn(built.plane, built);
    return { content: { ...zoneLevel, dataPlane }, shared: serialized };
  }

  /**
   * What the sites of `domainRows` put into a data plane (every domain, a disabled namesake of
   * another included: {@link uniqueNames} picks), each value from that feature's projection: the
   * one code both the whole snapshot and the per-site entries (plane-entries.ts) are built with.
   */
  async siteParts(
    domainRows: readonly ServedDomainRow[],
    forceSSLCode: EdgeDomain['forceSSLCode'],
    /** The sites' site-level parts when the caller knows them as they are now (not read again). */
    known?: SiteLevelParts,
  ): Promise<SiteParts> {
    return readSiteParts(this.projections, this.repository, this.box, domainRows, forceSSLCode, known);
  }

  /**
   * The owner-level values of a plane with these firewalls (the plane's meta but for the node's own):
   * the same projections {@link sharedPlane} puts into the snapshot.
   */
  async ownerValues(ownerId: number, firewalls: readonly EdgeFirewall[], now: Date) {
    return { ...(await this.ownerSettings(ownerId, firewalls)), challenge: this.challenge(ownerId, firewalls, now) };
  }

  /** The owner's values of a plane's meta that do not move with time (read from the database). */
  async ownerSettings(ownerId: number, firewalls: readonly EdgeFirewall[]) {
    const errorPages = (await this.projections.errorPages?.(ownerId)) ?? [];
    const geoDatabase = (await this.projections.geoDatabase?.(ownerId)) ?? null;
    const abuseIPs = (await this.projections.abuseIPs?.(ownerId, firewalls)) ?? null;
    const allowPrivateOrigins = (await this.projections.privateOrigins?.(ownerId)) === true;
    return {
      ...(geoDatabase === null ? {} : { geoDatabase }),
      ...(abuseIPs === null ? {} : { abuseIPs }),
      ...(errorPages.length === 0 ? {} : { errorPages }),
      // Only when allowed: an agent that predates the field refuses a meta that carries it.
      ...(allowPrivateOrigins ? { allowPrivateOrigins: true as const } : {}),
    };
  }

  /** The challenge keys of the owner's plane at `now` (they rotate with time). */
  challenge(ownerId: number, firewalls: readonly EdgeFirewall[], now: Date) {
    return this.projections.challenge(ownerId, firewalls, now);
  }

  /** The node and its groups, as the snapshot reads them (NodeReads.nodeAndGroups). */
  nodeAndGroups(nodeId: number, memo?: PlaneMemo): Promise<{ node: NodeRow; groupIds: number[] }> {
    return this.nodes.nodeAndGroups(nodeId, memo);
  }

  /** A memo for the looks of `generation` (NodeReads.generationMemo). */
  generationMemo(generation: number): PlaneMemo {
    return this.nodes.generationMemo(generation);
  }

  /** The ACME challenges of these domains being issued (none without the projection). */
  async acmeChallenges(domainIds: number[]): Promise<EdgeAcmeChallenge[]> {
    const challenges = this.projections.acmeChallenges?.bind(this.projections);
    if (!challenges) return [];
    return (await inChunks(domainIds, (ids) => challenges(ids))).flat();
  }

  /**
   * The data plane of the owner's sites served through `groupIds` at `now` (with the zone's
   * force-SSL redirect code), but for the node's own values (filled in by `content`), with the sites
   * left out of it.
   */
  private async sharedPlane(
    ownerId: number,
    groupIds: readonly number[],
    forceSSLCode: EdgeDomain['forceSSLCode'],
    now: Date,
  ): Promise<SharedPlane> {
    const leftOut: Omit<LeftOutSite, 'name'>[] = [];
    // The operator's default pages, once per node (size-bounded: OPERATOR_ERROR_PAGES_MAX_BYTES); a
    // node without sites answers unknown hosts with them too.
    const errorPages = (await this.projections.errorPages?.(ownerId)) ?? [];
    const done = (plane: SharedDataPlane): SharedPlane => {
      const withPages = errorPages.length === 0 ? plane : { ...plane, errorPages };
      return { plane: withPages, leftOut, ...serializePlane(withPages) };
    };
    if (groupIds.length === 0) return done(emptyPlane());
    const domainRows = await this.repository.servedDomains(ownerId, this.repository.groupsFilter(groupIds), now);
    if (domainRows.length === 0) return done(emptyPlane());
    const parts = await this.siteParts(domainRows, forceSSLCode);
    const all = uniqueNames(parts.domains, domainRows);
    const planWithout = (out: ReadonlySet<number>): DataPlane => {
      const domains = out.size === 0 ? all : all.filter((d) => !out.has(parts.siteOf.get(d.id) ?? 0));
      const used = usedParts(domains, parts);
      return {
        // Measured with the largest values a node's own part can take, so that it fits every node.
        version: 'pending',
        cacheEpoch: MAX_CACHE_EPOCH,
        limits: LARGEST_ZONE_LIMITS,
        domains,
        ...used,
        challenge: this.projections.challenge(ownerId, used.firewalls, now),
      };
    };
    const siteOf = parts.siteOf;
    const fitted = fitSites(all, siteOf, planWithout, this.limits);
    leftOut.push(...fitted.leftOut);
    const { version: _v, cacheEpoch: _c, limits: _l, ...plane } = fitted.plane;
    // The operator's geo database, for the geo rules (the agent fetches the file by its hash).
    const geoDatabase = (await this.projections.geoDatabase?.(ownerId)) ?? null;
    // The operator's reputation list, only for a node one of whose sites uses it.
    const abuseIPs = (await this.projections.abuseIPs?.(ownerId, plane.firewalls)) ?? null;
    // Challenges of the domains the node carries, served or not (docs/decisions.md "Automatic certificates").
    const acmeChallenges = await this.acmeChallenges(plane.domains.map((d) => d.id));
    return done({
      ...plane,
      ...(geoDatabase === null ? {} : { geoDatabase }),
      ...(abuseIPs === null ? {} : { abuseIPs }),
      ...(acmeChallenges.length === 0 ? {} : { acmeChallenges }),
    });
  }
}
