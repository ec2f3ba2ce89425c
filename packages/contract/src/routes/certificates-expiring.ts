import { z } from 'zod';
import { dataOf, defineRoute, tiers } from '../route.js';
import { CERTIFICATE_EXPIRING_DAYS } from './certificates.js';

/**
 * The customer's certificates that end within CERTIFICATE_EXPIRING_DAYS days or have ended, across
 * every site it may see (its own and those it was given access to), soonest first: the dashboard's
 * "certificates expiring" panel, each linking to its site's certificates.
 */
export const EXPIRING_CERTIFICATES_MAX = 20;

export const expiringCertificateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  siteID: z.number().int(),
  siteName: z.string(),
  notAfter: z.string(),
  status: z.enum(['expiring', 'expired']),
});
export type ExpiringCertificate = z.infer<typeof expiringCertificateSchema>;

export const userExpiringCertificates = defineRoute({
  id: 'user.certificates.expiring',
  method: 'GET',
  path: '/user/certificates/expiring',
  access: tiers(['user'], 'user.certificates.read'),
  codes: [],
  summary: `The customer's certificates ending within ${CERTIFICATE_EXPIRING_DAYS} days or ended, across its sites, soonest first (at most ${EXPIRING_CERTIFICATES_MAX}, with the total)`,
  tags: ['certificates', 'dashboard'],
  request: {},
  response: dataOf(z.object({ total: z.number().int(), certificates: z.array(expiringCertificateSchema) })),
});

export const expiringCertificateRoutes = { userExpiringCertificates } as const;
