import { createHash } from 'node:crypto';
import {
  CHALLENGE_WORK_BITS_DEFAULT,
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
  type L4Rate,
  type L4Rules,
  type NginxTuning,
  NO_ZONE_LIMITS,
  type NodeExporter,
  noChallenge,
} from '@rampart/contract';
import type { NodeGroups, ServedDomainRow, SnapshotRepository } from './snapshot.repository.js';
import type { LeftOutSite } from './snapshot-fit.js';

// The shapes a node's snapshot and the shared plane are built into, and the helpers over them that need no database (snapshot-builder.ts builds them).
export const DEFAULT_LISTEN = { httpPorts: [80], httpsPorts: [443], http2: true } as const;
const DEFAULT_FORCE_SSL_CODE = 301;
/** The largest cache epoch the data plane's schema takes (a shared plane is measured with it). */
export const MAX_CACHE_EPOCH = 2_147_483_647;

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
export const NODES_SHARED_MS = 1000;

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
export function emptyPlane(): SharedDataPlane {
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
  /** Whether the operator allows origins on private addresses (domains/private-origins.service.ts). */
  privateOrigins?(ownerId: number): Promise<boolean>;
  /**
   * The node's layer-4 document for its stream ports and its zone's layer-4 protection, with the
   * sites whose rules it cannot enforce (firewall/firewall-l4.edge.ts).
   */
  l4?(
    ownerId: number,
    streamPorts: readonly EdgeStreamPort[],
    zone: {
      guardedPorts: number[];
      synFlood: L4Rate | null;
      newConnections: L4Rate | null;
      kernelBlocks: boolean;
      escalation?: boolean;
    },
  ): Promise<{ l4: L4Rules | null; leftOut: { siteId: number; reason: string }[] }>;
}

export type NodeRow = Awaited<ReturnType<SnapshotRepository['nodeWithZone']>>;

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
          // The zone's escalation of floods to the kernel (lua/rampart/escalate.lua); 0 = off.
          escalationRefusals: node.l4Escalation?.refusals ?? 0,
          escalationSeconds: node.l4Escalation?.seconds ?? 10,
          challengeWorkBits: node.challengeWorkBits ?? CHALLENGE_WORK_BITS_DEFAULT,
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
export async function inChunks<T, R>(
  items: readonly T[],
  read: (chunk: T[]) => Promise<R>,
  size = 20_000,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length || i === 0; i += size) out.push(await read(items.slice(i, i + size)));
  return out;
}
