import { z } from 'zod';
import { dataOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zIdParam, zIds } from '../validators/ids.js';
import { zDomainName } from '../validators/zod.js';
import { SITE_DOMAIN_META_MAX } from './domain-schemas.js';
import { tagsReply } from './sites.js';

// The customer's domains across its sites, for pickers and filters (domains.ts lists every domain route).
// Domains across the customer's sites (spec part 1 §7 "Domains across sites").
const siteIDList = zIds(500, 0).default([]);

/** What a domain picker asks: the domains of these sites (all with none) whose name contains `name`. */
export const domainsAcrossMetaBody = z.object({ siteIDs: siteIDList, name: z.string().max(256).default('') });
/** A domain as a picker across sites lists it: with its site. */
export const domainWithSiteSchema = z.object({ id: z.number().int(), name: z.string(), siteID: z.number().int() });

const route = routeFamily({
  tags: ['domains'],
  read: tiers(['user'], 'user.domains.read'),
  write: tiers(['user'], 'user.domains.read'),
});

export const userDomainsMeta = route.post('user.domains.acrossMeta', '/user/domains/meta', {
  summary: `Domains of the given sites of the customer (or all) as id, name and site, for pickers; at most ${SITE_DOMAIN_META_MAX}`,
  body: domainsAcrossMetaBody,
  response: dataOf(z.array(domainWithSiteSchema)),
});

export const userDomainsTags = route.post('user.domains.acrossTags', '/user/domains/tags', {
  summary: 'Every tag the domains of the given sites of the customer (or all) carry, for filters',
  body: z.object({ siteIDs: siteIDList }),
  response: tagsReply,
});

/** Which domains a name stands for: exactly this name, optionally in the site of this name or id. */
export const domainIdsQuery = z.object({
  name: zDomainName({ wildcard: true }),
  siteName: z.string().max(256).optional(),
  siteID: zIdParam.optional(),
});

export const userDomainIds = route.get('user.domains.ids', '/user/domains/ids', {
  summary: "The ids of the customer's domains with exactly this name, optionally in the site of this name or id",
  query: domainIdsQuery,
  response: dataOf(z.array(z.number().int())),
});
/** The query as the server receives it. */
export type UserDomainIdsQuery = z.output<typeof userDomainIds.request.query>;
