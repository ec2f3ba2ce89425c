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

/**
 * "Served by N of M nodes" for a site's domains (routes/domain-states.ts). M: the operator's nodes
 * that serve (initialised, enabled, in a zone) in a layer-7 group of the site's product, as the
 * snapshot chooses them. N: those online whose reported plane sequence is at or past both the
 * site's joining of the plane they poll (its key as plane.service.ts makes it) and the domain
 * entry's last change; a change older than the log's floor is held by every node holding the plane.
 */
export class DomainServing {
  constructor(
    private readonly repo: DomainServingRepository,
    private readonly snapshots: Pick<SnapshotRepository, 'everyNodeAndGroups'>,
    private readonly now: () => number = Date.now,
  ) {}

  async counts(
    ownerId: number,
    siteId: number,
    domains: readonly ServedDomain[],
  ): Promise<Map<number, { serving: number; of: number }>> {
    const [groups, planes, every, reported, changes] = await Promise.all([
      this.repo.siteGroupIds(siteId),
      this.repo.sitePlanes(siteId),
      this.snapshots.everyNodeAndGroups(),
      this.repo.reportedPlanes(ownerId),
      this.repo.domainChanges(
        siteId,
        domains.filter((d) => d.live).map((d) => d.name),
      ),
    ]);
    const siteGroups = new Set(groups);
    const joined = new Map(planes.map((p) => [p.planeKey, p.joined]));
    const now = this.now();
    // Each node serving the site: the plane sequence it holds (-1: none, offline, or no plane with the site).
    const held: number[] = [];
    for (const { node, groupIds } of every.values()) {
      if (node.ownerId !== ownerId || node.status !== 'initialized' || node.zoneId === null || !node.enabled) continue;
      if (!groupIds.some((g) => siteGroups.has(g))) continue;
      // No plane of its key holds the site yet (no node of it polled since the site joined): -1.
      const since = joined.get(PlaneEntryBuilder.planeKey(ownerId, groupIds)) ?? Number.POSITIVE_INFINITY;
      const report = reported.get(node.id);
      const online = report && nodeConnection(report.lastSeenAt, now) === 'online';
      const plane = online && /^\d+$/.test(report.appliedPlane) ? Number(report.appliedPlane) : -1;
      held.push(plane >= since ? plane : -1);
    }
    const out = new Map<number, { serving: number; of: number }>();
    for (const d of domains) {
      const changed = changes.get(d.name) ?? 0;
      const serving = d.live ? held.filter((plane) => plane >= changed).length : 0;
      out.set(d.id, { serving, of: held.length });
    }
    return out;
  }
}
