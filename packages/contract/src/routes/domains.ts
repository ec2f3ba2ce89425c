import { z } from 'zod';
import { domainStatusSchema } from '../enums.js';
import { orderBySchema, pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zIds } from '../validators/ids.js';
import {
  copyDomainsToSite,
  createDomainsFrom,
  domainSettings,
  exportDomains,
  setDomainsTags,
} from './domain-batch-routes.js';
import {
  AUTO_SSL_DOMAINS_PER_SITE_MAX,
  base,
  CNAME_CHECK_MAX,
  DOMAIN_TAGS_MAX,
  DOMAINS_PER_REQUEST_MAX,
  domainCertStatusSchema,
  domainCnameStatusSchema,
  domainInputSchema,
  domainNames,
  domainParams,
  domainSchema,
  domainUpdateInput,
  hashTypeSchema,
  idList,
  originSchemeSchema,
  SITE_DOMAIN_META_MAX,
  timeQuery,
  upstreamList,
} from './domain-schemas.js';
import {
  addUpstreams,
  deleteUpstreams,
  listUpstreams,
  modifyUpstreamIPs,
  replaceDomainsUpstreams,
  updateUpstream,
} from './domain-upstream-routes.js';
import { userDomainIds, userDomainsMeta, userDomainsTags } from './domains-across-sites.js';
import { queryList, siteParams, siteTagSchema } from './sites.js';

export {
  copyDomainsToSite,
  createDomainsFrom,
  domainSettings,
  EXPORT_DOMAIN_COLUMNS,
  exportDomains,
  setDomainsTags,
} from './domain-batch-routes.js';
export type {
  DomainCertStatus,
  DomainCnameStatus,
  DomainIn,
  DomainInput,
  DomainSettingsIn,
  DomainUpdateIn,
  DomainUpdateInput,
  DomainUpstream,
  HashType,
  OriginScheme,
  SiteDomain,
  UpstreamIn,
  UpstreamInput,
} from './domain-schemas.js';
export {
  AUTO_SSL_DOMAINS_PER_SITE_MAX,
  CNAME_CHECK_MAX,
  DOMAIN_CERT_STATUS,
  DOMAIN_CNAME_STATUS,
  DOMAIN_TAGS_MAX,
  DOMAINS_PER_REQUEST_MAX,
  domainCertStatusSchema,
  domainCnameStatusSchema,
  domainInputSchema,
  domainSchema,
  domainSettingsInput,
  domainUpdateInput,
  HASH_TYPES,
  hashTypeSchema,
  ORIGIN_SCHEMES,
  originSchemeSchema,
  portUpstreamInputSchema,
  SITE_DOMAIN_META_MAX,
  UPSTREAMS_PER_DOMAIN_MAX,
  upstreamInputSchema,
  upstreamRequests,
  upstreamSchema,
  zPortUpstreamIP,
  zUpstreamIP,
} from './domain-schemas.js';
export {
  addUpstreams,
  deleteUpstreams,
  listUpstreams,
  modifyUpstreamIPs,
  replaceDomainsUpstreams,
  updateUpstream,
} from './domain-upstream-routes.js';
export type { UserDomainIdsQuery } from './domains-across-sites.js';
export {
  domainIdsQuery,
  domainsAcrossMetaBody,
  domainWithSiteSchema,
  userDomainIds,
  userDomainsMeta,
  userDomainsTags,
} from './domains-across-sites.js';

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

export const DOMAIN_SORT_FIELDS = ['name', 'createdAt', 'updatedAt'] as const;

const route = routeFamily({
  tags: ['domains'],
  read: tiers(['user'], 'user.domains.read'),
  write: tiers(['user'], 'user.domains.write'),
});

export const listDomains = route.get('user.domains.list', `${base}/domains`, {
  summary: "A site's domains, paged, searched and sorted",
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
  response: pageOf(domainSchema),
});
/** The list query as the server receives it (defaults applied, coerced). */
export type DomainListQuery = z.output<typeof listDomains.request.query>;

export const createDomains = route.post('user.domains.create', `${base}/domains`, {
  codes: [101009, 101019, 101025, 301001, 401001, 401002, 401003, 401004, 401008],
  summary:
    'Adds domains to a site, all or none; names already taken are reported per name with 101009 (401001 enabled elsewhere, 101025 in this site)',
  params: siteParams,
  body: z.object({ domains: z.array(domainInputSchema).min(1).max(DOMAINS_PER_REQUEST_MAX) }),
  response: dataOf(z.array(domainSchema)),
});

export const updateDomain = route.put('user.domain.update', `${base}/domain`, {
  codes: [101009, 101019, 301001, 401001, 401003, 401004, 401008],
  summary: "Replaces a domain's upstreams and the settings given (the name stays; a setting left out is kept)",
  params: siteParams,
  body: domainUpdateInput,
  response: dataOf(domainSchema),
});

export const deleteDomains = route.delete('user.domains.delete', `${base}/domains`, {
  summary: 'Deletes domains of the site by id (all or none)',
  params: siteParams,
  body: z.object({ ids: idList }),
  response: okReply,
});

export const setDomainsStatus = route.put('user.domains.status', `${base}/domain/setting/status`, {
  codes: [101009, 401001],
  summary: 'Enables or disables domains (all or none; 401001 when an enabled namesake exists elsewhere)',
  params: siteParams,
  body: z.object({ domainIDs: idList, status: domainStatusSchema }),
  response: okReply,
});

export const setDomainsForceSSL = route.patch('user.domains.forceSSL', `${base}/domain/setting/forceSSL`, {
  summary: 'Turns the HTTP → HTTPS redirect of domains on or off',
  params: siteParams,
  body: z.object({ domainIDs: idList, forceSSL: z.boolean() }),
  response: okReply,
});

export const setDomainsBalance = route.patch('user.domains.balance', `${base}/domain/setting/balance`, {
  summary: 'Sets the load-balancing method of domains',
  params: siteParams,
  body: z.object({ domainIDs: idList, hashType: hashTypeSchema }),
  response: okReply,
});

export const setDomainScheme = route.put('user.domain.scheme', `${base}/domain/{domainId}/scheme`, {
  codes: [401003],
  summary:
    'Sets the protocol the edge uses towards the origin and, when given, the port map (401003 when a mapped port is not available)',
  params: domainParams,
  body: z.object({ scheme: originSchemeSchema, portMap: z.boolean().optional() }),
  response: okReply,
});

export const setDomainsAutoSSL = route.post('user.domains.autoSSL', `${base}/domain/setting/autoSSL`, {
  codes: [101019, 401004],
  summary: `Turns automatic certificates of domains on or off (all or none; 401004 over ${AUTO_SSL_DOMAINS_PER_SITE_MAX} per site)`,
  params: siteParams,
  body: z.object({ domainIDs: idList, autoSSL: z.boolean() }),
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

export const checkDomainsCNAME = route.put('user.domains.checkCNAME', `${base}/domains/checkCNAME`, {
  codes: [101010],
  sendsOnDemand: true,
  summary:
    'Resolves the names of domains in DNS and records whether each points (through CNAMEs) at its target; 101010 when the resolver fails, recording nothing',
  params: siteParams,
  body: z.object({ domainIDs: zIds(CNAME_CHECK_MAX) }),
  response: dataOf(z.array(domainCnameCheckSchema)),
});

export const createSimpleDomains = route.post('user.domains.simpleCreate', `${base}/simpleDomains`, {
  codes: [101009, 101019, 101025, 301001, 401001, 401002, 401003, 401004, 401008],
  summary:
    'Adds domains by name, all sharing the given upstreams and default settings (all or none; per-name failures through 101009)',
  params: siteParams,
  body: z.object({ names: domainNames, upstreams: upstreamList }),
  response: dataOf(z.array(domainSchema)),
});

export const deleteDomainsByNames = route.delete('user.domains.deleteByNames', `${base}/domainsByNames`, {
  codes: [101009],
  summary: 'Deletes domains of the site by name (all or none; a name not in the site answers 101009 naming it)',
  params: siteParams,
  body: z.object({ names: domainNames }),
  response: okReply,
});

export const domainMetaSchema = z.object({ id: z.number().int(), name: z.string(), status: domainStatusSchema });

export const metaDomains = route.get('user.domains.meta', `${base}/metaDomains`, {
  summary: `The site's domains as id, name and status for pickers, by name; at most ${SITE_DOMAIN_META_MAX}`,
  params: siteParams,
  query: z.object({ keyword: z.string().max(256).default('') }),
  response: dataOf(z.array(domainMetaSchema)),
});

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
