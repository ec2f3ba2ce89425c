import type { StatisticsFilter } from '@rampart/contract';
import type { Caller } from '../../platform/http/bind-route.js';
import type { SiteScope } from '../../platform/tenancy/site-access.repository.js';
import type { AnalyticsRepository } from './analytics.repository.js';
import type { Scope } from './store/statistics-sql.js';

/**
 * What an analytics call may see (statistics, log search): the caller's sites from the
 * configuration database first — a customer's own and granted sites, an operator's sites (of one
 * customer when asked) — narrowed to the sites, domains and domain tags the filter names; an
 * operator's zone-restricted sub-account only the nodes of its zones. Every query carries it.
 */
export async function analyticsScope(
  repo: AnalyticsRepository,
  caller: Pick<Caller, 'tier' | 'accountId' | 'operatorId' | 'zoneScope'>,
  filter: Partial<Pick<StatisticsFilter, 'siteIDs' | 'domainIDs' | 'zoneIDs' | 'userID' | 'domainTags'>>,
): Promise<Scope> {
  const siteScope: SiteScope =
    caller.tier === 'client' ? { ownerId: caller.operatorId ?? -1 } : { userId: caller.accountId };
  const siteIds = await repo.visibleSites(siteScope, {
    siteIds: filter.siteIDs,
    domainIds: filter.domainIDs,
    ...(caller.tier === 'client' && filter.userID !== undefined ? { userId: filter.userID } : {}),
  });
  let zoneIds: number[] | null = filter.zoneIDs && filter.zoneIDs.length > 0 ? [...filter.zoneIDs] : null;
  if (caller.tier === 'client' && caller.zoneScope) {
    const allowed = caller.zoneScope;
    zoneIds = zoneIds ? zoneIds.filter((z) => allowed.has(z)) : [...allowed];
  }
  let domainIds = filter.domainIDs && filter.domainIDs.length > 0 ? [...filter.domainIDs] : null;
  if (filter.domainTags && filter.domainTags.length > 0) {
    // Tagged domains of the sites in scope, within the chosen domains when some are.
    const tagged = await repo.taggedDomains(siteIds, filter.domainTags);
    const isTagged = new Set(tagged);
    domainIds = domainIds ? domainIds.filter((id) => isTagged.has(id)) : tagged;
  }
  return { siteIds, zoneIds, domainIds };
}
