import { SITE_DOMAIN_META_MAX, type UserDomainIdsQuery } from '@rampart/contract';
import type { DomainsAcrossSitesRepository } from './domains-across-sites.repository.js';

/** The customer's domains across its sites (pickers, tag filters, ids by name). */
export class UserDomainsService {
  constructor(private readonly across: DomainsAcrossSitesRepository) {}

  meta(userId: number, siteIds: number[], name: string) {
    return this.across.meta({ userId }, [...new Set(siteIds)], name, SITE_DOMAIN_META_MAX);
  }

  tags(userId: number, siteIds: number[]) {
    return this.across.tags({ userId }, [...new Set(siteIds)]);
  }

  ids(userId: number, q: UserDomainIdsQuery) {
    return this.across.idsByName({ userId }, q.name, q);
  }
}
