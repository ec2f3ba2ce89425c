import { type ClientDomain, DOMAIN_META_MAX } from '@rampart/contract';
import type { Db } from '../../platform/db/database.js';
import { AppError } from '../../platform/errors/app-error.js';
import { type ClientDomainFilter, ClientDomainsRepository } from './client-domains.repository.js';
import { DomainsAcrossSitesRepository } from './domains.repository.js';

/** The operator's view of its customers' domains; a domain outside its sites is never seen (101018 by id). */
export class ClientDomainsService {
  constructor(private readonly db: Db) {}

  private across() {
    return new DomainsAcrossSitesRepository(this.db);
  }

  private repo(db: Db = this.db) {
    return new ClientDomainsRepository(db);
  }

  async list(operatorId: number, q: ClientDomainFilter & { page: number; pageSize: number }) {
    const { rows, total } = await this.repo().list(operatorId, q, q.page, q.pageSize);
    const data: ClientDomain[] = rows.map((row) => ({
      id: row.id,
      name: row.name,
      siteID: row.siteId,
      siteName: row.siteName,
      userAccount: row.userAccount,
      status: row.enabled ? 1 : 0,
      tags: row.tags,
      createdAt: row.createdAt.toISOString(),
    }));
    return { data, total };
  }

  meta(operatorId: number, siteIds: number[], name: string) {
    return this.across().meta({ ownerId: operatorId }, [...new Set(siteIds)], name, DOMAIN_META_MAX);
  }

  tags(operatorId: number) {
    return this.across().tags({ ownerId: operatorId }, []);
  }

  /** All or none: one id outside the operator's sites changes nothing. */
  async setTags(operatorId: number, ids: number[], tags: string[]) {
    const unique = [...new Set(ids)];
    await this.db.transaction(async (tx) => {
      const repo = this.repo(tx);
      if ((await repo.owned(operatorId, unique)).length !== unique.length) throw new AppError(101018);
      await repo.setTags(unique, [...new Set(tags)]);
    });
  }

  ids(operatorId: number, q: { name: string; siteID?: number | undefined; siteName?: string | undefined }) {
    return this.across().idsByName({ ownerId: operatorId }, q.name, q);
  }
}
