import { type DomainState, ORIGIN_HEALTH_MINUTES, originIsDown, proofIsLive } from '@rampart/contract';
import type { SiteAccess } from '../../platform/tenancy/site-access.js';
import type { DomainServing } from '../snapshots/domain-serving.js';
import type { DomainsRepository } from './domains.repository.js';

/** The origin's requests and failures per domain over the last minutes (StatisticsService.originHealth). */
export type OriginHealth = (
  siteId: number,
  domainIds: readonly number[],
  minutes: number,
  now: number,
) => Promise<Map<number, { requests: number; errors: number }>>;

/**
 * Where a site's domains stand (routes/domain-states.ts): served by how many of the nodes serving
 * the site, and whether the origin is failing. Only ids of the caller's site are answered.
 */
export class DomainStatesService {
  constructor(
    private readonly repo: DomainsRepository,
    private readonly access: SiteAccess,
    private readonly serving: DomainServing,
    private readonly originHealth: OriginHealth,
    private readonly now: () => number = Date.now,
  ) {}

  async states(userId: number, siteId: number, ids: readonly number[]): Promise<DomainState[]> {
    const site = await this.access.userSite(userId, siteId);
    const rows = await this.repo.findMany(site.id, [...new Set(ids)]);
    if (rows.length === 0) return [];
    const domains = rows.map((r) => ({ id: r.id, name: r.name, live: r.enabled && proofIsLive(r.proofStatus) }));
    const [counts, health] = await Promise.all([
      this.serving.counts(site.ownerId, site.id, domains),
      this.originHealth(
        site.id,
        domains.map((d) => d.id),
        ORIGIN_HEALTH_MINUTES,
        this.now(),
      ),
    ]);
    return ids.flatMap((id) => {
      if (!domains.some((d) => d.id === id)) return [];
      const count = counts.get(id) ?? { serving: 0, of: 0 };
      const origin = health.get(id) ?? { requests: 0, errors: 0 };
      return [
        {
          id,
          nodesServing: count.serving,
          nodesOfZone: count.of,
          originRequests: origin.requests,
          originErrors: origin.errors,
          originDown: originIsDown(origin.requests, origin.errors),
        },
      ];
    });
  }
}
