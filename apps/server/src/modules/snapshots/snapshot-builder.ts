import { createHash } from 'node:crypto';
import {
  DATA_PLANE_LIMITS,
  type DataPlane,
  type EdgeAcmeChallenge,
  type EdgeCachePolicy,
  type EdgeCertificate,
  type EdgeChallenge,
  type EdgeDomain,
  type EdgeDomainAccess,
  type EdgeDomainAuth,
  type EdgeDomainModules,
  type EdgeErrorPage,
  type EdgeFirewall,
  type EdgeModule,
  type EdgeSiteSettings,
  type EdgeSnapshot,
  type EdgeStreamPort,
  EMPTY_NGINX_TUNING,
  emptyEdgeFirewall,
  type L4Rate,
  type L4Rules,
  mergeNginxTuning,
  type NginxTuning,
  NO_REAL_IP,
  NO_ZONE_LIMITS,
  NODE_EXPORTER_DEFAULT,
  type NodeExporter,
  noChallenge,
  ZONE_LIMIT_MAX,
} from '@rampart/contract';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { NodeGroups, NodeWithZone, ServedDomainRow, SnapshotRepository } from './snapshot.repository.js';
import { fitSites, type LeftOutSite, type SnapshotLimits } from './snapshot-fit.js';

export { type LeftOutSite, SnapshotBuildError, type SnapshotLimits } from './snapshot-fit.js';

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
export const DEFAULT_LISTEN = { httpPorts: [80], httpsPorts: [443], http2: true } as const;
const DEFAULT_FORCE_SSL_CODE = 301;
/** The largest cache epoch the data plane's schema takes (a shared plane is measured with it). */
const MAX_CACHE_EPOCH = 2_147_483_647;

export type SnapshotContent = Omit<EdgeSnapshot, 'version' | 'generatedAt'>;

/** The data plane but for what is the node's own (its cache epoch, its zone's limits) and the version. */
export type SharedDataPlane = Omit<DataPlane, 'version' | 'cacheEpoch' | 'limits'>;

/**
 * What nodes of one owner with the same groups serve, built once for all of them: the data plane
 * but for the node's own values, the sites left out of it, and its hash (what the version is made of).
 */
export interface SharedPlane extends SerializedPlane {
  readonly plane: SharedDataPlane;
  readonly leftOut: readonly Omit<LeftOutSite, 'name'>[];
}

/** A shared plane as JSON text and the hash of that text: made once, however many nodes take it. */
export interface SerializedPlane {
  readonly json: string;
  readonly hash: string;
}

/**
 * What nodes share within one configuration generation (SnapshotsService keeps it): the planes by
 * owner and groups, and the owner's, zone's and groups' zone-level values. With 100 nodes in the
 * same groups a change costs one build of each, not 100.
 */
export type PlaneMemo = Map<string, Promise<unknown>>;
/**
 * The node rows one change's looks share are at most this old (what changes without a write — a
 * node registering — shows as late as a plane poll's tick would have seen it).
 */
const NODES_SHARED_MS = 1000;

/** `make()` once per `key` of `memo`; a failure is not kept (the next node tries again). */
export function memoized<T>(memo: PlaneMemo, key: string, make: () => PromiseLike<T>): Promise<T> {
  let hit = memo.get(key) as Promise<T> | undefined;
  if (!hit) {
    // Adopted once into a promise of its own: a query builder (drizzle's QueryPromise) is a
    // thenable that runs its query again on every `then`, so kept as it is, every node's await
    // (and the `catch` below) would have queried the database again.
    hit = Promise.resolve(make());
    memo.set(key, hit);
    hit.catch(() => memo.delete(key));
  }
  return hit;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A data plane serving no domain. */
function emptyPlane(): SharedDataPlane {
  return {
    domains: [],
    certificates: [],
    caches: [],
    modules: [],
    settings: [],
    firewalls: [],
    challenge: noChallenge(),
  };
}

/** A shared plane's text and hash: computed once per build, however many nodes take it. */
export function serializePlane(plane: SharedDataPlane): SerializedPlane {
  const json = JSON.stringify(plane);
  return { json, hash: sha256(json) };
}

/**
 * The snapshot as JSON text (what the node's poll answers), with its shared plane's text spliced
 * in rather than serialised again for every node: the node's own values of the data plane first,
 * then the shared plane's.
 */
export function snapshotJson(snapshot: EdgeSnapshot, sharedJson: string): string {
  const { dataPlane, ...rest } = snapshot;
  const own = JSON.stringify({
    version: dataPlane.version,
    cacheEpoch: dataPlane.cacheEpoch,
    limits: dataPlane.limits,
  });
  const plane = sharedJson === '{}' ? own : `${own.slice(0, -1)},${sharedJson.slice(1)}`;
  return `${JSON.stringify(rest).slice(0, -1)},"dataPlane":${plane}}`;
}

/**
 * Equal content gives an equal version, on every build and every control-plane process: the hash
 * of the node's own part and of its shared plane's hash (so the large part is hashed once).
 */
export function contentVersion(content: SnapshotContent, sharedHash: string): string {
  const { dataPlane, ...rest } = content;
  return sha256(
    JSON.stringify({ ...rest, cacheEpoch: dataPlane.cacheEpoch, limits: dataPlane.limits, plane: sharedHash }),
  ).slice(0, 32);
}

/**
 * Each feature's part of a node's data plane, read by that feature's `*.edge.ts` projection (bound
 * in app.ts), so the builder depends on what each part is, not on how a feature stores it.
 */
export interface EdgeProjections {
  /** The layer-4 ports of the operator's sites served through the node's groups (site-ports). */
  streamPorts(
    ownerId: number,
    nodeGroups: NodeGroups,
    listenPorts: readonly number[],
    now: Date,
  ): Promise<EdgeStreamPort[]>;
  /** The cache policies of the sites that have one (sites' cache rules). */
  cachePolicies(siteIds: number[]): Promise<EdgeCachePolicy[]>;
  /** The modules bound to the domains, and per domain its module ids by type (site-modules). */
  modules(
    domainIds: number[],
  ): Promise<{ byDomain: Map<number, NonNullable<EdgeDomainModules>>; modules: EdgeModule[] }>;
  /** The edge settings of the sites that have any (site-settings). */
  siteSettings(siteIds: number[]): Promise<EdgeSiteSettings[]>;
  /** The layer-7 firewalls of the sites that have a rule (firewall). */
  firewalls(siteIds: number[]): Promise<EdgeFirewall[]>;
  /** The anti-referer and anti-header lists of the domains that have an enabled one (firewall). */
  domainAccess(domainIds: number[]): Promise<Map<number, EdgeDomainAccess>>;
  /** The auth rules and groups of the served domains that a rule covers (site-auth). */
  domainAuth?(domains: readonly { id: number; siteId: number }[]): Promise<Map<number, EdgeDomainAuth>>;
  /** The operator's own nginx settings (zones' operator nginx settings). */
  nginxTuning(ownerId: number): Promise<NginxTuning>;
  /** The keys of the operator's challenge passes at `now`, when `firewalls` challenge (firewall). */
  challenge(ownerId: number, firewalls: readonly EdgeFirewall[], now: Date): EdgeChallenge;
  /** The SHA-256 of the operator's geo database, or null (geo/geo-database.service.ts). */
  geoDatabase?(ownerId: number): Promise<string | null>;
  /**
   * The SHA-256 of the operator's reputation list file when one of `firewalls` uses it, or null
   * (firewall/reputation.service.ts).
   */
  abuseIPs?(ownerId: number, firewalls: readonly EdgeFirewall[]): Promise<string | null>;
  /** The operator's node exporter setting (system/node-exporter.service.ts); absent: nobody may scrape. */
  nodeExporter?(ownerId: number): Promise<NodeExporter>;
  /** The ACME HTTP-01 challenges of these domains being issued (auto-certificates). */
  acmeChallenges?(domainIds: number[]): Promise<EdgeAcmeChallenge[]>;
  /** The operator's default error pages (system/system-settings.service.ts). */
  errorPages?(ownerId: number): Promise<EdgeErrorPage[]>;
  /**
   * The node's layer-4 document for its stream ports and its zone's layer-4 protection, with the
   * sites whose rules it cannot enforce (firewall/firewall-l4.edge.ts).
   */
  l4?(
    ownerId: number,
    streamPorts: readonly EdgeStreamPort[],
    zone: { guardedPorts: number[]; synFlood: L4Rate | null; newConnections: L4Rate | null; kernelBlocks: boolean },
  ): Promise<{ l4: L4Rules | null; leftOut: { siteId: number; reason: string }[] }>;
}

type NodeRow = Awaited<ReturnType<SnapshotRepository['nodeWithZone']>>;

/** The node's own values of its data plane (both paths: the snapshot and the plane's meta). */
export function nodeOwnValues(node: NodeRow): Pick<DataPlane, 'cacheEpoch' | 'limits'> {
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
  return { cacheEpoch, limits };
}

/** The zone's force-SSL redirect code for the node's domains. */
export function nodeForceSSLCode(node: NodeRow): EdgeDomain['forceSSLCode'] {
  return (node?.forceSSLRedirectCode ?? DEFAULT_FORCE_SSL_CODE) as EdgeDomain['forceSSLCode'];
}

/** A node's snapshot with the sites it could not carry. */
export interface BuiltSnapshot {
  snapshot: EdgeSnapshot;
  leftOut: LeftOutSite[];
  /** The snapshot as JSON text ({@link snapshotJson}). */
  json: string;
}

/**
 * The parts of a set of sites that depend on the sites alone (each keyed by its site's id), as
 * their projections answer them: what a per-domain rebuild may reuse (plane-entries.ts).
 */
export interface SiteLevelParts {
  readonly caches: readonly EdgeCachePolicy[];
  readonly settings: readonly EdgeSiteSettings[];
  readonly firewalls: readonly EdgeFirewall[];
}

/** Of `level`, the parts of one site. */
export function siteLevelOf(level: SiteLevelParts, siteId: number): SiteLevelParts {
  return {
    caches: level.caches.filter((part) => part.id === siteId),
    settings: level.settings.filter((part) => part.id === siteId),
    firewalls: level.firewalls.filter((part) => part.id === siteId),
  };
}

/** What a set of sites puts into a data plane ({@link SnapshotBuilder.siteParts}). */
export interface SiteParts {
  /** Every domain of the rows in their order, namesakes included ({@link uniqueNames}). */
  readonly domains: EdgeDomain[];
  readonly siteOf: Map<number, number>;
  readonly certificates: EdgeCertificate[];
  readonly caches: EdgeCachePolicy[];
  readonly modules: EdgeModule[];
  readonly settings: EdgeSiteSettings[];
  readonly firewalls: EdgeFirewall[];
  /** The site-level parts as read (or as given), before a domain's lists added an empty firewall. */
  readonly level: SiteLevelParts;
}

/**
 * One domain per name: a served domain's name is unique among live claims (the partial unique
 * index); a disabled one gives way to a served namesake of `rows`, and to an earlier disabled one.
 */
export function uniqueNames(domains: readonly EdgeDomain[], rows: readonly ServedDomainRow[]): EdgeDomain[] {
  const servedNames = new Set(rows.filter((row) => row[8]).map((row) => row[1]));
  const disabledNames = new Set<string>();
  return domains.filter((domain) => {
    if (domain.enabled) return true;
    if (servedNames.has(domain.name) || disabledNames.has(domain.name)) return false;
    disabledNames.add(domain.name);
    return true;
  });
}

/** The ids of the certificates, caches, modules, settings and firewalls `domains` use. */
export function usedIds(domains: readonly EdgeDomain[]) {
  return {
    certificates: new Set(domains.map((d) => d.certificateId)),
    caches: new Set(domains.map((d) => d.cacheId)),
    modules: new Set(domains.flatMap((d) => (d.modules ? Object.values(d.modules).filter((m) => m !== null) : []))),
    settings: new Set(domains.map((d) => d.settingsId)),
    firewalls: new Set(domains.map((d) => d.firewallId)),
  };
}

/** Of `parts`, what `domains` use (by their certificate, cache, module, settings and firewall ids). */
export function usedParts(
  domains: readonly EdgeDomain[],
  parts: SiteParts,
): Pick<DataPlane, 'certificates' | 'caches' | 'modules' | 'settings' | 'firewalls'> {
  const used = usedIds(domains);
  return {
    certificates: parts.certificates.filter((cert) => used.certificates.has(cert.id)),
    caches: parts.caches.filter((policy) => used.caches.has(policy.id)),
    modules: parts.modules.filter((module) => used.modules.has(module.id)),
    settings: parts.settings.filter((entry) => used.settings.has(entry.id)),
    firewalls: parts.firewalls.filter((entry) => used.firewalls.has(entry.id)),
  };
}

/**
 * A projection's answer for `items` read in chunks: a query takes at most 65,535 bound values, and
 * the plane path builds sites of 100,000 domains.
 */
async function inChunks<T, R>(items: readonly T[], read: (chunk: T[]) => Promise<R>, size = 20_000): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length || i === 0; i += size) out.push(await read(items.slice(i, i + size)));
  return out;
}

export class SnapshotBuilder {
  private readonly limits: SnapshotLimits;

  /** Every node as read at a version of them ({@link nodesAtVersion}); shared, never changed. */
  private nodesKept: { version: number; rows: Map<number, { node: NodeWithZone; groupIds: number[] }> } | null = null;
  /** The key of nodes alike ({@link build}), per node row read. */
  private readonly alikeKeys = new WeakMap<object, string>();

  /** The last read of every node ({@link everyNode}). */
  private nodesRead: {
    generation: number;
    at: number;
    rows: Promise<Map<number, { node: NodeWithZone; groupIds: number[] }>>;
  } | null = null;

  constructor(
    private readonly repository: SnapshotRepository,
    private readonly projections: EdgeProjections,
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
    const siteIds = [...new Set(domainRows.map((row) => row[7]))];
    const level: SiteLevelParts = known ?? {
      caches: await this.projections.cachePolicies(siteIds),
      settings: await this.projections.siteSettings(siteIds),
      firewalls: await this.projections.firewalls(siteIds),
    };
    const caches = [...level.caches];
    const cached = new Set(caches.map((policy) => policy.id));
    const served = domainRows.filter((row) => row[8]);
    const siteModules = { byDomain: new Map<number, NonNullable<EdgeDomainModules>>(), modules: [] as EdgeModule[] };
    const moduleIds = new Set<number>();
    for (const part of await inChunks(
      served.map((row) => row[0]),
      (ids) => this.projections.modules(ids),
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
          (ids) => this.projections.domainAccess(ids),
        )
      ).flatMap((part) => [...part]),
    );
    const domainAuth = this.projections.domainAuth?.bind(this.projections);
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
    const certRows = await this.repository.certificates(certIds);
    const certificates: EdgeCertificate[] = certRows.map((c) => ({
      id: c.id,
      certPem: c.certPem,
      keyPem: this.box.open(c.keySealed),
    }));
    return { domains, siteOf, certificates, caches, modules: siteModules.modules, settings, firewalls, level };
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
    return {
      ...(geoDatabase === null ? {} : { geoDatabase }),
      ...(abuseIPs === null ? {} : { abuseIPs }),
      ...(errorPages.length === 0 ? {} : { errorPages }),
    };
  }

  /** The challenge keys of the owner's plane at `now` (they rotate with time). */
  challenge(ownerId: number, firewalls: readonly EdgeFirewall[], now: Date) {
    return this.projections.challenge(ownerId, firewalls, now);
  }

  /**
   * The node and its groups, as the snapshot reads them. Within one generation's `memo` every node
   * is read at once (the polls a change wakes would otherwise read theirs one by one, two queries
   * each); a node registered since that read is read alone.
   */
  async nodeAndGroups(nodeId: number, memo?: PlaneMemo): Promise<{ node: NodeRow; groupIds: number[] }> {
    if (memo) {
      const every = await memoized(memo, 'nodes', () => this.repository.everyNodeAndGroups());
      const found = every.get(nodeId);
      if (found) return found;
    }
    const node = await this.repository.nodeWithZone(nodeId);
    const groupIds = node ? await this.repository.nodeGroupIds(nodeId) : [];
    return { node, groupIds };
  }

  /**
   * Every node with its zone and groups for a `generation`'s memo: one read shared by every memo of
   * the generation (the snapshot polls' and the plane polls' that one change wakes), at most
   * NODES_SHARED_MS old.
   */
  private everyNode(generation: number): Promise<Map<number, { node: NodeWithZone; groupIds: number[] }>> {
    const now = Date.now();
    const kept = this.nodesRead;
    if (kept?.generation === generation && now - kept.at < NODES_SHARED_MS) return kept.rows;
    const read = { generation, at: now, rows: this.nodesAtVersion() };
    this.nodesRead = read;
    read.rows.catch(() => {
      if (this.nodesRead === read) this.nodesRead = null;
    });
    return read.rows;
  }

  /**
   * Every node with its zone and groups, read again only when the nodes' version moved since the
   * last read (dp_nodes_version, moved by triggers in the writing transaction): a change of a
   * domain reads one number, not every node. The version is read first, so rows kept under it are
   * never older than it (a write between the two reads only makes the next look read them again).
   */
  private async nodesAtVersion(): Promise<Map<number, { node: NodeWithZone; groupIds: number[] }>> {
    const version = await this.repository.nodesVersion();
    const kept = this.nodesKept;
    if (kept && version !== null && kept.version === version) return kept.rows;
    const rows = await this.repository.everyNodeAndGroups();
    if (version !== null) this.nodesKept = { version, rows };
    return rows;
  }

  /** A memo for the looks of `generation`, its nodes read once with every other memo of it ({@link everyNode}). */
  generationMemo(generation: number): PlaneMemo {
    const memo: PlaneMemo = new Map();
    // Kept by memoized (a failed read is dropped from the memo, and read again by the next look).
    void memoized(memo, 'nodes', () => this.everyNode(generation));
    return memo;
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
        limits: { invalidDomainPerMinute: ZONE_LIMIT_MAX, tlsHandshakesPerMinute: ZONE_LIMIT_MAX },
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
