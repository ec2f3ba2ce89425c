import { z } from 'zod';
import { orderBySchema, pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { idNameSchema, zId, zIdParam, zIds } from '../validators/ids.js';
import { zMemo, zName } from '../validators/zod.js';
import { siteParams } from './sites.js';

/**
 * Certificates of a site (spec part 1 §7, "Certificates"): a PEM chain and its private key,
 * uploaded by the customer and assigned to domains. The server parses the names (subject
 * alternative names, else the common name), issuer and validity, refuses a key that does not
 * match and a certificate already expired, and keeps the key sealed at rest. The key is never
 * sent back. The edge picks the certificate per SNI.
 */

export const CERTIFICATE_PEM_MAX = 64 * 1024;
export const PRIVATE_KEY_PEM_MAX = 16 * 1024;

export const certificateSummarySchema = z.object({
  id: z.number().int(),
  siteID: z.number().int(),
  name: z.string(),
  memo: z.string(),
  /** DNS names the certificate covers (wildcards as `*.example.com`). */
  names: z.array(z.string()),
  issuer: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  /** valid, expiring (within 30 days) or expired, judged when the list is read. */
  status: z.enum(['valid', 'expiring', 'expired']),
  domainCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CertificateSummary = z.infer<typeof certificateSummarySchema>;

export const certificateDetailSchema = certificateSummarySchema.extend({
  /** The PEM chain as uploaded (public data; the key is never returned). */
  certificate: z.string(),
  fingerprintSha256: z.string(),
  domains: z.array(idNameSchema),
});
export type CertificateDetail = z.infer<typeof certificateDetailSchema>;

/** Days before expiry at which a certificate counts as expiring. */
export const CERTIFICATE_EXPIRING_DAYS = 30;

const base = '/user/site/{siteId}';
const pem = (max: number) => z.string().min(1, 'required').max(max, 'tooLong');

const route = routeFamily({
  tags: ['certificates'],
  read: tiers(['user'], 'user.certificates.read'),
  write: tiers(['user'], 'user.certificates.write'),
});

export const listCertificates = route.get('user.certificates.list', `${base}/certificates`, {
  summary: "A site's certificates, paged, searched by name and sorted",
  params: siteParams,
  query: pageQuery.extend({
    name: z.string().max(256).optional(),
    sortBy: z.enum(['name', 'notAfter', 'createdAt']).default('createdAt'),
    orderBy: orderBySchema.default('desc'),
  }),
  response: pageOf(certificateSummarySchema),
});
/** The list query as the server receives it. */
export type CertificateListQuery = z.output<typeof listCertificates.request.query>;

export const metaCertificates = route.get('user.certificates.meta', `${base}/metaCertificates`, {
  summary: 'Every certificate of the site, for pickers (id, name, names, expiry)',
  params: siteParams,
  response: dataOf(
    z.array(z.object({ id: z.number().int(), name: z.string(), names: z.array(z.string()), notAfter: z.string() })),
  ),
});

export const getCertificate = route.get('user.certificate.get', `${base}/certificate/{certificateId}`, {
  summary: 'One certificate with its chain and the domains it is assigned to',
  params: siteParams.extend({ certificateId: zIdParam }),
  response: dataOf(certificateDetailSchema),
});

export const createCertificate = route.post('user.certificate.create', `${base}/certificate`, {
  summary: 'Uploads a certificate chain and its private key',
  params: siteParams,
  body: z.object({
    name: zName,
    memo: zMemo,
    certificate: pem(CERTIFICATE_PEM_MAX),
    privateKey: pem(PRIVATE_KEY_PEM_MAX),
  }),
  response: dataOf(certificateDetailSchema),
});
/** A new certificate as the server receives it. */
export type CertificateCreateIn = z.output<typeof createCertificate.request.body>;

export const updateCertificate = route.put('user.certificate.update', `${base}/certificate`, {
  codes: [301001],
  summary:
    'Renames a certificate or replaces its chain and key (both together); domains using it are checked against the new names',
  params: siteParams,
  body: z
    .object({
      id: zId,
      name: zName,
      memo: zMemo,
      certificate: pem(CERTIFICATE_PEM_MAX).optional(),
      privateKey: pem(PRIVATE_KEY_PEM_MAX).optional(),
    })
    .refine((b) => (b.certificate === undefined) === (b.privateKey === undefined), {
      message: 'required',
      path: ['privateKey'],
    }),
  response: dataOf(certificateDetailSchema),
});
/** An edit as the server receives it. */
export type CertificateUpdateIn = z.output<typeof updateCertificate.request.body>;

export const deleteCertificates = route.delete('user.certificates.delete', `${base}/certificates`, {
  summary: 'Deletes certificates (all or none); one still assigned to domains is refused with the domains named',
  params: siteParams,
  body: z.object({ ids: zIds(500) }),
  response: okReply,
});

export const assignCertificate = route.patch('user.certificate.domains', `${base}/certificate/domains`, {
  codes: [301001],
  summary:
    'Assigns a certificate to domains of the site (certificateID 0 removes it); 301001 when it does not cover a domain',
  params: siteParams,
  body: z.object({
    certificateID: z.number().int().min(0),
    domainIDs: zIds(500),
  }),
  response: okReply,
});

export const certificateRoutes = {
  listCertificates,
  metaCertificates,
  getCertificate,
  createCertificate,
  updateCertificate,
  deleteCertificates,
  assignCertificate,
} as const;
