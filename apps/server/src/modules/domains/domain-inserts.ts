import { AUTO_SSL_DOMAINS_PER_SITE_MAX, type DomainIn, proofIsLive } from '@rampart/contract';
import { isUniqueViolation, violationDetail } from '../../platform/db/errors.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import { BatchFailures } from '../../platform/errors/batch-failures.js';
import type { SiteAccessRepository, SiteView } from '../../platform/tenancy/site-access.repository.js';
import type { CertificatesRepository } from '../certificates/certificates.repository.js';
import { certificateCovers } from '../certificates/x509.js';
import type { LicenseLimits } from '../licenses/license-limits.js';
import type { NodeCapacity } from '../snapshots/node-capacity.js';
import type { DomainProofService } from './domain-proof.service.js';
import { checkPortMap, servable, upstreamRow } from './domain-rules.js';
import type { DomainsRepository } from './domains.repository.js';

/**
 * The checks and inserts of new domains of a site, shared by every call that makes domains (create,
 * by name, copies). Runs inside the caller's all-or-none block.
 */
export class DomainInserts {
  constructor(
    private readonly repo: DomainsRepository,
    private readonly sites: SiteAccessRepository,
    private readonly certificates: CertificatesRepository,
    private readonly proof: DomainProofService,
    private readonly capacity: NodeCapacity,
    private readonly licenseLimits: LicenseLimits,
    /** Told when domains turn auto SSL on (the caller's transaction may still roll back). */
    private readonly autoSslTurnedOn: () => void = () => {},
  ) {}

  /** Certificates named by the items must be the site's and cover the names (301001). */
  async checkCertificates(siteId: number, items: { name: string; certificateID: number }[], failures: BatchFailures) {
    const ids = [...new Set(items.map((i) => i.certificateID).filter((id) => id !== 0))];
    const found = await this.certificates.findMany(siteId, ids);
    requireEvery(found, ids);
    for (const item of items) {
      const cert = found.find((c) => c.id === item.certificateID);
      if (cert && !certificateCovers(cert.names, item.name)) failures.add(301001, item.name);
    }
  }

  /** 401004 when turning auto SSL on for `ids` would take the site, or its operator's licence, over its limit. */
  async checkAutoSSL(site: { id: number; ownerId: number }, ids: number[]) {
    const siteId = site.id;
    const others = await this.repo.countAutoSSL(siteId, ids);
    const already = (await this.repo.countAutoSSL(siteId)) - others;
    await this.licenseLimits.check(site.ownerId, 'autoSSLDomains', ids.length - already);
    if (others + ids.length > AUTO_SSL_DOMAINS_PER_SITE_MAX) {
      throw new AppError(401004, { extra: { limit: AUTO_SSL_DOMAINS_PER_SITE_MAX } });
    }
    if (ids.length > 0) this.autoSslTurnedOn();
  }

  /** Checks and inserts new domains of a site (101009 per name); answers their ids in the items' order. */
  async insertAll(site: SiteView, items: DomainIn[]): Promise<number[]> {
    const siteId = site.id;
    const repo = this.repo;
    // The operator's licence first: its lock is the first this call takes (license-limits.ts).
    const autoSSL = items.filter((i) => i.autoSSL).length;
    await this.licenseLimits.check(site.ownerId, 'domains', items.length);
    await this.licenseLimits.check(site.ownerId, 'autoSSLDomains', autoSSL);
    const nodesStillFit = await this.capacity.before(site.ownerId, { sites: [siteId] });
    await this.checkDomainLimit(siteId, items.length);
    if (autoSSL > 0 && (await repo.countAutoSSL(siteId)) + autoSSL > AUTO_SSL_DOMAINS_PER_SITE_MAX) {
      throw new AppError(401004, { extra: { limit: AUTO_SSL_DOMAINS_PER_SITE_MAX } });
    }
    if (autoSSL > 0) this.autoSslTurnedOn();
    if (items.some((i) => i.portMap)) {
      const ports = await repo.listenPorts(siteId);
      for (const item of items) if (item.portMap) checkPortMap(item.scheme, ports);
    }
    const failures = new BatchFailures();
    const seen = new Set<string>();
    for (const item of items) {
      if (seen.has(item.name)) failures.add(101025, item.name);
      seen.add(item.name);
      if (!servable(item.upstreams.map(upstreamRow))) failures.add(401008, item.name);
    }
    const names = [...seen];
    for (const name of await repo.namesInSite(siteId, names)) failures.add(101025, name);
    // Proof of control (domain-proof.service.ts): a name another customer proved is taken; a new
    // claim that would go live at once must not meet another live one.
    const proof = await this.proof.initialStates(site, items);
    for (const name of proof.refused) failures.add(401001, name);
    const live = items.filter((i) => i.status === 1 && proofIsLive(proof.states.get(i.name) ?? 0)).map((i) => i.name);
    for (const name of await repo.enabledNamesTaken(live)) failures.add(401001, name);
    await this.checkCertificates(siteId, items, failures);
    failures.throwIfAny();

    const ids = await this.insertDomains(siteId, items, proof.states);
    await repo.insertUpstreamsOfMany(
      items.map((item, i) => ({ domainId: ids[i] as number, list: item.upstreams.map(upstreamRow) })),
    );
    await nodesStillFit();
    return ids;
  }

  /**
   * The site's limitation set by its operator (0 = none): 401002 when the new domains would take it
   * over. The site row stays locked until the transaction ends, so concurrent additions count in turn.
   */
  private async checkDomainLimit(siteId: number, adding: number) {
    const site = await this.sites.lock(siteId);
    if (site && site.maxDomains > 0 && (await this.repo.countInSite(siteId)) + adding > site.maxDomains) {
      throw new AppError(401002);
    }
  }

  /** The domains' rows (names checked above), in one or few statements; ids in the items' order. */
  private async insertDomains(siteId: number, items: DomainIn[], proof: ReadonlyMap<string, 0 | 1 | 2 | 3>) {
    try {
      return await this.repo.insertMany(
        items.map((item) => ({
          siteId,
          name: item.name,
          proofStatus: proof.get(item.name) ?? 0,
          enabled: item.status === 1,
          scheme: item.scheme,
          hashType: item.hashType,
          hostName: item.hostName,
          forceSSL: item.forceSSL,
          autoSSL: item.autoSSL,
          portMap: item.portMap,
          certificateId: item.certificateID === 0 ? null : item.certificateID,
          tags: [...new Set(item.tags)],
        })),
      );
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // Another request took a name between the check and this insert (the statement failed whole,
      // so nothing more can be asked in this transaction): PostgreSQL's detail names the key.
      const detail = violationDetail(err);
      const names = items.map((i) => i.name);
      const taken = names.filter((name) => detail.includes(`=(${name})`) || detail.includes(`, ${name})`));
      throw new AppError(101009, { errors: [{ code: 401001, targets: taken.length > 0 ? taken : names }] });
    }
  }
}
