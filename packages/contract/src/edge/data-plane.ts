import { z } from 'zod';
import { isIP } from '../validators/ip.js';

/**
 * The data-plane document: everything an edge node serves per domain. The control plane builds it
 * (inside a node snapshot), the agent validates it with these same schemas (allowlists, limits)
 * before anything reaches nginx, and the Lua admin endpoint checks its shape again. None of these
 * values is ever rendered into nginx.conf: they live in Lua shared memory.
 */

export const DATA_PLANE_LIMITS = {
  domains: 50_000,
  certificates: 10_000,
  upstreamsPerDomain: 64,
  documentBytes: 256 * 1024 * 1024,
  certPemBytes: 64 * 1024,
  keyPemBytes: 16 * 1024,
  versionLength: 128,
  hostLength: 253,
} as const;

/** Lower-case ASCII host with an optional leading `*.`; the last label is letters or an `xn--` A-label. */
export const HOST_NAME_RE = /^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
const VERSION_RE = /^[A-Za-z0-9._:-]+$/;
const CERT_BLOCK_RE = /-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+?-----END CERTIFICATE-----/g;
const KEY_BLOCK_RE =
  /^-----BEGIN (PRIVATE KEY|RSA PRIVATE KEY|EC PRIVATE KEY)-----\r?\n[A-Za-z0-9+/=\r\n]+?-----END \1-----\s*$/;

/** One or more CERTIFICATE blocks (leaf first, then the chain) and nothing else but whitespace. */
function isCertificateChain(pem: string): boolean {
  const rest = pem.replace(CERT_BLOCK_RE, '');
  return rest !== pem && rest.trim() === '';
}

const id = z.number().int().min(1).max(2_147_483_647);
const hostName = z.string().max(DATA_PLANE_LIMITS.hostLength).regex(HOST_NAME_RE, 'not a lower-case host name');
const originHost = hostName.refine((h) => !h.startsWith('*.'), 'an origin host cannot be a wildcard');
const ipLiteral = z.string().refine((ip) => isIP(ip), 'not an IPv4 or IPv6 literal');

export const edgeUpstreamSchema = z.strictObject({
  ip: ipLiteral,
  port: z.number().int().min(1).max(65_535),
  weight: z.number().int().min(1).max(100),
  backup: z.boolean(),
});

export const edgeOriginSchema = z.strictObject({
  scheme: z.enum(['http', 'https']),
  host: originHost.nullable(),
  balance: z.enum(['round_robin', 'ip_hash']),
  upstreams: z
    .array(edgeUpstreamSchema)
    .min(1)
    .max(DATA_PLANE_LIMITS.upstreamsPerDomain)
    .refine((list) => list.some((u) => !u.backup), 'at least one upstream must not be a backup'),
});

export const edgeDomainSchema = z.strictObject({
  id,
  name: hostName,
  enabled: z.boolean(),
  forceSSL: z.boolean(),
  forceSSLCode: z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)]),
  certificateId: id.nullable(),
  origin: edgeOriginSchema,
});

export const edgeCertificateSchema = z.strictObject({
  id,
  certPem: z.string().max(DATA_PLANE_LIMITS.certPemBytes).refine(isCertificateChain, 'not a PEM certificate chain'),
  keyPem: z
    .string()
    .max(DATA_PLANE_LIMITS.keyPemBytes)
    .refine((pem) => KEY_BLOCK_RE.test(pem), 'not a PEM private key'),
});

export const dataPlaneSchema = z
  .strictObject({
    version: z.string().min(1).max(DATA_PLANE_LIMITS.versionLength).regex(VERSION_RE, 'not a version token'),
    domains: z.array(edgeDomainSchema).max(DATA_PLANE_LIMITS.domains),
    certificates: z.array(edgeCertificateSchema).max(DATA_PLANE_LIMITS.certificates),
  })
  .superRefine((doc, ctx) => {
    const certificateIds = new Set<number>();
    doc.certificates.forEach((cert, i) => {
      if (certificateIds.has(cert.id)) {
        ctx.addIssue({ code: 'custom', path: ['certificates', i, 'id'], message: 'duplicate certificate id' });
      }
      certificateIds.add(cert.id);
    });
    const names = new Set<string>();
    const ids = new Set<number>();
    doc.domains.forEach((domain, i) => {
      if (names.has(domain.name)) {
        ctx.addIssue({ code: 'custom', path: ['domains', i, 'name'], message: 'duplicate domain name' });
      }
      if (ids.has(domain.id)) {
        ctx.addIssue({ code: 'custom', path: ['domains', i, 'id'], message: 'duplicate domain id' });
      }
      if (domain.certificateId !== null && !certificateIds.has(domain.certificateId)) {
        ctx.addIssue({
          code: 'custom',
          path: ['domains', i, 'certificateId'],
          message: 'no certificate with this id in the document',
        });
      }
      names.add(domain.name);
      ids.add(domain.id);
    });
  });

export type DataPlane = z.infer<typeof dataPlaneSchema>;
export type EdgeDomain = z.infer<typeof edgeDomainSchema>;
export type EdgeCertificate = z.infer<typeof edgeCertificateSchema>;
export type EdgeUpstream = z.infer<typeof edgeUpstreamSchema>;
