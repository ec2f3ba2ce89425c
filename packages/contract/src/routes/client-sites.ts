import { z } from 'zod';
import { dataOf, defineRoute, okReply, tiers } from '../route.js';
import { idNameSchema, zId, zIdParam, zIds } from '../validators/ids.js';
import { zMemo, zName } from '../validators/zod.js';
import { operatorSiteSchema, siteLimitationsSchema, siteTagSchema, tagsReply } from './sites.js';

/**
 * What an operator changes on its customers' sites (spec part 2 §7 "Operator sites"). Every bulk
 * call takes `ids` and is all or none: an id that is not the operator's (101018) or a site the
 * change is refused for leaves every site as it was.
 */

const ids = zIds(500);
export const SITE_TAGS_MAX = 20;

export const metaSites = defineRoute({
  id: 'client.sites.meta',
  method: 'GET',
  path: '/client/metaSites',
  access: tiers(['client'], 'client.sites.read'),
  codes: [],
  summary: "Every site of the operator as id and name, for pickers (optionally one customer's)",
  tags: ['sites'],
  request: { query: z.object({ userID: zIdParam.optional() }) },
  response: dataOf(z.array(idNameSchema)),
});

export const siteUpdateBody = z.object({ id: zId, siteName: zName, memo: zMemo });
export type SiteUpdateIn = z.output<typeof siteUpdateBody>;

export const updateSite = defineRoute({
  id: 'client.site.update',
  method: 'PATCH',
  path: '/client/site',
  access: tiers(['client'], 'client.sites.write'),
  codes: [],
  summary: "Renames a site and sets the operator's memo",
  tags: ['sites'],
  request: { body: siteUpdateBody },
  response: dataOf(operatorSiteSchema),
});

export const setSitesUser = defineRoute({
  id: 'client.sites.user',
  method: 'PATCH',
  path: '/client/site/users',
  access: tiers(['client'], 'client.sites.write'),
  codes: [401002],
  summary: 'Gives sites, with their domains and certificates, to another customer account of the operator',
  tags: ['sites'],
  request: { body: z.object({ ids, userID: zId }) },
  response: okReply,
});

export const changeSitesProduct = defineRoute({
  id: 'client.sites.product.change',
  method: 'PATCH',
  path: '/client/site/product/change',
  access: tiers(['client'], 'client.sites.write'),
  codes: [204003, 205006, 401002],
  summary: "Moves sites to another product of the same port type (204003 beyond the product's sites limit)",
  tags: ['sites'],
  request: { body: z.object({ ids, productID: zId }) },
  response: okReply,
});

export const refreshSitesProduct = defineRoute({
  id: 'client.sites.product.refresh',
  method: 'PATCH',
  path: '/client/site/product/refresh',
  access: tiers(['client'], 'client.sites.write'),
  codes: [],
  summary:
    "Publishes the sites again from their product's current groups and answers the groups that now serve each one",
  tags: ['sites'],
  request: { body: z.object({ ids }) },
  response: dataOf(
    z.array(
      z.object({
        siteID: z.number().int(),
        /** The backup groups when the site is forced to backup, else the main groups. */
        groups: z.array(idNameSchema),
      }),
    ),
  ),
});

export const setSitesLimitations = defineRoute({
  id: 'client.sites.limitations',
  method: 'PATCH',
  path: '/client/site/limitations',
  access: tiers(['client'], 'client.sites.write'),
  codes: [401002, 401007],
  summary: 'Sets the limitations of sites (401002 / 401007 when a site already has more domains / ports than allowed)',
  tags: ['sites'],
  request: {
    // A limitation left out keeps its current value.
    body: z.object({ ids, limitations: siteLimitationsSchema.partial({ maxPorts: true }) }),
  },
  response: okReply,
});

export const setSitesExpiry = defineRoute({
  id: 'client.sites.expired',
  method: 'PATCH',
  path: '/client/site/expired',
  access: tiers(['client'], 'client.sites.write'),
  codes: [401002],
  summary: 'Sets when sites expire (null: never); an expired site is served as disabled',
  tags: ['sites'],
  request: { body: z.object({ ids, expiredAt: z.iso.datetime({ offset: true }).nullable() }) },
  response: okReply,
});

export const setSitesForceBackup = defineRoute({
  id: 'client.sites.forceBackup',
  method: 'PATCH',
  path: '/client/site/forceBackup',
  access: tiers(['client'], 'client.sites.write'),
  codes: [401002],
  summary: "Forces sites to their product's backup groups (takes effect in DNS when DNS is managed)",
  tags: ['sites'],
  request: { body: z.object({ ids, forceBackup: z.boolean() }) },
  response: okReply,
});

export const siteTags = defineRoute({
  id: 'client.sites.tags',
  method: 'GET',
  path: '/client/site/tags',
  access: tiers(['client'], 'client.sites.read'),
  codes: [],
  summary: "Every tag the operator's sites carry, for filters",
  tags: ['sites'],
  request: {},
  response: tagsReply,
});

export const setSitesTags = defineRoute({
  id: 'client.sites.tags.set',
  method: 'PUT',
  path: '/client/site/tags',
  access: tiers(['client'], 'client.sites.write'),
  codes: [401002],
  summary: 'Replaces the tags of sites',
  tags: ['sites'],
  request: { body: z.object({ ids, tags: z.array(siteTagSchema).max(SITE_TAGS_MAX) }) },
  response: okReply,
});

export const clientSiteRoutes = {
  metaSites,
  updateSite,
  setSitesUser,
  changeSitesProduct,
  refreshSitesProduct,
  setSitesLimitations,
  setSitesExpiry,
  setSitesForceBackup,
  siteTags,
  setSitesTags,
} as const;
