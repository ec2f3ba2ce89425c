import { type ClientDomainIdsQuery, type ClientDomainListQuery, DOMAIN_META_MAX } from '@rampart/contract';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { presentClientDomain } from './client-domains.presenter.js';
import type { ClientDomainsRepository } from './client-domains.repository.js';
import type { DomainsAcrossSitesRepository } from './domains-across-sites.repository.js';

/** The operator's view of its customers' domains; a domain outside its sites is never seen (101018 by id). */
export class ClientDomainsService {
  constructor(
    private readonly repo: ClientDomainsRepository,
    private readonly across: DomainsAcrossSitesRepository,
    private readonly transactions: Transactions,
  ) {}

  async list(operatorId: number, q: ClientDomainListQuery) {
    const { rows, total } = await this.repo.list(operatorId, q, q.page, q.pageSize);
    return { data: rows.map(presentClientDomain), total };
  }

  meta(operatorId: number, siteIds: number[], name: string) {
    return this.across.meta({ ownerId: operatorId }, [...new Set(siteIds)], name, DOMAIN_META_MAX);
  }

  tags(operatorId: number) {
    return this.across.tags({ ownerId: operatorId }, []);
  }

  /** All or none: one id outside the operator's sites changes nothing. */
  async setTags(operatorId: number, ids: number[], tags: string[]) {
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      requireEvery(await this.repo.owned(operatorId, unique), unique);
      await this.repo.setTags(unique, [...new Set(tags)]);
    });
  }

  ids(operatorId: number, q: ClientDomainIdsQuery) {
    return this.across.idsByName({ ownerId: operatorId }, q.name, q);
  }
}
