import { z } from 'zod';
import { autoCertStatusSchema } from '../enums.js';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zIdParam, zIds } from '../validators/ids.js';
import { zPushUrl } from './log-push.js';

/**
 * Automatic certificates (issue 23; spec part 2 §7 `client/autoCertificates` and `renew`, "System
 * settings" `zeroSSL` and `googleTrust`; part 1 §2 `autoSSLManagement`). A domain with auto SSL on
 * (domains.ts `autoSSL`, 401004 over the limit) gets a certificate from the operator's ACME CA,
 * renewed AUTO_CERT_RENEW_DAYS before it expires (docs/decisions.md "Automatic certificates").
 *
 * - The operator's CA (`client/setting/acme`): Let's Encrypt (the default), ZeroSSL or Google Trust
 *   Services (their EAB credentials in the `zeroSSL` and `googleTrust` settings), or any ACME
 *   directory URL with an optional PEM bundle of the CA that serves it (a private CA).
 * - EAB HMAC keys are write-only: answers carry `hasHmacKey`; a save that leaves it out keeps it.
 * - `client/autoCertificates` lists one entry per auto-SSL domain of the operator's sites;
 *   `renew` retries the named ones now (all or none: another operator's id answers 101018).
 */

export const ACME_CAS = ['letsEncrypt', 'zeroSSL', 'googleTrust', 'custom'] as const;
export type AcmeCa = (typeof ACME_CAS)[number];
/** The directories of the CAs Rampart knows. */
export const ACME_DIRECTORIES: Record<Exclude<AcmeCa, 'custom'>, string> = {
  letsEncrypt: 'https://acme-v02.api.letsencrypt.org/directory',
  zeroSSL: 'https://acme.zerossl.com/v2/DV90',
  googleTrust: 'https://dv.acme-v02.api.pki.goog/directory',
};
/** A certificate is renewed this many days before it expires. */
export const AUTO_CERT_RENEW_DAYS = 30;
/** Most ids one renew call names. */
export const AUTO_CERT_RENEW_MAX = 100;

const PEM_CERTS_RE = /^\s*(-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+?-----END CERTIFICATE-----\s*)+$/;

export const acmeSettingInSchema = z
  .object({
    ca: z.enum(ACME_CAS, { message: 'invalidValue' }),
    /** The ACME directory of a `custom` CA (ignored otherwise). */
    directoryUrl: zPushUrl.optional(),
    /** PEM certificates that sign a `custom` CA's HTTPS certificate (a private CA); '' = the system's. */
    caBundle: z
      .string()
      .max(64 * 1024, { message: 'tooLong' })
      .refine((s) => s === '' || PEM_CERTS_RE.test(s), { message: 'wrongFormat' })
      .default(''),
    /** The account's contact address, optional. */
    email: z.union([z.literal(''), z.email({ message: 'wrongFormat' })]).default(''),
  })
  .superRefine((v, ctx) => {
    if (v.ca === 'custom' && v.directoryUrl === undefined) {
      ctx.addIssue({ code: 'custom', path: ['directoryUrl'], message: 'required' });
    }
  });
export type AcmeSettingIn = z.output<typeof acmeSettingInSchema>;

export const acmeSettingSchema = z.object({
  ca: z.enum(ACME_CAS),
  directoryUrl: z.string(),
  caBundle: z.string(),
  email: z.string(),
});
export type AcmeSetting = z.infer<typeof acmeSettingSchema>;

/** EAB credentials a CA gives its account holders (`zeroSSL`, `googleTrust`). */
export const eabSettingInSchema = z.object({
  kid: z.string().regex(/^[\x21-\x7e]{1,256}$/, { message: 'wrongFormat' }),
  /** base64url; '' or absent keeps the stored one. */
  hmacKey: z
    .string()
    .max(512, { message: 'tooLong' })
    .regex(/^[A-Za-z0-9_=+/-]*$/, { message: 'wrongFormat' })
    .optional()
    .transform((s) => (s === '' ? undefined : s)),
});
export type EabSettingIn = z.output<typeof eabSettingInSchema>;
export const eabSettingSchema = z.object({ kid: z.string(), hasHmacKey: z.boolean() });
export type EabSetting = z.infer<typeof eabSettingSchema>;

export const autoCertificateSchema = z.object({
  id: z.number().int(),
  domainID: z.number().int(),
  domain: z.string(),
  siteID: z.number().int(),
  siteName: z.string(),
  status: autoCertStatusSchema,
  /** `http-01`, or `dns-01` for a wildcard name. */
  challenge: z.enum(['http-01', 'dns-01']),
  /** The issued certificate's expiry; null before the first issue. */
  notAfter: z.string().nullable(),
  /** The last failed attempt's reason; '' after a success. */
  lastError: z.string(),
  /** Failed attempts since the last success. */
  failures: z.number().int(),
  lastAttemptAt: z.string().nullable(),
  /** When the next attempt runs (a renewal, or a retry after a failure). */
  nextAttemptAt: z.string(),
});
export type AutoCertificate = z.infer<typeof autoCertificateSchema>;

const route = routeFamily({
  tags: ['certificates'],
  read: tiers(['client'], 'client.domains.read'),
  write: tiers(['client'], 'client.domains.write'),
});

export const listAutoCertificates = route.get('client.autoCertificates.list', '/client/autoCertificates', {
  summary:
    "The operator's automatic certificates, paged; filtered by a part of the domain, status, site, expiry " +
    '(before the given time) and a part of the last error',
  query: pageQuery.extend({
    domain: z.string().max(256).optional(),
    status: autoCertStatusSchema.optional(),
    siteID: zIdParam.optional(),
    expiresBefore: z.iso.datetime({ offset: true, message: 'wrongFormat' }).optional(),
    lastError: z.string().max(256).optional(),
  }),
  response: pageOf(autoCertificateSchema),
});
export type AutoCertificateListQuery = z.output<typeof listAutoCertificates.request.query>;

export const renewAutoCertificates = route.post('client.autoCertificates.renew', '/client/autoCertificates/renew', {
  sendsOnDemand: true,
  summary: 'Issues or renews the named automatic certificates now (all or none)',
  body: z.object({ ids: zIds(AUTO_CERT_RENEW_MAX) }),
  response: okReply,
});

export const getAcmeSetting = route.get('client.setting.acme', '/client/setting/acme', {
  access: tiers(['client'], 'client.settings.read'),
  summary: "The operator's ACME CA (Let's Encrypt until set)",
  tags: ['settings'],
  response: dataOf(acmeSettingSchema),
});

export const saveAcmeSetting = route.put('client.setting.acme.save', '/client/setting/acme', {
  access: tiers(['client'], 'client.settings.write'),
  summary: "Sets the operator's ACME CA; the next issue or renewal uses it",
  tags: ['settings'],
  body: acmeSettingInSchema,
  response: dataOf(acmeSettingSchema),
});

function eabRoutes(name: 'zeroSSL' | 'googleTrust', label: string) {
  return {
    get: route.get(`client.setting.${name}`, `/client/setting/${name}`, {
      access: tiers(['client'], 'client.settings.read'),
      summary: `The operator's ${label} EAB credentials (null until set); the HMAC key is never returned`,
      tags: ['settings'],
      response: dataOf(eabSettingSchema.nullable()),
    }),
    save: route.put(`client.setting.${name}.save`, `/client/setting/${name}`, {
      access: tiers(['client'], 'client.settings.write'),
      summary: `Sets the operator's ${label} EAB credentials; an HMAC key left out is kept`,
      tags: ['settings'],
      body: eabSettingInSchema,
      response: dataOf(eabSettingSchema),
    }),
  };
}

const zeroSSL = eabRoutes('zeroSSL', 'ZeroSSL');
const googleTrust = eabRoutes('googleTrust', 'Google Trust Services');
export const getZeroSSLSetting = zeroSSL.get;
export const saveZeroSSLSetting = zeroSSL.save;
export const getGoogleTrustSetting = googleTrust.get;
export const saveGoogleTrustSetting = googleTrust.save;

export const autoCertificateRoutes = {
  listAutoCertificates,
  renewAutoCertificates,
  getAcmeSetting,
  saveAcmeSetting,
  getZeroSSLSetting,
  saveZeroSSLSetting,
  getGoogleTrustSetting,
  saveGoogleTrustSetting,
} as const;
