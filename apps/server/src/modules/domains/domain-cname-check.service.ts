import { DOMAIN_CNAME_STATUS, type DomainCnameCheck } from '@rampart/contract';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { type CnameResolver, DnsLookupError } from '../../platform/dns/cname-resolver.js';
import { eachLimited } from '../../platform/each-limited.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { SiteAccess } from '../../platform/tenancy/site-access.js';
import type { CnameSettingsService } from './cname-settings.service.js';
import { cnameQueryName, cnameTarget } from './domain-names.js';
import type { DomainProofService } from './domain-proof.service.js';
import { presentCnameCheck } from './domains.presenter.js';
import type { DomainsRepository } from './domains.repository.js';

/** DNS queries of one checkCNAME call in flight at once. */
const CNAME_CHECK_CONCURRENCY = 8;

/** `checkCNAME`: whether the site's domains point at their CNAME targets, by real DNS queries. */
export class DomainCnameCheckService {
  constructor(
    private readonly repo: DomainsRepository,
    private readonly transactions: Transactions,
    private readonly access: SiteAccess,
    private readonly cnames: CnameSettingsService,
    private readonly resolver: CnameResolver,
    private readonly proof: DomainProofService,
  ) {}

  /**
   * Resolves each domain's name (a wildcard through `<label>.<parent>`) and records whether it
   * points at its CNAME target. Every name is resolved before anything is written: a resolver
   * failure answers 101010 naming the host and reason, and records nothing.
   */
  async check(userId: number, siteId: number, ids: number[]): Promise<DomainCnameCheck[]> {
    const site = await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    const rows = await this.repo.findMany(siteId, unique);
    requireEvery(rows, unique);
    rows.sort((a, b) => unique.indexOf(a.id) - unique.indexOf(b.id));
    const cnameDomain = await this.cnames.domainOf(site.ownerId);
    const results = new Map<number, boolean>();
    try {
      await eachLimited(rows, CNAME_CHECK_CONCURRENCY, async (row) => {
        results.set(row.id, await this.resolver.pointsAt(cnameQueryName(row), cnameTarget(row, cnameDomain)));
      });
    } catch (err) {
      if (err instanceof DnsLookupError) {
        throw new AppError(101010, { extra: { name: err.hostname, reason: err.reason }, cause: err });
      }
      throw err;
    }
    const at = new Date();
    const verified = rows.filter((r) => results.get(r.id)).map((r) => r.id);
    const notPointing = rows.filter((r) => !results.get(r.id)).map((r) => r.id);
    await this.transactions.run(async () => {
      await this.repo.setCnameStatus(siteId, verified, DOMAIN_CNAME_STATUS.verified, at);
      await this.repo.setCnameStatus(siteId, notPointing, DOMAIN_CNAME_STATUS.notPointing, at);
    });
    // A name that CNAMEs to its claim's own target proves control of it.
    await this.proof.cnameVerified(siteId, verified, at);
    return rows.map((row) => presentCnameCheck(row, cnameDomain, results.get(row.id) === true, at));
  }
}
