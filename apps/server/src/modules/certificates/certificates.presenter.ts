import { CERTIFICATE_EXPIRING_DAYS, type CertificateDetail, type CertificateSummary } from '@rampart/contract';
import type { CertificateListRow, CertificateRow } from './certificates.repository.js';

const DAY_MS = 86_400_000;

/** Expired, expiring within CERTIFICATE_EXPIRING_DAYS, or valid, at `now` (ms). */
function status(notAfter: Date, now: number): CertificateSummary['status'] {
  const left = notAfter.getTime() - now;
  if (left <= 0) return 'expired';
  return left <= CERTIFICATE_EXPIRING_DAYS * DAY_MS ? 'expiring' : 'valid';
}

export function presentCertificate(row: CertificateListRow, now: number): CertificateSummary {
  return {
    id: row.id,
    siteID: row.siteId,
    name: row.name,
    memo: row.memo,
    names: row.names,
    issuer: row.issuer,
    notBefore: row.notBefore.toISOString(),
    notAfter: row.notAfter.toISOString(),
    status: status(row.notAfter, now),
    domainCount: row.domainCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** One certificate with its chain and the domains of the site that use it. */
export function presentCertificateDetail(
  row: CertificateRow,
  used: { id: number; name: string }[],
  now: number,
): CertificateDetail {
  return {
    ...presentCertificate({ ...row, domainCount: used.length }, now),
    certificate: row.certPem,
    fingerprintSha256: row.fingerprint,
    domains: used.map((d) => ({ id: d.id, name: d.name })),
  };
}

/** A certificate for pickers. */
export function presentCertificateMeta(row: { id: number; name: string; names: string[]; notAfter: Date }) {
  return { id: row.id, name: row.name, names: row.names, notAfter: row.notAfter.toISOString() };
}
