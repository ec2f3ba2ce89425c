import {
  type DomainIn,
  type DomainListQuery,
  type DomainUpdateIn,
  proofIsLive,
  SITE_DOMAIN_META_MAX,
  type SiteDomain,
  type UpstreamIn,
} from '@rampart/contract';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import { BatchFailures } from '../../platform/errors/batch-failures.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SiteAccess } from '../../platform/tenancy/site-access.js';
import type { SiteView } from '../../platform/tenancy/site-access.repository.js';
import type { CertificatesRepository } from '../certificates/certificates.repository.js';
import { certificateCovers } from '../certificates/x509.js';
import type { CnameSettingsService } from './cname-settings.service.js';
import type { DomainInserts } from './domain-inserts.js';
import { type OriginCheck, upstreamOrigins } from './domain-origins.js';
import type { DomainProofService } from './domain-proof.service.js';
import { checkPortMap, SIMPLE_DEFAULTS, servable, settingsOf, upstreamRow } from './domain-rules.js';
import { presentDomainMeta, presentDomains } from './domains.presenter.js';
import type { DomainRow, DomainsRepository } from './domains.repository.js';
import { domainsCsv } from './domains-csv.presenter.js';

/** Domains of a customer's site and their settings. Every write is all or none. */
export class DomainsService {
  constructor(
    private readonly repo: DomainsRepository,
    private readonly transactions: Transactions,
    private readonly access: SiteAccess,
    private readonly origins: OriginCheck,
    private readonly cnames: CnameSettingsService,
    private readonly proof: DomainProofService,
    private readonly inserts: DomainInserts,
    private readonly certificates: CertificatesRepository,
  ) {}

  /** Domains with their upstreams and bound modules; `site` gives the operator whose CNAME domain the targets use. */
  private async present(site: SiteView, rows: DomainRow[]): Promise<SiteDomain[]> {
    const ids = rows.map((r) => r.id);
    const [upstreams, modules] = await Promise.all([this.repo.upstreamsOf(ids), this.repo.modulesOf(ids)]);
    return presentDomains(rows, upstreams, modules, await this.cnames.domainOf(site.ownerId));
  }

  /** The site's domains with these ids, presented in the order of `ids`. */
  private async presentIds(site: SiteView, ids: number[]): Promise<SiteDomain[]> {
    const rows = await this.repo.findMany(site.id, ids);
    rows.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
    return this.present(site, rows);
  }

  /** Inserts new domains of the site, all or none, and answers them. */
  private insertAll(site: SiteView, items: DomainIn[]): Promise<SiteDomain[]> {
    return this.transactions.run(async () => this.presentIds(site, await this.inserts.insertAll(site, items)));
  }

  private async oneDomain(siteId: number, id: number): Promise<DomainRow> {
    const [row] = await this.repo.findMany(siteId, [id]);
    if (!row) throw new AppError(101018);
    return row;
  }

  async list(userId: number, siteId: number, q: DomainListQuery) {
    const site = await this.access.userSite(userId, siteId);
    const { rows, total } = await this.repo.list(siteId, q, q.page, q.pageSize);
    return { data: await this.present(site, rows), total };
  }

  async create(userId: number, siteId: number, items: DomainIn[]): Promise<SiteDomain[]> {
    const site = await this.access.userSite(userId, siteId);
    await this.origins.check(
      site.ownerId,
      items.flatMap((item, i) => upstreamOrigins(item.upstreams, `domains.${i}.upstreams`, item.portMap)),
    );
    return this.insertAll(site, items);
  }

  async createSimple(userId: number, siteId: number, names: string[], upstreams: UpstreamIn[]): Promise<SiteDomain[]> {
    const site = await this.access.userSite(userId, siteId);
    await this.origins.check(site.ownerId, upstreamOrigins(upstreams));
    return this.insertAll(
      site,
      names.map((name) => ({ name, upstreams, ...SIMPLE_DEFAULTS })),
    );
  }

  async update(userId: number, siteId: number, input: DomainUpdateIn): Promise<SiteDomain> {
    const site = await this.access.userSite(userId, siteId);
    await this.origins.check(site.ownerId, upstreamOrigins(input.upstreams, 'upstreams', input.portMap));
    return this.transactions.run(async () => {
      const row = await this.oneDomain(siteId, input.id);
      // A setting left out keeps its current value.
      const enabled = input.status === undefined ? row.enabled : input.status === 1;
      const certificateId =
        input.certificateID === undefined ? row.certificateId : input.certificateID === 0 ? null : input.certificateID;
      const failures = new BatchFailures();
      if (!servable(input.upstreams.map(upstreamRow))) failures.add(401008, row.name);
      if (
        enabled &&
        proofIsLive(row.proofStatus) &&
        (await this.repo.enabledNamesTaken([row.name], [row.id])).length > 0
      ) {
        failures.add(401001, row.name);
      }
      if (enabled && !row.enabled && !proofIsLive(row.proofStatus)) {
        for (const name of await this.proof.refusedToEnable(site, [row.name])) failures.add(401001, name);
      }
      if (input.certificateID !== undefined) {
        await this.inserts.checkCertificates(
          siteId,
          [{ name: row.name, certificateID: input.certificateID }],
          failures,
        );
      }
      failures.throwIfAny();
      const scheme = input.scheme ?? row.scheme;
      const autoSSL = input.autoSSL ?? row.autoSSL;
      const portMap = input.portMap ?? row.portMap;
      if (autoSSL && !row.autoSSL) await this.inserts.checkAutoSSL(site, [row.id]);
      if (portMap) checkPortMap(scheme, await this.repo.listenPorts(siteId));
      try {
        await this.repo.update(siteId, [row.id], {
          enabled,
          scheme,
          hashType: input.hashType ?? row.hashType,
          hostName: input.hostName ?? row.hostName,
          forceSSL: input.forceSSL ?? row.forceSSL,
          autoSSL,
          portMap,
          certificateId,
          tags: input.tags ? [...new Set(input.tags)] : row.tags,
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(101009, { errors: [{ code: 401001, targets: [row.name] }] });
        throw err;
      }
      await this.repo.replaceUpstreams(row.id, input.upstreams.map(upstreamRow));
      const [presented] = await this.present(site, [await this.oneDomain(siteId, row.id)]);
      if (!presented) throw new Error('updated domain not found');
      return presented;
    });
  }

  /** Runs `change` on all the ids or none: an id outside the site rolls everything back. */
  private async allOrNone(
    userId: number,
    siteId: number,
    ids: number[],
    change: (unique: number[], rows: DomainRow[], site: SiteView) => Promise<void>,
  ) {
    const site = await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      const rows = await this.repo.findMany(siteId, unique);
      requireEvery(rows, unique);
      await change(unique, rows, site);
    });
  }

  delete(userId: number, siteId: number, ids: number[]) {
    return this.allOrNone(userId, siteId, ids, async (unique) => {
      await this.repo.deleteMany(siteId, unique);
    });
  }

  /** All or none: a name the site does not have answers 101009 naming it (101018). */
  async deleteByNames(userId: number, siteId: number, names: string[]) {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(names)];
    await this.transactions.run(async () => {
      const rows = await this.repo.findByNames(siteId, unique);
      const failures = new BatchFailures();
      for (const name of unique) if (!rows.some((r) => r.name === name)) failures.add(101018, name);
      failures.throwIfAny();
      await this.repo.deleteMany(
        siteId,
        rows.map((r) => r.id),
      );
    });
  }

  async meta(userId: number, siteId: number, keyword: string) {
    await this.access.userSite(userId, siteId);
    return (await this.repo.meta(siteId, keyword, SITE_DOMAIN_META_MAX)).map(presentDomainMeta);
  }

  async settings(userId: number, siteId: number, name: string): Promise<SiteDomain> {
    const site = await this.access.userSite(userId, siteId);
    const [row] = await this.repo.findByNames(siteId, [name]);
    if (!row) throw new AppError(101018);
    const [presented] = await this.present(site, [row]);
    if (!presented) throw new Error('domain vanished');
    return presented;
  }

  setTags(userId: number, siteId: number, ids: number[], tags: string[]) {
    return this.allOrNone(userId, siteId, ids, async (unique) => {
      await this.repo.update(siteId, unique, { tags: [...new Set(tags)] });
    });
  }

  setStatus(userId: number, siteId: number, ids: number[], status: 0 | 1) {
    return this.allOrNone(userId, siteId, ids, async (unique, rows, site) => {
      if (status === 1) {
        const failures = new BatchFailures();
        const waiting = rows.filter((r) => !r.enabled && !proofIsLive(r.proofStatus)).map((r) => r.name);
        for (const name of await this.proof.refusedToEnable(site, waiting)) failures.add(401001, name);
        const names = rows.filter((r) => proofIsLive(r.proofStatus)).map((r) => r.name);
        const seen = new Set<string>();
        for (const name of names) {
          if (seen.has(name)) failures.add(401001, name);
          seen.add(name);
        }
        for (const name of await this.repo.enabledNamesTaken(names, unique)) failures.add(401001, name);
        failures.throwIfAny();
      }
      try {
        await this.repo.update(siteId, unique, { enabled: status === 1 });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(101009, { errors: [{ code: 401001, targets: [] }] });
        throw err;
      }
    });
  }

  setForceSSL(userId: number, siteId: number, ids: number[], forceSSL: boolean) {
    return this.allOrNone(userId, siteId, ids, async (unique) => {
      await this.repo.update(siteId, unique, { forceSSL });
    });
  }

  setBalance(userId: number, siteId: number, ids: number[], hashType: 0 | 1) {
    return this.allOrNone(userId, siteId, ids, async (unique) => {
      await this.repo.update(siteId, unique, { hashType });
    });
  }

  setAutoSSL(userId: number, siteId: number, ids: number[], autoSSL: boolean) {
    return this.allOrNone(userId, siteId, ids, async (unique, _rows, site) => {
      if (autoSSL) await this.inserts.checkAutoSSL(site, unique);
      await this.repo.update(siteId, unique, { autoSSL });
    });
  }

  /** The scheme, and the port map when given (kept otherwise); 401003 when the map cannot work. */
  setScheme(userId: number, siteId: number, id: number, scheme: 0 | 1, portMap?: boolean) {
    return this.allOrNone(userId, siteId, [id], async (unique, rows) => {
      const mapped = portMap ?? rows[0]?.portMap ?? false;
      if (mapped) checkPortMap(scheme, await this.repo.listenPorts(siteId));
      await this.repo.update(siteId, unique, { scheme, portMap: mapped });
    });
  }

  /**
   * Batch change of origin: `oldIP` becomes `newIP` in the upstreams of the given domains (every
   * domain of the site when none is given). Only addresses change, so every domain stays servable.
   */
  async modifyUpstreamIPs(
    userId: number,
    siteId: number,
    ids: number[],
    oldIP: string,
    newIP: string,
  ): Promise<{ domains: number; upstreams: number }> {
    const site = await this.access.userSite(userId, siteId);
    await this.origins.check(site.ownerId, [{ field: 'newIP', ip: newIP, port: 0 }]);
    const sockets = await this.origins.socketsOf(site.ownerId);
    const unique = [...new Set(ids)];
    return this.transactions.run(async () => {
      if (unique.length > 0 && (await this.repo.findMany(siteId, unique)).length !== unique.length) {
        throw new AppError(101018);
      }
      const moved = await this.repo.replaceUpstreamIP(siteId, unique, oldIP.toLowerCase(), newIP.toLowerCase());
      // Each moved upstream keeps its port: none may become one of the nodes' sockets.
      if (moved.some((u) => sockets.isNodeSocket(newIP, u.port))) {
        throw invalidFields([{ field: 'newIP', key: 'originIsNode' }]);
      }
      const changed = moved.map((u) => u.domainId);
      const domainIds = [...new Set(changed)];
      await this.repo.touch(domainIds);
      return { domains: domainIds.length, upstreams: changed.length };
    });
  }

  /** One upstream list for several domains, all or none (401008 when none would serve). */
  async replaceManyUpstreams(userId: number, siteId: number, ids: number[], upstreams: UpstreamIn[]) {
    const site = await this.access.userSite(userId, siteId);
    await this.origins.check(site.ownerId, upstreamOrigins(upstreams));
    const list = upstreams.map(upstreamRow);
    return this.allOrNone(userId, siteId, ids, async (unique, rows) => {
      if (!servable(list)) throw new AppError(401008, { extra: { targets: rows.map((r) => r.name) } });
      for (const id of unique) await this.repo.replaceUpstreams(id, list);
      await this.repo.touch(unique);
    });
  }

  /**
   * Copies domains (settings, tags, upstreams) into another site of the same customer. The copies
   * are disabled, since an enabled name is unique in the installation, and carry no certificate,
   * which belongs to the source site. Names the target has already fail per name (101009).
   */
  async copyToSite(userId: number, siteId: number, ids: number[], targetSiteId: number): Promise<SiteDomain[]> {
    await this.access.userSite(userId, siteId);
    const target = await this.access.userSite(userId, targetSiteId);
    const unique = [...new Set(ids)];
    return this.transactions.run(async () => {
      const rows = await this.repo.findMany(siteId, unique);
      requireEvery(rows, unique);
      rows.sort((a, b) => unique.indexOf(a.id) - unique.indexOf(b.id));
      const upstreams = await this.repo.upstreamsOf(unique);
      const items = rows.map((row) => ({
        ...settingsOf(
          row,
          upstreams.filter((u) => u.domainId === row.id),
        ),
        name: row.name,
        status: 0 as const,
        certificateID: 0,
      }));
      return this.insertAll(target, items);
    });
  }

  /**
   * New domains of the site by name with the settings and upstreams of one of its domains; the
   * certificate is kept for the names it covers.
   */
  async createFrom(
    userId: number,
    siteId: number,
    domainId: number,
    names: string[],
    status: 0 | 1,
  ): Promise<SiteDomain[]> {
    const site = await this.access.userSite(userId, siteId);
    return this.transactions.run(async () => {
      const source = await this.oneDomain(siteId, domainId);
      const base = settingsOf(source, await this.repo.upstreamsOf([source.id]));
      const [cert] =
        source.certificateId === null ? [] : await this.certificates.findMany(siteId, [source.certificateId]);
      const items = names.map((name) => ({
        ...base,
        name,
        status,
        certificateID: cert && certificateCovers(cert.names, name) ? cert.id : 0,
      }));
      return this.insertAll(site, items);
    });
  }

  /** The given domains (all of the site when none is given) as a CSV file, by name. */
  async export(userId: number, siteId: number, ids: number[]): Promise<{ fileName: string; csv: string }> {
    const site = await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    const rows = await this.repo.forExport(siteId, unique);
    if (rows.length !== unique.length && unique.length > 0) throw new AppError(101018);
    return domainsCsv(siteId, await this.present(site, rows));
  }
}
