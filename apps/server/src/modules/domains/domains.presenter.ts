import {
  DOMAIN_CERT_STATUS,
  DOMAIN_CNAME_STATUS,
  type DomainCertStatus,
  type DomainCnameCheck,
  type DomainUpstream,
  proofRecordName,
  type SiteDomain,
} from '@rampart/contract';
import { cnameTarget } from './domain-names.js';
import type { DomainRow, UpstreamRow } from './domains.repository.js';

/** The modules bound to one domain, by type (see routes/site-modules.ts). */
export type DomainModuleRefs = { type: string; moduleId: number; name: string }[];

export function presentUpstream(u: UpstreamRow): DomainUpstream {
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
    ...(row.autoSSL && row.autoSSLStatus
      ? { autoSSLStatus: row.autoSSLStatus, autoSSLError: row.autoSSLError ?? '' }
      : {}),
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
    luaAclModuleID: bound('luaAcl')?.moduleId ?? 0,
    luaAclModuleName: bound('luaAcl')?.name ?? '',
    tokenAuthModuleID: bound('tokenAuth')?.moduleId ?? 0,
    tokenAuthModuleName: bound('tokenAuth')?.name ?? '',
    wafModuleID: bound('waf')?.moduleId ?? 0,
    wafModuleName: bound('waf')?.name ?? '',
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Domains with their upstreams and bound modules, `cnameDomain` being the operator's (the
 * targets are labels under it).
 */
export function presentDomains(
  rows: DomainRow[],
  upstreams: UpstreamRow[],
  modules: (DomainModuleRefs[number] & { domainId: number })[],
  cnameDomain: string,
  now = new Date(),
): SiteDomain[] {
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

/** A domain for pickers: id, name and status. */
export function presentDomainMeta(row: { id: number; name: string; enabled: boolean }) {
  return { id: row.id, name: row.name, status: row.enabled ? (1 as const) : (0 as const) };
}

/** The outcome of one domain's CNAME check at `at`. */
export function presentCnameCheck(
  row: Pick<DomainRow, 'id' | 'name' | 'cnameLabel'>,
  cnameDomain: string,
  pointing: boolean,
  at: Date,
): DomainCnameCheck {
  return {
    id: row.id,
    name: row.name,
    cname: cnameTarget(row, cnameDomain),
    cnameStatus: pointing ? DOMAIN_CNAME_STATUS.verified : DOMAIN_CNAME_STATUS.notPointing,
    cnameCheckedAt: at.toISOString(),
  };
}
