import { z } from 'zod';
import { autoCertStatusSchema, domainStatusSchema } from '../enums.js';
import { orderBySchema, pageQuery } from '../http.js';
import { dataOf, defineRoute, okReply, pageOf, tiers } from '../route.js';
import { zId, zIdParam, zIds } from '../validators/ids.js';
import { isIP } from '../validators/ip.js';
import { zDomainName, zPort, zValidatedString } from '../validators/zod.js';
import { domainProofStatusSchema } from './domain-proof.js';
import { queryList, siteParams, siteTagSchema, tagsReply } from './sites.js';

/**
 * Domains of a site and their upstreams (spec part 1 §7 "User console: domains"; field names as
 * the CDNRay API, see the behaviour reference §2.1). A domain is a host name (exact or `*.`
 * wildcard) the edge serves for the site, proxying to the domain's upstreams.
 *
 * Open points decided here:
 * - `upstreams[].ip` is an IP literal. Origins on loopback, private or reserved addresses are
 *   refused (`originNotAllowed`) unless the operator allows them for the installation.
 * - `scheme`: 0 = http, 1 = https to the origin. `hashType`: 0 = weighted round robin, 1 = client
 *   IP hash. `hostName`: the Host header sent to the origin; '' sends the client's Host.
 * - A name is unique within a site, and at most one enabled domain in the whole installation may
 *   have a given name (401001): the edge could not tell two of them apart.
 * - CNAME target (`cname`): `<label>.<the operator's CNAME domain>`. The label is 16 hex digits from
 *   a strong random source, made once per domain row and never shown for another domain; the
 *   operator's CNAME domain is its setting `client/setting/dns/cname` (cname-settings.ts). A
 *   wildcard `*.example.com` has the same kind of target (the customer CNAMEs `*.example.com`).
 * - `cnameStatus` (DOMAIN_CNAME_STATUS): 0 not checked yet, 1 verified (the customer's name
 *   resolves, following a CNAME chain of at most 8 links, to the target), 2 checked and not
 *   pointing at the target (no CNAME, another target, or the name does not exist). It is recorded
 *   by `PUT domains/checkCNAME` with a real DNS query (a wildcard is checked through the name
 *   `<label>.<the wildcard's parent>`); a resolver that fails or times out answers 101010 and
 *   records nothing. An operator who changes its CNAME domain resets its domains to 0.
 * - `autoSSL`: the customer wants a certificate issued automatically (a flag; issuance is not built
 *   yet). At most AUTO_SSL_DOMAINS_PER_SITE_MAX domains of a site may have it: 401004 beyond.
 * - `portMap`: the edge reaches the origin on the port the client used (instead of the upstream's
 *   port) when the client came in on a listener of the scheme's protocol (an `http` zone port for
 *   scheme http, `https` for https); on the other listeners the upstream's port is used. 401003 when
 *   a mapped port is the well-known port of the other protocol (an http listener on 443, an https
 *   listener on 80) in a zone serving the site, with `extra` 'port N is ...' for the console.
 */

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

const idList = zIds(DOMAINS_PER_REQUEST_MAX);

/** An IP literal (`invalidIP` otherwise); the address policy is applied by the server. */
export const zUpstreamIP = zValidatedString((value) => (isIP(value) ? { ok: true } : { ok: false, key: 'invalidIP' }));

export const upstreamInputSchema = z.object({
  ip: zUpstreamIP,
  port: zPort,
  weight: z.number().int().min(1).max(100).default(1),
  backup: z.boolean().default(false),
  status: domainStatusSchema.default(1),
});
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

const upstreamList = z.array(upstreamInputSchema).min(1).max(UPSTREAMS_PER_DOMAIN_MAX);

/**
 * The requests of the upstreams of one owner (a domain here, a layer-4 port in site-ports.ts),
 * named by `params`: listed, added (at most 64 in all), one changed by id, deleted by ids.
 */
export function upstreamRequests<P extends z.ZodObject>(params: P) {
  return {
    list: { params },
    add: { params, body: z.object({ upstreams: upstreamList }) },
    update: { params, body: upstreamInputSchema.extend({ id: zId }) },
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

const domainParams = siteParams.extend({ domainId: zIdParam });
const domainUpstreamRequests = upstreamRequests(domainParams);
const base = '/user/site/{siteId}';

const timeQuery = z.iso.datetime({ offset: true }).optional();
const domainNames = z
  .array(zDomainName({ wildcard: true }))
  .min(1)
  .max(DOMAINS_PER_REQUEST_MAX);

export const DOMAIN_SORT_FIELDS = ['name', 'createdAt', 'updatedAt'] as const;

export const listDomains = defineRoute({
  id: 'user.domains.list',
  method: 'GET',
  path: `${base}/domains`,
  access: tiers(['user'], 'user.domains.read'),
  codes: [],
  summary: "A site's domains, paged, searched and sorted",
  tags: ['domains'],
  request: {
    params: siteParams,
    query: pageQuery.extend({
      keywords: z.string().max(256).optional(),
      sortBy: z.enum(DOMAIN_SORT_FIELDS).default('createdAt'),
      orderBy: orderBySchema.default('desc'),
      forceSSL: z.enum(['true', 'false']).optional(),
      status: z.coerce.number().pipe(domainStatusSchema).optional(),
      /** Any of these tags. */
      tags: queryList(siteTagSchema, DOMAIN_TAGS_MAX),
      certStatus: z.coerce.number().pipe(domainCertStatusSchema).optional(),
      /** Any of these CNAME states. */
      cnameStatuses: queryList(z.coerce.number().pipe(domainCnameStatusSchema), 3),
      /** Ranges are inclusive at both ends; either end may be left out. */
      createdAtStart: timeQuery,
      createdAtEnd: timeQuery,
      updatedAtStart: timeQuery,
      updatedAtEnd: timeQuery,
    }),
  },
  response: pageOf(domainSchema),
});
/** The list query as the server receives it (defaults applied, coerced). */
export type DomainListQuery = z.output<typeof listDomains.request.query>;

export const createDomains = defineRoute({
  id: 'user.domains.create',
  method: 'POST',
  path: `${base}/domains`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [101009, 101019, 101025, 301001, 401001, 401002, 401003, 401004, 401008],
  summary:
    'Adds domains to a site, all or none; names already taken are reported per name with 101009 (401001 enabled elsewhere, 101025 in this site)',
  tags: ['domains'],
  request: {
    params: siteParams,
    body: z.object({ domains: z.array(domainInputSchema).min(1).max(DOMAINS_PER_REQUEST_MAX) }),
  },
  response: dataOf(z.array(domainSchema)),
});

export const updateDomain = defineRoute({
  id: 'user.domain.update',
  method: 'PUT',
  path: `${base}/domain`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [101009, 101019, 301001, 401001, 401003, 401004, 401008],
  summary: "Replaces a domain's upstreams and the settings given (the name stays; a setting left out is kept)",
  tags: ['domains'],
  request: { params: siteParams, body: domainUpdateInput },
  response: dataOf(domainSchema),
});

export const deleteDomains = defineRoute({
  id: 'user.domains.delete',
  method: 'DELETE',
  path: `${base}/domains`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [],
  summary: 'Deletes domains of the site by id (all or none)',
  tags: ['domains'],
  request: { params: siteParams, body: z.object({ ids: idList }) },
  response: okReply,
});

export const setDomainsStatus = defineRoute({
  id: 'user.domains.status',
  method: 'PUT',
  path: `${base}/domain/setting/status`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [101009, 401001],
  summary: 'Enables or disables domains (all or none; 401001 when an enabled namesake exists elsewhere)',
  tags: ['domains'],
  request: { params: siteParams, body: z.object({ domainIDs: idList, status: domainStatusSchema }) },
  response: okReply,
});

export const setDomainsForceSSL = defineRoute({
  id: 'user.domains.forceSSL',
  method: 'PATCH',
  path: `${base}/domain/setting/forceSSL`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [],
  summary: 'Turns the HTTP → HTTPS redirect of domains on or off',
  tags: ['domains'],
  request: { params: siteParams, body: z.object({ domainIDs: idList, forceSSL: z.boolean() }) },
  response: okReply,
});

export const setDomainsBalance = defineRoute({
  id: 'user.domains.balance',
  method: 'PATCH',
  path: `${base}/domain/setting/balance`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [],
  summary: 'Sets the load-balancing method of domains',
  tags: ['domains'],
  request: { params: siteParams, body: z.object({ domainIDs: idList, hashType: hashTypeSchema }) },
  response: okReply,
});

export const setDomainScheme = defineRoute({
  id: 'user.domain.scheme',
  method: 'PUT',
  path: `${base}/domain/{domainId}/scheme`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [401003],
  summary:
    'Sets the protocol the edge uses towards the origin and, when given, the port map (401003 when a mapped port is not available)',
  tags: ['domains'],
  request: { params: domainParams, body: z.object({ scheme: originSchemeSchema, portMap: z.boolean().optional() }) },
  response: okReply,
});

export const setDomainsAutoSSL = defineRoute({
  id: 'user.domains.autoSSL',
  method: 'POST',
  path: `${base}/domain/setting/autoSSL`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [101019, 401004],
  summary: `Turns automatic certificates of domains on or off (all or none; 401004 over ${AUTO_SSL_DOMAINS_PER_SITE_MAX} per site)`,
  tags: ['domains'],
  request: { params: siteParams, body: z.object({ domainIDs: idList, autoSSL: z.boolean() }) },
  response: okReply,
});

export const domainCnameCheckSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  cname: z.string(),
  cnameStatus: domainCnameStatusSchema,
  cnameCheckedAt: z.string().nullable(),
});
export type DomainCnameCheck = z.infer<typeof domainCnameCheckSchema>;

export const checkDomainsCNAME = defineRoute({
  id: 'user.domains.checkCNAME',
  method: 'PUT',
  path: `${base}/domains/checkCNAME`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [101010],
  sendsOnDemand: true,
  summary:
    'Resolves the names of domains in DNS and records whether each points (through CNAMEs) at its target; 101010 when the resolver fails, recording nothing',
  tags: ['domains'],
  request: {
    params: siteParams,
    body: z.object({ domainIDs: zIds(CNAME_CHECK_MAX) }),
  },
  response: dataOf(z.array(domainCnameCheckSchema)),
});

export const listUpstreams = defineRoute({
  id: 'user.domain.upstreams.list',
  method: 'GET',
  path: `${base}/domain/{domainId}/upstreams`,
  access: tiers(['user'], 'user.domains.read'),
  codes: [],
  summary: "A domain's upstreams",
  tags: ['domains'],
  request: domainUpstreamRequests.list,
  response: dataOf(z.array(upstreamSchema)),
});

export const addUpstreams = defineRoute({
  id: 'user.domain.upstreams.add',
  method: 'POST',
  path: `${base}/domain/{domainId}/upstreams`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [101029, 401008],
  summary: 'Adds upstreams to a domain',
  tags: ['domains'],
  request: domainUpstreamRequests.add,
  response: dataOf(z.array(upstreamSchema)),
});

export const deleteUpstreams = defineRoute({
  id: 'user.domain.upstreams.delete',
  method: 'DELETE',
  path: `${base}/domain/{domainId}/upstreams`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [101029, 401008],
  summary: 'Deletes upstreams of a domain (401008 when no enabled one would remain)',
  tags: ['domains'],
  request: domainUpstreamRequests.delete,
  response: okReply,
});

export const updateUpstream = defineRoute({
  id: 'user.domain.upstream.update',
  method: 'PUT',
  path: `${base}/domain/{domainId}/upstream`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [101029, 401008],
  summary: 'Changes one upstream of a domain (401008 when no enabled one would remain)',
  tags: ['domains'],
  request: domainUpstreamRequests.update,
  response: dataOf(upstreamSchema),
});

export const createSimpleDomains = defineRoute({
  id: 'user.domains.simpleCreate',
  method: 'POST',
  path: `${base}/simpleDomains`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [101009, 101019, 101025, 301001, 401001, 401002, 401003, 401004, 401008],
  summary:
    'Adds domains by name, all sharing the given upstreams and default settings (all or none; per-name failures through 101009)',
  tags: ['domains'],
  request: { params: siteParams, body: z.object({ names: domainNames, upstreams: upstreamList }) },
  response: dataOf(z.array(domainSchema)),
});

export const deleteDomainsByNames = defineRoute({
  id: 'user.domains.deleteByNames',
  method: 'DELETE',
  path: `${base}/domainsByNames`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [101009],
  summary: 'Deletes domains of the site by name (all or none; a name not in the site answers 101009 naming it)',
  tags: ['domains'],
  request: { params: siteParams, body: z.object({ names: domainNames }) },
  response: okReply,
});

export const domainMetaSchema = z.object({ id: z.number().int(), name: z.string(), status: domainStatusSchema });

export const metaDomains = defineRoute({
  id: 'user.domains.meta',
  method: 'GET',
  path: `${base}/metaDomains`,
  access: tiers(['user'], 'user.domains.read'),
  codes: [],
  summary: `The site's domains as id, name and status for pickers, by name; at most ${SITE_DOMAIN_META_MAX}`,
  tags: ['domains'],
  request: { params: siteParams, query: z.object({ keyword: z.string().max(256).default('') }) },
  response: dataOf(z.array(domainMetaSchema)),
});

export const modifyUpstreamIPs = defineRoute({
  id: 'user.domains.modifyUpstreamIPs',
  method: 'PUT',
  path: `${base}/domains/modifyUpstreamIPs`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [],
  summary:
    'Batch change of origin: every upstream with IP `oldIP` of the given domains (or all of the site when domainIDs is empty) gets `newIP`; answers how many changed',
  tags: ['domains'],
  request: {
    params: siteParams,
    body: z.object({
      domainIDs: zIds(DOMAINS_PER_REQUEST_MAX, 0).default([]),
      oldIP: zUpstreamIP,
      newIP: zUpstreamIP,
    }),
  },
  response: dataOf(z.object({ domains: z.number().int(), upstreams: z.number().int() })),
});

export const replaceDomainsUpstreams = defineRoute({
  id: 'user.domains.upstreams',
  method: 'PUT',
  path: `${base}/domains/upstreams`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [401008],
  summary: 'Replaces the upstreams of several domains with one list (all or none; 401008 when none is enabled)',
  tags: ['domains'],
  request: { params: siteParams, body: z.object({ domainIDs: idList, upstreams: upstreamList }) },
  response: okReply,
});

export const domainSettings = defineRoute({
  id: 'user.domain.settings',
  method: 'GET',
  path: `${base}/domain/settings`,
  access: tiers(['user'], 'user.domains.read'),
  codes: [],
  summary: 'One domain of the site with all its settings, by exact name (101018 when the site has none of that name)',
  tags: ['domains'],
  request: { params: siteParams, query: z.object({ domainName: zDomainName({ wildcard: true }) }) },
  response: dataOf(domainSchema),
});

export const setDomainsTags = defineRoute({
  id: 'user.domains.tags',
  method: 'PUT',
  path: `${base}/domain/setting/tags`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [],
  summary: 'Replaces the tags of domains (all or none)',
  tags: ['domains'],
  request: {
    params: siteParams,
    body: z.object({ domainIDs: idList, tags: z.array(siteTagSchema).max(DOMAIN_TAGS_MAX) }),
  },
  response: okReply,
});

export const copyDomainsToSite = defineRoute({
  id: 'user.domains.copyToSite',
  method: 'POST',
  path: `${base}/domains/copyToSite`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [101009, 101019, 101025, 301001, 401001, 401002, 401003, 401004, 401008],
  summary:
    "Copies domains with their upstreams and settings to another of the customer's sites, disabled (an enabled name is unique); no certificate (it belongs to the source site); 101009 per name taken there",
  tags: ['domains'],
  request: { params: siteParams, body: z.object({ domainIDs: idList, siteID: zId }) },
  response: dataOf(z.array(domainSchema)),
});

export const createDomainsFrom = defineRoute({
  id: 'user.domains.createFrom',
  method: 'POST',
  path: `${base}/domains/createFrom`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [101009, 101019, 101025, 301001, 401001, 401002, 401003, 401004, 401008],
  summary:
    'Adds domains by name to the site with the upstreams and settings of one of its domains (tags included, certificate only where it covers the name); 101009 per name',
  tags: ['domains'],
  request: {
    params: siteParams,
    body: z.object({ domainID: zId, names: domainNames, status: domainStatusSchema.default(1) }),
  },
  response: dataOf(z.array(domainSchema)),
});

export const EXPORT_DOMAIN_COLUMNS = [
  'name',
  'status',
  'scheme',
  'hashType',
  'hostName',
  'forceSSL',
  'autoSSL',
  'portMap',
  'cname',
  'cnameStatus',
  'certificateName',
  'tags',
  'upstreams',
  'createdAt',
  'updatedAt',
] as const;

export const exportDomains = defineRoute({
  id: 'user.domains.export',
  method: 'POST',
  path: `${base}/domains/export`,
  access: tiers(['user'], 'user.domains.read'),
  codes: [],
  summary:
    'The given domains (or every domain of the site when ids is empty) as a CSV file; its name is in the Content-Disposition header',
  tags: ['domains'],
  request: { params: siteParams, body: z.object({ ids: zIds(10_000, 0).default([]) }) },
  response: z.string(),
  reply: 'raw',
});

// Domains across the customer's sites (spec part 1 §7 "Domains across sites").
const siteIDList = zIds(500, 0).default([]);

/** What a domain picker asks: the domains of these sites (all with none) whose name contains `name`. */
export const domainsAcrossMetaBody = z.object({ siteIDs: siteIDList, name: z.string().max(256).default('') });
/** A domain as a picker across sites lists it: with its site. */
export const domainWithSiteSchema = z.object({ id: z.number().int(), name: z.string(), siteID: z.number().int() });

export const userDomainsMeta = defineRoute({
  id: 'user.domains.acrossMeta',
  method: 'POST',
  path: '/user/domains/meta',
  access: tiers(['user'], 'user.domains.read'),
  codes: [],
  summary: `Domains of the given sites of the customer (or all) as id, name and site, for pickers; at most ${SITE_DOMAIN_META_MAX}`,
  tags: ['domains'],
  request: { body: domainsAcrossMetaBody },
  response: dataOf(z.array(domainWithSiteSchema)),
});

export const userDomainsTags = defineRoute({
  id: 'user.domains.acrossTags',
  method: 'POST',
  path: '/user/domains/tags',
  access: tiers(['user'], 'user.domains.read'),
  codes: [],
  summary: 'Every tag the domains of the given sites of the customer (or all) carry, for filters',
  tags: ['domains'],
  request: { body: z.object({ siteIDs: siteIDList }) },
  response: tagsReply,
});

/** Which domains a name stands for: exactly this name, optionally in the site of this name or id. */
export const domainIdsQuery = z.object({
  name: zDomainName({ wildcard: true }),
  siteName: z.string().max(256).optional(),
  siteID: zIdParam.optional(),
});

export const userDomainIds = defineRoute({
  id: 'user.domains.ids',
  method: 'GET',
  path: '/user/domains/ids',
  access: tiers(['user'], 'user.domains.read'),
  codes: [],
  summary: "The ids of the customer's domains with exactly this name, optionally in the site of this name or id",
  tags: ['domains'],
  request: { query: domainIdsQuery },
  response: dataOf(z.array(z.number().int())),
});
/** The query as the server receives it. */
export type UserDomainIdsQuery = z.output<typeof userDomainIds.request.query>;

export const domainRoutes = {
  listDomains,
  createDomains,
  updateDomain,
  deleteDomains,
  setDomainsStatus,
  setDomainsForceSSL,
  setDomainsBalance,
  setDomainScheme,
  setDomainsAutoSSL,
  checkDomainsCNAME,
  listUpstreams,
  addUpstreams,
  deleteUpstreams,
  updateUpstream,
  createSimpleDomains,
  deleteDomainsByNames,
  metaDomains,
  modifyUpstreamIPs,
  replaceDomainsUpstreams,
  domainSettings,
  setDomainsTags,
  copyDomainsToSite,
  createDomainsFrom,
  exportDomains,
  userDomainsMeta,
  userDomainsTags,
  userDomainIds,
} as const;
