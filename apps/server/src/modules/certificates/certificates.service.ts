import {
  CERTIFICATE_EXPIRING_DAYS,
  type CertificateCreateIn,
  type CertificateDetail,
  type CertificateListQuery,
  type CertificateUpdateIn,
  EXPIRING_CERTIFICATES_MAX,
  type ExpiringCertificate,
} from '@rampart/contract';
import type { Clock } from '../../platform/clock.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { Transactions } from '../../platform/db/request-transaction.js';
import { requireEvery } from '../../platform/errors/all-or-none.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SiteAccess } from '../../platform/tenancy/site-access.js';
import { presentCertificate, presentCertificateDetail, presentCertificateMeta } from './certificates.presenter.js';
import type { CertificateRow, CertificatesRepository } from './certificates.repository.js';
import { CertificateInputError, certificateCovers, type ParsedCertificate, parseCertificate } from './x509.js';

/** A parsed certificate as the `certificates` table stores it (the key sealed); uploads and issued ones alike. */
export function certificateColumns(parsed: ParsedCertificate, box: SecretBox) {
  return {
    certPem: parsed.chainPem,
    keySealed: box.seal(parsed.keyPem),
    names: parsed.names,
    issuer: parsed.issuer,
    notBefore: parsed.notBefore,
    notAfter: parsed.notAfter,
    fingerprint: parsed.fingerprint,
  };
}

/** Uploaded certificates of a site: parsed, checked, keys sealed; assigned to the site's domains. */
export class CertificatesService {
  constructor(
    private readonly repo: CertificatesRepository,
    private readonly transactions: Transactions,
    private readonly access: SiteAccess,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  /** The customer's certificates ending within CERTIFICATE_EXPIRING_DAYS days or ended, across its sites. */
  async expiring(userId: number): Promise<{ total: number; certificates: ExpiringCertificate[] }> {
    const now = this.clock();
    const before = new Date(now + CERTIFICATE_EXPIRING_DAYS * 86_400_000);
    const { rows, total } = await this.repo.endingBefore({ userId }, before, EXPIRING_CERTIFICATES_MAX);
    return {
      total,
      certificates: rows.map((r) => ({
        id: r.id,
        name: r.name,
        siteID: r.siteId,
        siteName: r.siteName,
        notAfter: r.notAfter.toISOString(),
        status: r.notAfter.getTime() <= now ? 'expired' : 'expiring',
      })),
    };
  }

  private parse(certificate: string, privateKey: string): ParsedCertificate {
    try {
      return parseCertificate(certificate, privateKey, new Date(this.clock()));
    } catch (err) {
      if (err instanceof CertificateInputError) {
        throw invalidFields([{ field: err.field, key: err.key, ...(err.params ? { params: err.params } : {}) }]);
      }
      throw err;
    }
  }

  async list(userId: number, siteId: number, q: CertificateListQuery) {
    await this.access.userSite(userId, siteId);
    const { rows, total } = await this.repo.list(siteId, q);
    const now = this.clock();
    return { data: rows.map((r) => presentCertificate(r, now)), total };
  }

  async meta(userId: number, siteId: number) {
    await this.access.userSite(userId, siteId);
    return (await this.repo.meta(siteId)).map(presentCertificateMeta);
  }

  async get(userId: number, siteId: number, id: number): Promise<CertificateDetail> {
    await this.access.userSite(userId, siteId);
    return this.detail(siteId, id);
  }

  private async detail(siteId: number, id: number): Promise<CertificateDetail> {
    const row = await this.repo.find(siteId, id);
    if (!row) throw new AppError(101018);
    return presentCertificateDetail(row, await this.repo.domainsOf(siteId, [id]), this.clock());
  }

  private columns(parsed: ParsedCertificate) {
    return certificateColumns(parsed, this.box);
  }

  async create(userId: number, siteId: number, input: CertificateCreateIn): Promise<CertificateDetail> {
    await this.access.userSite(userId, siteId);
    const parsed = this.parse(input.certificate, input.privateKey);
    const id = await this.repo.insert({ siteId, name: input.name.trim(), memo: input.memo, ...this.columns(parsed) });
    return this.detail(siteId, id);
  }

  /** A new chain must still cover every domain the certificate is assigned to (301001 names them). */
  async update(userId: number, siteId: number, input: CertificateUpdateIn): Promise<CertificateDetail> {
    await this.access.userSite(userId, siteId);
    const parsed =
      input.certificate !== undefined && input.privateKey !== undefined
        ? this.parse(input.certificate, input.privateKey)
        : null;
    return this.transactions.run(async () => {
      if (!(await this.repo.find(siteId, input.id))) throw new AppError(101018);
      if (parsed) {
        const uncovered = (await this.repo.domainsOf(siteId, [input.id])).filter(
          (d) => !certificateCovers(parsed.names, d.name),
        );
        if (uncovered.length > 0) throw new AppError(301001, { extra: { targets: uncovered.map((d) => d.name) } });
      }
      await this.repo.update(siteId, input.id, {
        name: input.name.trim(),
        memo: input.memo,
        ...(parsed ? this.columns(parsed) : {}),
      });
      return this.detail(siteId, input.id);
    });
  }

  /**
   * All or none; a certificate still assigned is refused with the domains named. Ownership of every
   * id is settled first, so another site's certificate answers 101018 whatever uses it.
   */
  async delete(userId: number, siteId: number, ids: number[]): Promise<void> {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.transactions.run(async () => {
      requireEvery(await this.repo.findMany(siteId, unique), unique);
      const used = await this.repo.domainsOf(siteId, unique);
      if (used.length > 0) {
        const firstUsed = used[0]?.certificateId;
        throw invalidFields([
          {
            field: `ids.${unique.indexOf(firstUsed ?? 0)}`,
            key: 'certificateInUse',
            params: { domains: used.map((d) => d.name).join(', ') },
          },
        ]);
      }
      requireEvery(await this.repo.deleteMany(siteId, unique), unique);
    });
  }

  /** Sets (or with 0 clears) the certificate of domains of the site; 301001 lists domains it does not cover. */
  async assign(userId: number, siteId: number, certificateId: number, domainIds: number[]): Promise<void> {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(domainIds)];
    await this.transactions.run(async () => {
      let cert: CertificateRow | undefined;
      if (certificateId !== 0) {
        cert = await this.repo.find(siteId, certificateId);
        if (!cert) throw new AppError(101018);
      }
      const rows = await this.repo.siteDomains(siteId, unique);
      requireEvery(rows, unique);
      if (cert) {
        const names = cert.names;
        const uncovered = rows.filter((d) => !certificateCovers(names, d.name));
        if (uncovered.length > 0) throw new AppError(301001, { extra: { targets: uncovered.map((d) => d.name) } });
      }
      await this.repo.assign(siteId, unique, cert ? cert.id : null);
    });
  }
}
