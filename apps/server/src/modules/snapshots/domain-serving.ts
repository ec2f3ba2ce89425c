import { nodeConnection } from '../../platform/node-connection.js';
import type { DomainServingRepository } from './domain-serving.repository.js';
import { PlaneEntryBuilder } from './plane-entries.js';
import type { SnapshotRepository } from './snapshot.repository.js';

/** A domain of a site as the count needs it: its entry's key and whether the edge serves it at all. */
export interface ServedDomain {
  id: number;
  name: string;
  /** Enabled and proved (or proof waived): in the plane as served. */
  live: boolean;
}

/** N, M and the nodes left out of M for one domain. */
export interface ServingCount {
  serving: number;
  of: number;
  /** Nodes serving the site that never reported a plane (older agents, or not polled yet). */
  withoutPlane: number;
}

/**
 * "Served by N of M nodes" for a site's domains (routes/domain-states.ts). M: the operator's nodes
 * that serve (initialised, enabled, in a zone) in a layer-7 group of the site's product, as the
 * snapshot chooses them, less those that never reported a plane (counted apart: what they serve is
 * unknown). N: those online whose reported plane sequence is at or past both the site's joining of
 * the plane they poll (its key as plane.service.ts makes it) and the domain entry's last change; a
 * change older than the log's floor is held by every node holding the plane.
 */
export class DomainServing {
  constructor(
    private readonly repo: DomainServingRepository,
    private readonly snapshots: Pick<SnapshotRepository, 'everyNodeAndGroups'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The counts for one site's domains (see `countsBySite`). */
  async counts(ownerId: number, siteId: number, domains: readonly ServedDomain[]): Promise<Map<number, ServingCount>> {
    return (await this.countsBySite(ownerId, new Map([[siteId, domains]]))).get(siteId) ?? new Map();
  }

  /** Per site of the operator, per domain of it: the counts; the operator's nodes are read once. */
  async countsBySite(
    ownerId: number,
    sites: ReadonlyMap<number, readonly ServedDomain[]>,
  ): Promise<Map<number, Map<number, ServingCount>>> {
    const [every, reported] = await Promise.all([
      this.snapshots.everyNodeAndGroups(),
      this.repo.reportedPlanes(ownerId),
    ]);
    const now = this.now();
    const out = new Map<number, Map<number, ServingCount>>();
    for (const [siteId, domains] of sites) {
      const [groups, planes, changes] = await Promise.all([
        this.repo.siteGroupIds(siteId),
        this.repo.sitePlanes(siteId),
        this.repo.domainChanges(
          siteId,
          domains.filter((d) => d.live).map((d) => d.name),
        ),
      ]);
      const siteGroups = new Set(groups);
      const joined = new Map(planes.map((p) => [p.planeKey, p.joined]));
      // Each node serving the site that reports planes: the sequence it holds (-1: none, offline,
      // or no plane with the site). A node that never reported a plane is only counted.
      const held: number[] = [];
      let withoutPlane = 0;
      for (const { node, groupIds } of every.values()) {
        if (node.ownerId !== ownerId || node.status !== 'initialized' || node.zoneId === null || !node.enabled) {
          continue;
        }
        if (!groupIds.some((g) => siteGroups.has(g))) continue;
        const report = reported.get(node.id);
        if (!report || !/^\d+$/.test(report.appliedPlane)) {
          withoutPlane += 1;
          continue;
        }
        // No plane of its key holds the site yet (no node of it polled since the site joined): -1.
        const since = joined.get(PlaneEntryBuilder.planeKey(ownerId, groupIds)) ?? Number.POSITIVE_INFINITY;
        const online = nodeConnection(report.lastSeenAt, now) === 'online';
        const plane = online ? Number(report.appliedPlane) : -1;
        held.push(plane >= since ? plane : -1);
      }
      const counts = new Map<number, ServingCount>();
      for (const d of domains) {
        const changed = changes.get(d.name) ?? 0;
        const serving = d.live ? held.filter((plane) => plane >= changed).length : 0;
        counts.set(d.id, { serving, of: held.length, withoutPlane });
      }
      out.set(siteId, counts);
    }
    return out;
  }
}
