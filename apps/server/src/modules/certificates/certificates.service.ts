import {
  CERTIFICATE_EXPIRING_DAYS,
  type CertificateDetail,
  type CertificateSummary,
  type Locale,
} from '@rampart/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { Db } from '../../platform/db/database.js';
import { domains } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors/app-error.js';
import { invalidFields } from '../../platform/http/validation.js';
import type { SiteAccess } from '../sites/site-access.js';
import { type CertificateListRow, type CertificateRow, CertificatesRepository } from './certificates.repository.js';
import { CertificateInputError, certificateCovers, type ParsedCertificate, parseCertificate } from './x509.js';

const DAY_MS = 86_400_000;

type Paged = { name?: string | undefined; sortBy: 'name' | 'notAfter' | 'createdAt'; orderBy: 'asc' | 'desc' };

/** Uploaded certificates of a site: parsed, checked, keys sealed; assigned to the site's domains. */
export class CertificatesService {
  constructor(
    private readonly db: Db,
    private readonly repo: CertificatesRepository,
    private readonly access: SiteAccess,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  private status(notAfter: Date): CertificateSummary['status'] {
    const left = notAfter.getTime() - this.clock();
    if (left <= 0) return 'expired';
    return left <= CERTIFICATE_EXPIRING_DAYS * DAY_MS ? 'expiring' : 'valid';
  }

  private present(row: CertificateListRow): CertificateSummary {
    return {
      id: row.id,
      siteID: row.siteId,
      name: row.name,
      memo: row.memo,
      names: row.names,
      issuer: row.issuer,
      notBefore: row.notBefore.toISOString(),
      notAfter: row.notAfter.toISOString(),
      status: this.status(row.notAfter),
      domainCount: row.domainCount,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  private parse(locale: Locale, certificate: string, privateKey: string): ParsedCertificate {
    try {
      return parseCertificate(certificate, privateKey, new Date(this.clock()));
    } catch (err) {
      if (err instanceof CertificateInputError) {
        throw invalidFields(locale, [
          { field: err.field, key: err.key, ...(err.params ? { params: err.params } : {}) },
        ]);
      }
      throw err;
    }
  }

  async list(userId: number, siteId: number, q: Paged & { page: number; pageSize: number }) {
    await this.access.userSite(userId, siteId);
    const { rows, total } = await this.repo.list(siteId, q);
    return { data: rows.map((r) => this.present(r)), total };
  }

  async meta(userId: number, siteId: number) {
    await this.access.userSite(userId, siteId);
    const rows = await this.repo.meta(siteId);
    return rows.map((r) => ({ id: r.id, name: r.name, names: r.names, notAfter: r.notAfter.toISOString() }));
  }

  async get(userId: number, siteId: number, id: number): Promise<CertificateDetail> {
    await this.access.userSite(userId, siteId);
    return this.detail(siteId, id);
  }

  private async detail(siteId: number, id: number, repo = this.repo): Promise<CertificateDetail> {
    const row = await repo.find(siteId, id);
    if (!row) throw new AppError(101018);
    const used = await repo.domainsOf(siteId, [id]);
    return {
      ...this.present({ ...row, domainCount: used.length }),
      certificate: row.certPem,
      fingerprintSha256: row.fingerprint,
      domains: used.map((d) => ({ id: d.id, name: d.name })),
    };
  }

  private columns(parsed: ParsedCertificate) {
    return {
      certPem: parsed.chainPem,
      keySealed: this.box.seal(parsed.keyPem),
      names: parsed.names,
      issuer: parsed.issuer,
      notBefore: parsed.notBefore,
      notAfter: parsed.notAfter,
      fingerprint: parsed.fingerprint,
    };
  }

  async create(
    userId: number,
    siteId: number,
    input: { name: string; memo: string; certificate: string; privateKey: string },
    locale: Locale,
  ): Promise<CertificateDetail> {
    await this.access.userSite(userId, siteId);
    const parsed = this.parse(locale, input.certificate, input.privateKey);
    const id = await this.repo.insert({ siteId, name: input.name.trim(), memo: input.memo, ...this.columns(parsed) });
    return this.detail(siteId, id);
  }

  /** A new chain must still cover every domain the certificate is assigned to (301001 names them). */
  async update(
    userId: number,
    siteId: number,
    input: {
      id: number;
      name: string;
      memo: string;
      certificate?: string | undefined;
      privateKey?: string | undefined;
    },
    locale: Locale,
  ): Promise<CertificateDetail> {
    await this.access.userSite(userId, siteId);
    const parsed =
      input.certificate !== undefined && input.privateKey !== undefined
        ? this.parse(locale, input.certificate, input.privateKey)
        : null;
    return this.db.transaction(async (tx) => {
      const repo = new CertificatesRepository(tx);
      if (!(await repo.find(siteId, input.id))) throw new AppError(101018);
      if (parsed) {
        const uncovered = (await repo.domainsOf(siteId, [input.id])).filter(
          (d) => !certificateCovers(parsed.names, d.name),
        );
        if (uncovered.length > 0) throw new AppError(301001, { extra: { targets: uncovered.map((d) => d.name) } });
      }
      await repo.update(siteId, input.id, {
        name: input.name.trim(),
        memo: input.memo,
        ...(parsed ? this.columns(parsed) : {}),
      });
      return this.detail(siteId, input.id, repo);
    });
  }

  /**
   * All or none; a certificate still assigned is refused with the domains named. Ownership of every
   * id is settled first, so another site's certificate answers 101018 whatever uses it.
   */
  async delete(userId: number, siteId: number, ids: number[], locale: Locale): Promise<void> {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(ids)];
    await this.db.transaction(async (tx) => {
      const repo = new CertificatesRepository(tx);
      if ((await repo.findMany(siteId, unique)).length !== unique.length) throw new AppError(101018);
      const used = await repo.domainsOf(siteId, unique);
      if (used.length > 0) {
        const firstUsed = used[0]?.certificateId;
        throw invalidFields(locale, [
          {
            field: `ids.${unique.indexOf(firstUsed ?? 0)}`,
            key: 'certificateInUse',
            params: { domains: used.map((d) => d.name).join(', ') },
          },
        ]);
      }
      if ((await repo.deleteMany(siteId, unique)) !== unique.length) throw new AppError(101018);
    });
  }

  /** Sets (or with 0 clears) the certificate of domains of the site; 301001 lists domains it does not cover. */
  async assign(userId: number, siteId: number, certificateId: number, domainIds: number[]): Promise<void> {
    await this.access.userSite(userId, siteId);
    const unique = [...new Set(domainIds)];
    await this.db.transaction(async (tx) => {
      let cert: CertificateRow | undefined;
      if (certificateId !== 0) {
        cert = await new CertificatesRepository(tx).find(siteId, certificateId);
        if (!cert) throw new AppError(101018);
      }
      const rows = await tx
        .select({ id: domains.id, name: domains.name })
        .from(domains)
        .where(and(eq(domains.siteId, siteId), inArray(domains.id, unique)));
      if (rows.length !== unique.length) throw new AppError(101018);
      if (cert) {
        const names = cert.names;
        const uncovered = rows.filter((d) => !certificateCovers(names, d.name));
        if (uncovered.length > 0) throw new AppError(301001, { extra: { targets: uncovered.map((d) => d.name) } });
      }
      await tx
        .update(domains)
        .set({ certificateId: cert ? cert.id : null, updatedAt: sql`now()` })
        .where(and(eq(domains.siteId, siteId), inArray(domains.id, unique)));
    });
  }
}
