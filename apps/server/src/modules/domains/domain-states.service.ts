import { type DomainState, ORIGIN_HEALTH_MINUTES, originIsDown, proofIsLive } from '@rampart/contract';
import type { SiteAccess } from '../../platform/tenancy/site-access.js';
import type { DomainServing, ServedDomain, ServingCount } from '../snapshots/domain-serving.js';
import type { ClientDomainsRepository } from './client-domains.repository.js';
import type { DomainsRepository } from './domains.repository.js';

/** The origin's requests and failures per domain over the last minutes (StatisticsService.originHealth). */
export type OriginHealth = (
  siteIds: readonly number[],
  domainIds: readonly number[],
  minutes: number,
  now: number,
) => Promise<Map<number, { requests: number; errors: number }>>;

/** A domain as its state needs it, with its site. */
interface StateRow {
  id: number;
  name: string;
  siteId: number;
  enabled: boolean;
  proofStatus: 0 | 1 | 2 | 3;
}

/**
 * Where domains stand (routes/domain-states.ts): served by how many of the nodes serving their
 * site, and whether the origin is failing. The customer's call answers only ids of the caller's
 * site; the operator's only ids of domains in the operator's sites; both compute alike.
 */
export class DomainStatesService {
  constructor(
    private readonly repo: Pick<DomainsRepository, 'findMany'>,
    private readonly clientRepo: Pick<ClientDomainsRepository, 'forStates'>,
    private readonly access: SiteAccess,
    private readonly serving: DomainServing,
    private readonly originHealth: OriginHealth,
    private readonly now: () => number = Date.now,
  ) {}

  async states(userId: number, siteId: number, ids: readonly number[]): Promise<DomainState[]> {
    const site = await this.access.userSite(userId, siteId);
    const rows = await this.repo.findMany(site.id, [...new Set(ids)]);
    return this.compute(
      site.ownerId,
      rows.map((r) => ({ ...r, siteId: site.id })),
      ids,
    );
  }

  async operatorStates(operatorId: number, ids: readonly number[]): Promise<DomainState[]> {
    return this.compute(operatorId, await this.clientRepo.forStates(operatorId, [...new Set(ids)]), ids);
  }

  /** The states of `rows` (the operator's domains, checked by the caller) in the order of `ids`. */
  private async compute(ownerId: number, rows: readonly StateRow[], ids: readonly number[]): Promise<DomainState[]> {
    if (rows.length === 0) return [];
    const bySite = new Map<number, ServedDomain[]>();
    for (const r of rows) {
      const list = bySite.get(r.siteId) ?? [];
      list.push({ id: r.id, name: r.name, live: r.enabled && proofIsLive(r.proofStatus) });
      bySite.set(r.siteId, list);
    }
    const [counts, health] = await Promise.all([
      this.serving.countsBySite(ownerId, bySite),
      this.originHealth(
        [...bySite.keys()],
        rows.map((r) => r.id),
        ORIGIN_HEALTH_MINUTES,
        this.now(),
      ),
    ]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      if (row === undefined) return [];
      const count: ServingCount = counts.get(row.siteId)?.get(id) ?? { serving: 0, of: 0, withoutPlane: 0 };
      const origin = health.get(id) ?? { requests: 0, errors: 0 };
      return [
        {
          id,
          served: row.enabled && proofIsLive(row.proofStatus),
          nodesServing: count.serving,
          nodesOfZone: count.of,
          nodesWithoutPlane: count.withoutPlane,
          originRequests: origin.requests,
          originErrors: origin.errors,
          originDown: originIsDown(origin.requests, origin.errors),
        },
      ];
    });
  }
}
