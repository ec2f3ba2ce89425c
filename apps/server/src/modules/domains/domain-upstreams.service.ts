import { type DomainUpstream, UPSTREAMS_PER_DOMAIN_MAX, type UpstreamIn } from '@rampart/contract';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { SiteAccess } from '../../platform/tenancy/site-access.js';
import { type OriginCheck, upstreamOrigins } from './domain-origins.js';
import { servable, upstreamRow } from './domain-rules.js';
import { presentUpstream } from './domains.presenter.js';
import type { DomainsRepository } from './domains.repository.js';

/** The upstreams of one domain of a customer's site. Every change keeps the domain servable (401008). */
export class DomainUpstreamsService {
  constructor(
    private readonly repo: DomainsRepository,
    private readonly transactions: Transactions,
    private readonly access: SiteAccess,
    private readonly origins: OriginCheck,
  ) {}

  private async domainName(siteId: number, id: number): Promise<string> {
    const [row] = await this.repo.findMany(siteId, [id]);
    if (!row) throw new AppError(101018);
    return row.name;
  }

  async list(userId: number, siteId: number, domainId: number): Promise<DomainUpstream[]> {
    await this.access.userSite(userId, siteId);
    await this.domainName(siteId, domainId);
    return (await this.repo.upstreamsOf([domainId])).map(presentUpstream);
  }

  /** Changes a domain's upstreams, then checks the result still has a servable upstream (401008). */
  private async change<T>(userId: number, siteId: number, domainId: number, change: () => Promise<T>): Promise<T> {
    await this.access.userSite(userId, siteId);
    return this.transactions.run(async () => {
      const name = await this.domainName(siteId, domainId);
      const result = await change();
      const after = await this.repo.upstreamsOf([domainId]);
      if (after.length > UPSTREAMS_PER_DOMAIN_MAX) throw new AppError(101029);
      if (!servable(after)) throw new AppError(401008, { extra: { targets: [name] } });
      await this.repo.touch(domainId);
      return result;
    });
  }

  async add(userId: number, siteId: number, domainId: number, list: UpstreamIn[]) {
    const site = await this.access.userSite(userId, siteId);
    await this.origins.check(site.ownerId, upstreamOrigins(list));
    const rows = await this.change(userId, siteId, domainId, () =>
      this.repo.insertUpstreams(domainId, list.map(upstreamRow)),
    );
    return rows.map(presentUpstream);
  }

  delete(userId: number, siteId: number, domainId: number, ids: number[]) {
    const unique = [...new Set(ids)];
    return this.change(userId, siteId, domainId, async () => {
      requireEvery(await this.repo.deleteUpstreams(domainId, unique), unique);
    });
  }

  async update(
    userId: number,
    siteId: number,
    domainId: number,
    input: UpstreamIn & { id: number },
  ): Promise<DomainUpstream> {
    const site = await this.access.userSite(userId, siteId);
    await this.origins.check(site.ownerId, [{ field: 'ip', ip: input.ip, port: input.port }]);
    const row = await this.change(userId, siteId, domainId, async () => {
      const updated = await this.repo.updateUpstream(domainId, input.id, upstreamRow(input));
      if (!updated) throw new AppError(101018);
      return updated;
    });
    return presentUpstream(row);
  }
}
