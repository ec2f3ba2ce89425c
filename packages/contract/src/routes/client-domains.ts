import { z } from 'zod';
import { domainStatusSchema } from '../enums.js';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zIdParam, zIds } from '../validators/ids.js';
import {
  DOMAIN_TAGS_MAX,
  DOMAINS_PER_REQUEST_MAX,
  domainIdsQuery,
  domainsAcrossMetaBody,
  domainWithSiteSchema,
} from './domains.js';
import { queryList, siteTagSchema, tagsReply } from './sites.js';

/**
 * The operator's view of its customers' domains (spec part 2 §7 "Operator sites, domains"): every
 * call is scoped to the operator's sites; a domain of another operator is never listed and, named
 * by id, answers 101018.
 */

const domainIds = zIds(DOMAINS_PER_REQUEST_MAX);

export const clientDomainSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  siteID: z.number().int(),
  siteName: z.string(),
  userAccount: z.string(),
  status: domainStatusSchema,
  tags: z.array(z.string()),
  createdAt: z.string(),
});
export type ClientDomain = z.infer<typeof clientDomainSchema>;

const route = routeFamily({
  tags: ['domains'],
  read: tiers(['client'], 'client.domains.read'),
  write: tiers(['client'], 'client.domains.read'),
});

export const listClientDomains = route.get('client.domains.list', '/client/domains', {
  summary: "The operator's domains, paged; filtered by site, a part of the name, tags (any of) and status",
  query: pageQuery.extend({
    siteID: zIdParam.optional(),
    name: z.string().max(256).optional(),
    tags: queryList(siteTagSchema, DOMAIN_TAGS_MAX),
    status: z.coerce.number().pipe(domainStatusSchema).optional(),
  }),
  response: pageOf(clientDomainSchema),
});
/** The list query as the server receives it. */
export type ClientDomainListQuery = z.output<typeof listClientDomains.request.query>;

/** Most entries a meta answer holds; pickers search with `name` for the rest. */
export const DOMAIN_META_MAX = 1000;

export const metaClientDomains = route.post('client.domains.meta', '/client/domains/meta', {
  summary: `Domains of the given sites (or all) as id, name and site, for pickers; at most ${DOMAIN_META_MAX}`,
  body: domainsAcrossMetaBody,
  response: dataOf(z.array(domainWithSiteSchema)),
});

export const clientDomainTags = route.get('client.domains.tags', '/client/domains/tags', {
  summary: "Every tag the operator's domains carry, for filters",
  response: tagsReply,
});

export const setClientDomainTags = route.post('client.domains.tags.set', '/client/domains/tags', {
  access: tiers(['client'], 'client.domains.write'),
  summary: 'Replaces the tags of domains (all or none)',
  body: z.object({ ids: domainIds, tags: z.array(siteTagSchema).max(DOMAIN_TAGS_MAX) }),
  response: okReply,
});

export const clientDomainIds = route.get('client.domains.ids', '/client/domains/ids', {
  summary: 'The ids of the domains with exactly this name, optionally in the site of this name or id',
  query: domainIdsQuery,
  response: dataOf(z.array(z.number().int())),
});
/** The query as the server receives it. */
export type ClientDomainIdsQuery = z.output<typeof clientDomainIds.request.query>;

export const clientDomainRoutes = {
  listClientDomains,
  metaClientDomains,
  clientDomainTags,
  setClientDomainTags,
  clientDomainIds,
} as const;
