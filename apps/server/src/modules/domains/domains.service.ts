import {
  AUTO_SSL_DOMAINS_PER_SITE_MAX,
  DOMAIN_CERT_STATUS,
  DOMAIN_CNAME_STATUS,
  type DomainCertStatus,
  type DomainCnameCheck,
  type DomainUpstream,
  type ErrorCode,
  EXPORT_DOMAIN_COLUMNS,
  isOriginAddressAllowed,
  type Locale,
  proofIsLive,
  proofRecordName,
  SITE_DOMAIN_META_MAX,
  type SiteDomain,
} from '@rampart/contract';
import type { Db } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { type CnameResolver, DnsLookupError } from '../../platform/dns/cname-resolver.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import { CertificatesRepository } from '../certificates/certificates.repository.js';
import { certificateCovers } from '../certificates/x509.js';
import { NodeSockets } from '../nodes/node-sockets.js';
import type { SiteAccess } from '../sites/site-access.js';
import { SitesRepository, type SiteView } from '../sites/sites.repository.js';
import { NodeCapacity } from '../snapshots/node-capacity.js';
import type { CnameSettingsService } from './cname-settings.service.js';
import type { DomainProofService } from './domain-proof.service.js';
import {
  type DomainFilter,
  type DomainRow,
  type DomainSiteFilter,
  DomainsAcrossSitesRepository,
  DomainsRepository,
  type NewUpstream,
  type UpstreamRow,
} from './domains.repository.js';

export interface UpstreamIn {
  ip: string;
  port: number;
  weight: number;
  backup: boolean;
  status: 0 | 1;
}
export interface DomainSettingsIn {
  upstreams: UpstreamIn[];
  scheme: 0 | 1;
  hashType: 0 | 1;
  hostName: string;
  forceSSL: boolean;
  autoSSL: boolean;
  portMap: boolean;
  certificateID: number;
  status: 0 | 1;
  tags: string[];
}

/** An edit (contract: domainUpdateInput): the upstreams are replaced, absent settings kept. */
export type DomainUpdateIn = { id: number; upstreams: UpstreamIn[] } & Partial<Omit<DomainSettingsIn, 'upstreams'>>;

function presentUpstream(u: UpstreamRow): DomainUpstream {
  return { id: u.id, ip: u.ip, port: u.port, weight: u.weight, backup: u.backup, status: u.enabled ? 1 : 0 };
}

function hostPort(u: UpstreamRow): string {
  return u.ip.includes(':') ? `[${u.ip}]:${u.port}` : `${u.ip}:${u.port}`;
}

function certStatus(row: DomainRow, now: Date): DomainCertStatus {
  if (row.certificateId === null || !row.certificateNotAfter || !row.certificateNotBefore) {
    return DOMAIN_CERT_STATUS.none;
  }
  return row.certificateNotBefore <= now && now <= row.certificateNotAfter
    ? DOMAIN_CERT_STATUS.valid
    : DOMAIN_CERT_STATUS.expired;
}

/** The modules bound to one domain, by type (see routes/site-modules.ts). */
type DomainModuleRefs = { type: string; moduleId: number; name: string }[];

/** The CNAME target of a domain: its label under the operator's CNAME domain. */
export function cnameTarget(row: Pick<DomainRow, 'cnameLabel'>, cnameDomain: string): string {
  return `${row.cnameLabel}.${cnameDomain}`;
}

/**
 * The name checkCNAME resolves for a domain: the name itself, or for a wildcard `*.example.com` the
 * name `<label>.example.com`, which the customer's wildcard record answers (a name nobody else uses).
 */
export function cnameQueryName(row: Pick<DomainRow, 'name' | 'cnameLabel'>): string {
  return row.name.startsWith('*.') ? `${row.cnameLabel}${row.name.slice(1)}` : row.name;
}

/**
 * With the port map on, a client on a listener of the scheme's protocol reaches the origin on its
 * own port. The well-known port of the other protocol cannot be right there (TLS to port 80, plain
 * HTTP to 443): 401003 naming the first such port and its listener type (`extra.port`, `extra.portType`).
 */
function checkPortMap(scheme: 0 | 1, ports: { port: number; portType: 'http' | 'https' }[]) {
  const mapped = scheme === 1 ? 'https' : 'http';
  const wrong = scheme === 1 ? 80 : 443;
  const bad = ports.find((p) => p.portType === mapped && p.port === wrong);
  if (bad) throw new AppError(401003, { extra: { port: bad.port, portType: bad.portType } });
}

export function presentDomain(
  row: DomainRow,
  upstreams: UpstreamRow[],
  cnameDomain: string,
  now = new Date(),
  modules: DomainModuleRefs = [],
): SiteDomain {
  const first = upstreams[0];
  const bound = (type: string) => modules.find((m) => m.type === type);
  return {
    id: row.id,
    siteID: row.siteId,
    name: row.name,
    status: row.enabled ? 1 : 0,
    scheme: row.scheme,
    hashType: row.hashType,
    hostName: row.hostName,
    forceSSL: row.forceSSL,
    autoSSL: row.autoSSL,
    portMap: row.portMap,
    cname: cnameTarget(row, cnameDomain),
    cnameStatus: row.cnameStatus,
    cnameCheckedAt: row.cnameCheckedAt?.toISOString() ?? null,
    proofStatus: row.proofStatus,
    proofRecordName: proofRecordName(row.name),
    proofToken: row.proofToken,
    proofCheckedAt: row.proofCheckedAt?.toISOString() ?? null,
    certificateID: row.certificateId ?? 0,
    certificateName: row.certificateName ?? '',
    certStatus: certStatus(row, now),
    tags: row.tags,
    upstreams: upstreams.map(presentUpstream),
    upstreamURL: first ? hostPort(first) : '',
    upstreamCount: upstreams.length,
    customHeaderModuleID: bound('customHeader')?.moduleId ?? 0,
    customHeaderModuleName: bound('customHeader')?.name ?? '',
    urlRedirectModuleID: bound('urlRedirect')?.moduleId ?? 0,
    urlRedirectModuleName: bound('urlRedirect')?.name ?? '',
    corsID: bound('cors')?.moduleId ?? 0,
    corsName: bound('cors')?.name ?? '',
    proxyRewriteModuleID: bound('proxyRewrite')?.moduleId ?? 0,
    proxyRewriteModuleName: bound('proxyRewrite')?.name ?? '',
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toRow(u: UpstreamIn): Required<NewUpstream> {
  return { ip: u.ip.toLowerCase(), port: u.port, weight: u.weight, backup: u.backup, enabled: u.status === 1 };
}

/** The edge needs one enabled upstream that is not a backup to send traffic to (401008 otherwise). */
function servable(list: readonly { backup: boolean; enabled: boolean }[]): boolean {
  return list.some((u) => u.enabled && !u.backup);
}

/** Collects per-item failures of a batch into one 101009 reply. */
class Failures {
  private readonly byCode = new Map<ErrorCode, string[]>();
  add(code: ErrorCode, target: string) {
    const list = this.byCode.get(code) ?? [];
    if (!list.includes(target)) list.push(target);
    this.byCode.set(code, list);
  }
  throwIfAny() {
    if (this.byCode.size === 0) return;
    throw new AppError(101009, { errors: [...this.byCode].map(([code, targets]) => ({ code, targets })) });
  }
}

/** Domains of a customer's site and their upstreams. Every write is all or none. */
export class DomainsService {
  constructor(
    private readonly db: Db,
    private readonly access: SiteAccess,
    private readonly allowPrivateOrigins: boolean,
    private readonly cnames: CnameSettingsService,
    private readonly resolver: CnameResolver,
    private readonly proof: DomainProofService,
    private readonly capacity: NodeCapacity = new NodeCapacity(),
  ) {}

  private repo(db: Db = this.db) {
    return new DomainsRepository(db);
  }

  /**
   * Refuses origins the installation does not allow (SSRF policy) and origins that are one of the
   * operator's node sockets (NodeSockets), naming each field.
   */
  private async checkOrigins(
    locale: Locale,
    operatorId: number,
    entries: { field: string; ip: string; port: number; portMap?: boolean | undefined }[],
  ) {
    const sockets = await NodeSockets.ofOperator(this.db, operatorId);
    const bad: { field: string; key: 'originNotAllowed' | 'originIsNode' }[] = [];
    for (const e of entries) {
      if (!isOriginAddressAllowed(e.ip, this.allowPrivateOrigins))
        bad.push({ field: e.field, key: 'originNotAllowed' });
      else if (sockets.isNodeSocket(e.ip, e.port, e.portMap)) bad.push({ field: e.field, key: 'originIsNode' });
    }
    if (bad.length > 0) throw invalidFields(locale, bad);
  }

  /** Domains with their upstreams and bound modules; `site` gives the operator whose CNAME domain the targets use. */
  private async present(
    repo: DomainsRepository,
    site: SiteView,
    rows: DomainRow[],
    db: Db = this.db,
  ): Promise<SiteDomain[]> {
    const ids = rows.map((r) => r.id);
    const [upstreams, modules] = await Promise.all([repo.upstreamsOf(ids), repo.modulesOf(ids)]);
    // Inside a transaction, `db` is it (PGlite has one connection: another query would wait forever).
    const cnameDomain = await this.cnames.domainOf(site.ownerId, db);
    const now = new Date();
    return rows.map((row) =>
      presentDomain(
        row,
        upstreams.filter((u) => u.domainId === row.id),
        cnameDomain,
        now,
        modules.filter((m) => m.domainId === row.id),
      ),
    );
  }

  async list(userId: number, siteId: number, q: DomainFilter & { page: number; pageSize: number }) {
    const site = await this.access.userSite(userId, siteId);
    const repo = this.repo();
    const { rows, total } = await repo.list(siteId, q, q.page, q.pageSize);
    return { data: await this.present(repo, site, rows), total };
  }

  /** Certificates named by the items must be the site's and cover the names (301001). */
  private async checkCertificates(
    db: Db,
    siteId: number,
    items: { name: string; certificateID: number }[],
    failures: Failures,
  ) {
    const ids = [...new Set(items.map((i) => i.certificateID).filter((id) => id !== 0))];
    const found = await new CertificatesRepository(db).findMany(siteId, ids);
    if (found.length !== ids.length) throw new AppError(101018);
    for (const item of items) {
      const cert = found.find((c) => c.id === item.certificateID);
      if (cert && !certificateCovers(cert.names, item.name)) failures.add(301001, item.name);
    }
  }

  async create(
    userId: number,
    siteId: number,
    items: (DomainSettingsIn & { name: string })[],
    locale: Locale,
  ): Promise<SiteDomain[]> {
    const site = await this.access.userSite(userId, siteId);
    await this.checkOrigins(
      locale,
      site.ownerId,
      items.flatMap((item, i) =>
        item.upstreams.map((u, j) => ({
          field: `domains.${i}.upstreams.${j}.ip`,
          ip: u.ip,
          port: u.port,
          portMap: item.portMap,
        })),
      ),
    );
    return this.db.transaction((tx) => this.insertAll(tx, site, items));
  }

  /** Checks and inserts new domains of a site inside the caller's transaction (101009 per name). */
  private async insertAll(tx: Db, site: SiteView, items: (DomainSettingsIn & { name: string })[]) {
    const siteId = site.id;
    const repo = this.repo(tx);
    const nodesStillFit = await this.capacity.before(tx, site.ownerId, { sites: [siteId] });
    await this.checkDomainLimit(tx, repo, siteId, items.length);
    const autoSSL = items.filter((i) => i.autoSSL).length;
    if (autoSSL > 0 && (await repo.countAutoSSL(siteId)) + autoSSL > AUTO_SSL_DOMAINS_PER_SITE_MAX) {
      throw new AppError(401004, { extra: { limit: AUTO_SSL_DOMAINS_PER_SITE_MAX } });
    }
    if (items.some((i) => i.portMap)) {
      const ports = await repo.listenPorts(siteId);
      for (const item of items) if (item.portMap) checkPortMap(item.scheme, ports);
    }
    const failures = new Failures();
    const seen = new Set<string>();
    for (const item of items) {
      if (seen.has(item.name)) failures.add(101025, item.name);
      seen.add(item.name);
      if (!servable(item.upstreams.map(toRow))) failures.add(401008, item.name);
    }
    const names = [...seen];
    for (const name of await repo.namesInSite(siteId, names)) failures.add(101025, name);
    // Proof of control (domain-proof.service.ts): a name another customer proved is taken; a new
    // claim that would go live at once must not meet another live one.
    const proof = await this.proof.initialStates(tx, site, items);
    for (const name of proof.refused) failures.add(401001, name);
    const live = items.filter((i) => i.status === 1 && proofIsLive(proof.states.get(i.name) ?? 0)).map((i) => i.name);
    for (const name of await repo.enabledNamesTaken(live)) failures.add(401001, name);
    await this.checkCertificates(tx, siteId, items, failures);
    failures.throwIfAny();

    const ids: number[] = [];
    for (const item of items) {
      const id = await this.insertDomain(repo, siteId, item, proof.states.get(item.name) ?? 0);
      await repo.insertUpstreams(id, item.upstreams.map(toRow));
      ids.push(id);
    }
    await nodesStillFit();
    const rows = await repo.findMany(siteId, ids);
    rows.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
    return this.present(repo, site, rows, tx);
  }

  /**
   * The site's limitation set by its operator (0 = none): 401002 when the new domains would take it
   * over. The site row stays locked until the transaction ends, so concurrent additions count in turn.
   */
  private async checkDomainLimit(tx: Db, repo: DomainsRepository, siteId: number, adding: number) {
    const site = await new SitesRepository(tx).lock(siteId);
    if (site && site.maxDomains > 0 && (await repo.countInSite(siteId)) + adding > site.maxDomains) {
      throw new AppError(401002);
    }
  }

  private async insertDomain(
    repo: DomainsRepository,
    siteId: number,
    item: DomainSettingsIn & { name: string },
    proofStatus: 0 | 1 | 2 | 3,
  ) {
    try {
      return await repo.insert({
        siteId,
        name: item.name,
        proofStatus,
        enabled: item.status === 1,
        scheme: item.scheme,
        hashType: item.hashType,
        hostName: item.hostName,
        forceSSL: item.forceSSL,
        autoSSL: item.autoSSL,
        portMap: item.portMap,
        certificateId: item.certificateID === 0 ? null : item.certificateID,
        tags: [...new Set(item.tags)],
      });
    } catch (err) {
      // Another request took the name between the check and this insert.
      if (isUniqueViolation(err)) throw new AppError(101009, { errors: [{ code: 401001, targets: [item.name] }] });
      throw err;
    }
  }

  private async oneDomain(repo: DomainsRepository, siteId: number, id: number): Promise<DomainRow> {
    const [row] = await repo.findMany(siteId, [id]);
    if (!row) throw new AppError(101018);
    return row;
  }

  async update(userId: number, siteId: number, input: DomainUpdateIn, locale: Locale): Promise<SiteDomain> {
    const site = await this.access.userSite(userId, siteId);
    await this.checkOrigins(
      locale,
      site.ownerId,
      input.upstreams.map((u, j) => ({ field: `upstreams.${j}.ip`, ip: u.ip, port: u.port, portMap: input.portMap })),
    );
    return this.db.transaction(async (tx) => {
      const repo = this.repo(tx);
      const row = await this.oneDomain(repo, siteId, input.id);
      // A setting left out keeps its current value.
      const enabled = input.status === undefined ? row.enabled : input.status === 1;
      const certificateId =
        input.certificateID === undefined ? row.certificateId : input.certificateID === 0 ? null : input.certificateID;
      const failures = new Failures();
      if (!servable(input.upstreams.map(toRow))) failures.add(401008, row.name);
      if (enabled && proofIsLive(row.proofStatus) && (await repo.enabledNamesTaken([row.name], [row.id])).length > 0) {
        failures.add(401001, row.name);
      }
      if (enabled && !row.enabled && !proofIsLive(row.proofStatus)) {
        for (const name of await this.proof.refusedToEnable(tx, site, [row.name])) failures.add(401001, name);
      }
      if (input.certificateID !== undefined) {
        await this.checkCertificates(tx, siteId, [{ name: row.name, certificateID: input.certificateID }], failures);
      }
      failures.throwIfAny();
      const scheme = input.scheme ?? row.scheme;
      const autoSSL = input.autoSSL ?? row.autoSSL;
      const portMap = input.portMap ?? row.portMap;
      if (autoSSL && !row.autoSSL) await this.checkAutoSSL(repo, siteId, [row.id]);
      if (portMap) checkPortMap(scheme, await repo.listenPorts(siteId));
      try {
        await repo.update(siteId, [row.id], {
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
      await repo.replaceUpstreams(row.id, input.upstreams.map(toRow));
      const [presented] = await this.present(repo, site, [await this.oneDomain(repo, siteId, row.id)], tx);
      if (!presented) throw new Error('updated domain not found');
      return presented;
    });
  }

  /** Runs `change` on all the ids or none: an id outside the site rolls everything back. */
  private async allOrNone(
    userId: number,
    siteId: number,
    ids: number[],
    change: (repo: DomainsRepository, unique: number[], rows: DomainRow[], tx: Db, site: SiteView) => Promise<void>,
  ) {
    const site = await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.db.transaction(async (tx) => {
      const repo = this.repo(tx);
      const rows = await repo.findMany(siteId, unique);
      if (rows.length !== unique.length) throw new AppError(101018);
      await change(repo, unique, rows, tx, site);
    });
  }

  delete(userId: number, siteId: number, ids: number[]) {
    return this.allOrNone(userId, siteId, ids, async (repo, unique) => {
      await repo.deleteMany(siteId, unique);
    });
  }

  setStatus(userId: number, siteId: number, ids: number[], status: 0 | 1) {
    return this.allOrNone(userId, siteId, ids, async (repo, unique, rows, tx, site) => {
      if (status === 1) {
        const failures = new Failures();
        const waiting = rows.filter((r) => !r.enabled && !proofIsLive(r.proofStatus)).map((r) => r.name);
        for (const name of await this.proof.refusedToEnable(tx, site, waiting)) failures.add(401001, name);
        const names = rows.filter((r) => proofIsLive(r.proofStatus)).map((r) => r.name);
        const seen = new Set<string>();
        for (const name of names) {
          if (seen.has(name)) failures.add(401001, name);
          seen.add(name);
        }
        for (const name of await repo.enabledNamesTaken(names, unique)) failures.add(401001, name);
        failures.throwIfAny();
      }
      try {
        await repo.update(siteId, unique, { enabled: status === 1 });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(101009, { errors: [{ code: 401001, targets: [] }] });
        throw err;
      }
    });
  }

  setForceSSL(userId: number, siteId: number, ids: number[], forceSSL: boolean) {
    return this.allOrNone(userId, siteId, ids, async (repo, unique) => {
      await repo.update(siteId, unique, { forceSSL });
    });
  }

  setBalance(userId: number, siteId: number, ids: number[], hashType: 0 | 1) {
    return this.allOrNone(userId, siteId, ids, async (repo, unique) => {
      await repo.update(siteId, unique, { hashType });
    });
  }

  /** 401004 when turning auto SSL on for `ids` would take the site over its limit. */
  private async checkAutoSSL(repo: DomainsRepository, siteId: number, ids: number[]) {
    if ((await repo.countAutoSSL(siteId, ids)) + ids.length > AUTO_SSL_DOMAINS_PER_SITE_MAX) {
      throw new AppError(401004, { extra: { limit: AUTO_SSL_DOMAINS_PER_SITE_MAX } });
    }
  }

  setAutoSSL(userId: number, siteId: number, ids: number[], autoSSL: boolean) {
    return this.allOrNone(userId, siteId, ids, async (repo, unique) => {
      if (autoSSL) await this.checkAutoSSL(repo, siteId, unique);
      await repo.update(siteId, unique, { autoSSL });
    });
  }

  /** The scheme, and the port map when given (kept otherwise); 401003 when the map cannot work. */
  setScheme(userId: number, siteId: number, id: number, scheme: 0 | 1, portMap?: boolean) {
    return this.allOrNone(userId, siteId, [id], async (repo, unique, rows) => {
      const mapped = portMap ?? rows[0]?.portMap ?? false;
      if (mapped) checkPortMap(scheme, await repo.listenPorts(siteId));
      await repo.update(siteId, unique, { scheme, portMap: mapped });
    });
  }

  /**
   * Resolves each domain's name (a wildcard through `<label>.<parent>`) and records whether it
   * points at its CNAME target. Every name is resolved before anything is written: a resolver
   * failure answers 101010 naming the host and reason, and records nothing.
   */
  async checkCname(userId: number, siteId: number, ids: number[]): Promise<DomainCnameCheck[]> {
    const site = await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    const repo = this.repo();
    const rows = await repo.findMany(siteId, unique);
    if (rows.length !== unique.length) throw new AppError(101018);
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
    await this.db.transaction(async (tx) => {
      const txRepo = this.repo(tx);
      await txRepo.setCnameStatus(siteId, verified, DOMAIN_CNAME_STATUS.verified, at);
      await txRepo.setCnameStatus(siteId, notPointing, DOMAIN_CNAME_STATUS.notPointing, at);
    });
    // A name that CNAMEs to its claim's own target proves control of it.
    await this.proof.cnameVerified(siteId, verified, at);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      cname: cnameTarget(row, cnameDomain),
      cnameStatus: results.get(row.id) ? DOMAIN_CNAME_STATUS.verified : DOMAIN_CNAME_STATUS.notPointing,
      cnameCheckedAt: at.toISOString(),
    }));
  }

  async listUpstreams(userId: number, siteId: number, domainId: number): Promise<DomainUpstream[]> {
    await this.access.userSite(userId, siteId);
    const repo = this.repo();
    await this.oneDomain(repo, siteId, domainId);
    return (await repo.upstreamsOf([domainId])).map(presentUpstream);
  }

  /** Changes a domain's upstreams, then checks the result still has a servable upstream (401008). */
  private async changeUpstreams<T>(
    userId: number,
    siteId: number,
    domainId: number,
    change: (repo: DomainsRepository) => Promise<T>,
    limit = 64,
  ): Promise<T> {
    await this.access.userSite(userId, siteId);
    return this.db.transaction(async (tx) => {
      const repo = this.repo(tx);
      const row = await this.oneDomain(repo, siteId, domainId);
      const result = await change(repo);
      const after = await repo.upstreamsOf([domainId]);
      if (after.length > limit) throw new AppError(101029);
      if (!servable(after)) throw new AppError(401008, { extra: { targets: [row.name] } });
      await repo.touch(domainId);
      return result;
    });
  }

  async addUpstreams(userId: number, siteId: number, domainId: number, list: UpstreamIn[], locale: Locale) {
    const site = await this.access.userSite(userId, siteId);
    await this.checkOrigins(
      locale,
      site.ownerId,
      list.map((u, j) => ({ field: `upstreams.${j}.ip`, ip: u.ip, port: u.port })),
    );
    const rows = await this.changeUpstreams(userId, siteId, domainId, (repo) =>
      repo.insertUpstreams(domainId, list.map(toRow)),
    );
    return rows.map(presentUpstream);
  }

  deleteUpstreams(userId: number, siteId: number, domainId: number, ids: number[]) {
    const unique = [...new Set(ids)];
    return this.changeUpstreams(userId, siteId, domainId, async (repo) => {
      if ((await repo.deleteUpstreams(domainId, unique)) !== unique.length) throw new AppError(101018);
    });
  }

  async updateUpstream(
    userId: number,
    siteId: number,
    domainId: number,
    input: UpstreamIn & { id: number },
    locale: Locale,
  ): Promise<DomainUpstream> {
    const site = await this.access.userSite(userId, siteId);
    await this.checkOrigins(locale, site.ownerId, [{ field: 'ip', ip: input.ip, port: input.port }]);
    const row = await this.changeUpstreams(userId, siteId, domainId, async (repo) => {
      const updated = await repo.updateUpstream(domainId, input.id, toRow(input));
      if (!updated) throw new AppError(101018);
      return updated;
    });
    return presentUpstream(row);
  }
  async createSimple(
    userId: number,
    siteId: number,
    names: string[],
    upstreams: UpstreamIn[],
    locale: Locale,
  ): Promise<SiteDomain[]> {
    const site = await this.access.userSite(userId, siteId);
    await this.checkOrigins(
      locale,
      site.ownerId,
      upstreams.map((u, j) => ({ field: `upstreams.${j}.ip`, ip: u.ip, port: u.port })),
    );
    const items = names.map((name) => ({ name, upstreams, ...SIMPLE_DEFAULTS }));
    return this.db.transaction((tx) => this.insertAll(tx, site, items));
  }

  /** All or none: a name the site does not have answers 101009 naming it (101018). */
  async deleteByNames(userId: number, siteId: number, names: string[]) {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(names)];
    await this.db.transaction(async (tx) => {
      const repo = this.repo(tx);
      const rows = await repo.findByNames(siteId, unique);
      const failures = new Failures();
      for (const name of unique) if (!rows.some((r) => r.name === name)) failures.add(101018, name);
      failures.throwIfAny();
      await repo.deleteMany(
        siteId,
        rows.map((r) => r.id),
      );
    });
  }

  async meta(userId: number, siteId: number, keyword: string) {
    await this.access.userSite(userId, siteId);
    const rows = await this.repo().meta(siteId, keyword, SITE_DOMAIN_META_MAX);
    return rows.map((r) => ({ id: r.id, name: r.name, status: r.enabled ? (1 as const) : (0 as const) }));
  }

  async settings(userId: number, siteId: number, name: string): Promise<SiteDomain> {
    const site = await this.access.userSite(userId, siteId);
    const repo = this.repo();
    const [row] = await repo.findByNames(siteId, [name]);
    if (!row) throw new AppError(101018);
    const [presented] = await this.present(repo, site, [row]);
    if (!presented) throw new Error('domain vanished');
    return presented;
  }

  setTags(userId: number, siteId: number, ids: number[], tags: string[]) {
    return this.allOrNone(userId, siteId, ids, async (repo, unique) => {
      await repo.update(siteId, unique, { tags: [...new Set(tags)] });
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
    locale: Locale,
  ): Promise<{ domains: number; upstreams: number }> {
    const site = await this.access.userSite(userId, siteId);
    await this.checkOrigins(locale, site.ownerId, [{ field: 'newIP', ip: newIP, port: 0 }]);
    const sockets = await NodeSockets.ofOperator(this.db, site.ownerId);
    const unique = [...new Set(ids)];
    return this.db.transaction(async (tx) => {
      const repo = this.repo(tx);
      if (unique.length > 0 && (await repo.findMany(siteId, unique)).length !== unique.length) {
        throw new AppError(101018);
      }
      const moved = await repo.replaceUpstreamIP(siteId, unique, oldIP.toLowerCase(), newIP.toLowerCase());
      // Each moved upstream keeps its port: none may become one of the nodes' sockets.
      if (moved.some((u) => sockets.isNodeSocket(newIP, u.port))) {
        throw invalidFields(locale, [{ field: 'newIP', key: 'originIsNode' }]);
      }
      const changed = moved.map((u) => u.domainId);
      const domainIds = [...new Set(changed)];
      await repo.touch(domainIds);
      return { domains: domainIds.length, upstreams: changed.length };
    });
  }

  /** One upstream list for several domains, all or none (401008 when none would serve). */
  async replaceManyUpstreams(userId: number, siteId: number, ids: number[], upstreams: UpstreamIn[], locale: Locale) {
    const site = await this.access.userSite(userId, siteId);
    await this.checkOrigins(
      locale,
      site.ownerId,
      upstreams.map((u, j) => ({ field: `upstreams.${j}.ip`, ip: u.ip, port: u.port })),
    );
    const list = upstreams.map(toRow);
    return this.allOrNone(userId, siteId, ids, async (repo, unique, rows) => {
      if (!servable(list)) throw new AppError(401008, { extra: { targets: rows.map((r) => r.name) } });
      for (const id of unique) await repo.replaceUpstreams(id, list);
      await repo.touch(unique);
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
    return this.db.transaction(async (tx) => {
      const repo = this.repo(tx);
      const rows = await repo.findMany(siteId, unique);
      if (rows.length !== unique.length) throw new AppError(101018);
      rows.sort((a, b) => unique.indexOf(a.id) - unique.indexOf(b.id));
      const upstreams = await repo.upstreamsOf(unique);
      const items = rows.map((row) => ({
        ...settingsOf(
          row,
          upstreams.filter((u) => u.domainId === row.id),
        ),
        name: row.name,
        status: 0 as const,
        certificateID: 0,
      }));
      return this.insertAll(tx, target, items);
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
    return this.db.transaction(async (tx) => {
      const repo = this.repo(tx);
      const source = await this.oneDomain(repo, siteId, domainId);
      const base = settingsOf(source, await repo.upstreamsOf([source.id]));
      const [cert] =
        source.certificateId === null
          ? []
          : await new CertificatesRepository(tx).findMany(siteId, [source.certificateId]);
      const items = names.map((name) => ({
        ...base,
        name,
        status,
        certificateID: cert && certificateCovers(cert.names, name) ? cert.id : 0,
      }));
      return this.insertAll(tx, site, items);
    });
  }

  /** The given domains (all of the site when none is given) as a CSV file, by name. */
  async export(userId: number, siteId: number, ids: number[]): Promise<{ fileName: string; csv: string }> {
    const site = await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    const repo = this.repo();
    const rows = await repo.forExport(siteId, unique);
    if (rows.length !== unique.length && unique.length > 0) throw new AppError(101018);
    const domains = await this.present(repo, site, rows);
    const lines = [
      EXPORT_DOMAIN_COLUMNS.join(','),
      ...domains.map((d) =>
        [
          d.name,
          d.status,
          d.scheme === 1 ? 'https' : 'http',
          d.hashType === 1 ? 'ipHash' : 'roundRobin',
          d.hostName,
          d.forceSSL,
          d.autoSSL,
          d.portMap,
          d.cname,
          d.cnameStatus,
          d.certificateName,
          d.tags.join(' '),
          d.upstreams
            .map(
              (u) =>
                `${u.ip.includes(':') ? `[${u.ip}]` : u.ip}:${u.port}*${u.weight}${u.backup ? ' backup' : ''}${u.status === 1 ? '' : ' disabled'}`,
            )
            .join('; '),
          d.createdAt,
          d.updatedAt,
        ]
          .map(csvCell)
          .join(','),
      ),
    ];
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
    return { fileName: `domains-site${siteId}-${stamp}.csv`, csv: `${lines.join('\r\n')}\r\n` };
  }
}

/** Everything of a domain but its name, status and certificate, as input for a new domain. */
function settingsOf(row: DomainRow, upstreams: UpstreamRow[]): Omit<DomainSettingsIn, 'status' | 'certificateID'> {
  return {
    upstreams: upstreams.map((u) => ({
      ip: u.ip,
      port: u.port,
      weight: u.weight,
      backup: u.backup,
      status: u.enabled ? 1 : 0,
    })),
    scheme: row.scheme,
    hashType: row.hashType,
    hostName: row.hostName,
    forceSSL: row.forceSSL,
    autoSSL: row.autoSSL,
    portMap: row.portMap,
    tags: row.tags,
  };
}

const SIMPLE_DEFAULTS = {
  scheme: 0,
  hashType: 0,
  hostName: '',
  forceSSL: false,
  autoSSL: false,
  portMap: false,
  certificateID: 0,
  status: 1,
  tags: [] as string[],
} as const;

/** DNS queries of one checkCNAME call in flight at once. */
const CNAME_CHECK_CONCURRENCY = 8;

/** Runs `work` on every item, at most `limit` at a time; after the first failure no new item starts. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length && !failed) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  });
  await Promise.all(lanes);
}

/** One CSV cell (RFC 4180 quoting); a leading = + - @ is neutralised so spreadsheets do not evaluate it. */
export function csvCell(value: string | number | boolean): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The customer's domains across its sites (pickers, tag filters, ids by name). */
export class UserDomainsService {
  constructor(private readonly db: Db) {}

  meta(userId: number, siteIds: number[], name: string) {
    return new DomainsAcrossSitesRepository(this.db).meta(
      { userId },
      [...new Set(siteIds)],
      name,
      SITE_DOMAIN_META_MAX,
    );
  }

  tags(userId: number, siteIds: number[]) {
    return new DomainsAcrossSitesRepository(this.db).tags({ userId }, [...new Set(siteIds)]);
  }

  ids(userId: number, q: { name: string } & DomainSiteFilter) {
    return new DomainsAcrossSitesRepository(this.db).idsByName({ userId }, q.name, q);
  }
}
