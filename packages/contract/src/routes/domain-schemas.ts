import { z } from 'zod';
import { autoCertStatusSchema, domainStatusSchema } from '../enums.js';
import { zId, zIdParam, zIds } from '../validators/ids.js';
import { isIP } from '../validators/ip.js';
import { isOriginAddress, originAddressField } from '../validators/origin.js';
import { zDomainName, zPort, zValidatedString } from '../validators/zod.js';
import { domainProofStatusSchema } from './domain-proof.js';
import { siteParams, siteTagSchema } from './sites.js';

// The shapes of a site's domains and their upstreams; the routes are in domains.ts and beside it.
export const UPSTREAMS_PER_DOMAIN_MAX = 64;
export const DOMAINS_PER_REQUEST_MAX = 500;
export const DOMAIN_TAGS_MAX = 20;
/** Most entries a site's metaDomains answer holds; pickers search with `keyword` for the rest. */
export const SITE_DOMAIN_META_MAX = 1000;

/**
 * Certificate state of a domain (the advanced filter's certStatus): 0 = no certificate, 1 = a
 * certificate valid now, 2 = a certificate that expired (or is not valid yet).
 */
export const DOMAIN_CERT_STATUS = { none: 0, valid: 1, expired: 2 } as const;
export const DOMAIN_CNAME_STATUS = { unchecked: 0, verified: 1, notPointing: 2 } as const;
export const domainCnameStatusSchema = z.literal([0, 1, 2]);
export type DomainCnameStatus = z.infer<typeof domainCnameStatusSchema>;
/** Domains one checkCNAME call resolves (each a DNS query chain). */
export const CNAME_CHECK_MAX = 100;
/** Domains of one site that may have auto SSL on (401004 beyond). */
export const AUTO_SSL_DOMAINS_PER_SITE_MAX = 50;
export const domainCertStatusSchema = z.literal([0, 1, 2]);
export type DomainCertStatus = z.infer<typeof domainCertStatusSchema>;

export const ORIGIN_SCHEMES = { http: 0, https: 1 } as const;
export const originSchemeSchema = z.literal([0, 1]);
export type OriginScheme = z.infer<typeof originSchemeSchema>;
export const HASH_TYPES = { roundRobin: 0, ipHash: 1 } as const;
export const hashTypeSchema = z.literal([0, 1]);
export type HashType = z.infer<typeof hashTypeSchema>;

export const idList = zIds(DOMAINS_PER_REQUEST_MAX);

/**
 * A domain's origin address: an IP literal or a host name (`invalidOriginAddress` otherwise; a
 * name is taken in lower case). The address policy is applied by the server to a literal and by
 * the node to every address a name resolves to (validators/origin.ts).
 */
export const zUpstreamIP = originAddressField(
  zValidatedString((value) =>
    isOriginAddress(value.toLowerCase()) ? { ok: true } : { ok: false, key: 'invalidOriginAddress' },
  ).transform((value) => (isIP(value) ? value : value.toLowerCase())),
  'ipOrName',
);

/**
 * A layer-4 port's upstream address: an IP literal only (`invalidIP` otherwise). Ports are rendered
 * into nginx.conf (edge/stream-ports.ts), where a name would be resolved once at reload.
 */
export const zPortUpstreamIP = originAddressField(
  zValidatedString((value) => (isIP(value) ? { ok: true } : { ok: false, key: 'invalidIP' })),
  'ip',
);

const upstreamFields = {
  port: zPort,
  weight: z.number().int().min(1).max(100).default(1),
  backup: z.boolean().default(false),
  status: domainStatusSchema.default(1),
};

/** A domain's upstream: its origin is an IP literal or a host name. */
export const upstreamInputSchema = z.object({ ip: zUpstreamIP, ...upstreamFields });
/** A layer-4 port's upstream: its origin is an IP literal. */
export const portUpstreamInputSchema = z.object({ ip: zPortUpstreamIP, ...upstreamFields });
export type UpstreamInput = z.input<typeof upstreamInputSchema>;
/** An upstream as the server receives it (defaults applied). */
export type UpstreamIn = z.output<typeof upstreamInputSchema>;

export const upstreamSchema = z.object({
  id: z.number().int(),
  ip: z.string(),
  port: z.number().int(),
  weight: z.number().int(),
  backup: z.boolean(),
  status: domainStatusSchema,
});
export type DomainUpstream = z.infer<typeof upstreamSchema>;

export const upstreamList = z.array(upstreamInputSchema).min(1).max(UPSTREAMS_PER_DOMAIN_MAX);

/**
 * The requests of the upstreams of one owner (a domain here, a layer-4 port in site-ports.ts),
 * named by `params`: listed, added (at most 64 in all), one changed by id, deleted by ids.
 */
export function upstreamRequests<P extends z.ZodObject>(
  params: P,
  item: typeof upstreamInputSchema | typeof portUpstreamInputSchema = upstreamInputSchema,
) {
  return {
    list: { params },
    add: { params, body: z.object({ upstreams: z.array(item).min(1).max(UPSTREAMS_PER_DOMAIN_MAX) }) },
    update: { params, body: item.extend({ id: zId }) },
    delete: { params, body: z.object({ ids: zIds(UPSTREAMS_PER_DOMAIN_MAX) }) },
  } as const;
}

/** Host header sent to the origin: '' (the client's) or a domain name. */
const originHostName = z.union([z.literal(''), zDomainName()]);

export const domainSettingsInput = z.object({
  upstreams: upstreamList,
  scheme: originSchemeSchema.default(0),
  hashType: hashTypeSchema.default(0),
  hostName: originHostName.default(''),
  forceSSL: z.boolean().default(false),
  autoSSL: z.boolean().default(false),
  portMap: z.boolean().default(false),
  /** 0 = none. */
  certificateID: z.number().int().min(0).default(0),
  status: domainStatusSchema.default(1),
  tags: z.array(siteTagSchema).max(DOMAIN_TAGS_MAX).default([]),
});

export const domainInputSchema = domainSettingsInput.extend({ name: zDomainName({ wildcard: true }) });

/** An edit: the upstreams are replaced; a setting left out keeps its current value. */
export const domainUpdateInput = z.object({
  id: zId,
  upstreams: upstreamList,
  scheme: originSchemeSchema.optional(),
  hashType: hashTypeSchema.optional(),
  hostName: originHostName.optional(),
  forceSSL: z.boolean().optional(),
  autoSSL: z.boolean().optional(),
  portMap: z.boolean().optional(),
  /** 0 = none. */
  certificateID: z.number().int().min(0).optional(),
  status: domainStatusSchema.optional(),
  tags: z.array(siteTagSchema).max(DOMAIN_TAGS_MAX).optional(),
});
export type DomainUpdateInput = z.input<typeof domainUpdateInput>;
export type DomainInput = z.input<typeof domainInputSchema>;
/** A domain's settings as the server receives them (defaults applied). */
export type DomainSettingsIn = z.output<typeof domainSettingsInput>;
/** A new domain as the server receives it. */
export type DomainIn = z.output<typeof domainInputSchema>;
/** An edit as the server receives it: the upstreams are replaced, absent settings kept. */
export type DomainUpdateIn = z.output<typeof domainUpdateInput>;

export const domainSchema = z.object({
  id: z.number().int(),
  siteID: z.number().int(),
  name: z.string(),
  status: domainStatusSchema,
  scheme: originSchemeSchema,
  hashType: hashTypeSchema,
  hostName: z.string(),
  forceSSL: z.boolean(),
  autoSSL: z.boolean(),
  /** With auto SSL on, where its certificate stands (auto-certificates.ts) and the last failure's reason. */
  autoSSLStatus: autoCertStatusSchema.optional(),
  autoSSLError: z.string().optional(),
  portMap: z.boolean(),
  /** The name the customer CNAMEs this domain to. */
  cname: z.string(),
  cnameStatus: domainCnameStatusSchema,
  /** When checkCNAME last resolved the name; null before the first check. */
  cnameCheckedAt: z.string().nullable(),
  /** Proof of control of the name (domain-proof.ts): pending, proved, waived or lost. */
  proofStatus: domainProofStatusSchema,
  /** The TXT record that proves control: its name and the value it must hold. */
  proofRecordName: z.string(),
  proofToken: z.string(),
  proofCheckedAt: z.string().nullable(),
  certificateID: z.number().int(),
  certificateName: z.string(),
  certStatus: domainCertStatusSchema,
  tags: z.array(z.string()),
  upstreams: z.array(upstreamSchema),
  /** First upstream as `host:port` (IPv6 in brackets), '' when there is none. */
  upstreamURL: z.string(),
  upstreamCount: z.number().int(),
  /** Bound site modules (routes/site-modules.ts), 0 = none; names as the CDNRay domain list shows them. */
  customHeaderModuleID: z.number().int(),
  customHeaderModuleName: z.string(),
  urlRedirectModuleID: z.number().int(),
  urlRedirectModuleName: z.string(),
  corsID: z.number().int(),
  corsName: z.string(),
  proxyRewriteModuleID: z.number().int(),
  luaAclModuleID: z.number().int(),
  proxyRewriteModuleName: z.string(),
  luaAclModuleName: z.string(),
  tokenAuthModuleID: z.number().int(),
  tokenAuthModuleName: z.string(),
  wafModuleID: z.number().int(),
  wafModuleName: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SiteDomain = z.infer<typeof domainSchema>;

export const domainParams = siteParams.extend({ domainId: zIdParam });
export const domainUpstreamRequests = upstreamRequests(domainParams);
export const base = '/user/site/{siteId}';

export const timeQuery = z.iso.datetime({ offset: true }).optional();
export const domainNames = z
  .array(zDomainName({ wildcard: true }))
  .min(1)
  .max(DOMAINS_PER_REQUEST_MAX);
