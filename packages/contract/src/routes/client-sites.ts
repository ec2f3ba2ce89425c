import { z } from 'zod';
import { dataOf, okReply, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
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

const route = routeFamily({
  tags: ['sites'],
  read: tiers(['client'], 'client.sites.read'),
  write: tiers(['client'], 'client.sites.write'),
});

export const metaSites = route.get('client.sites.meta', '/client/metaSites', {
  summary: "Every site of the operator as id and name, for pickers (optionally one customer's)",
  query: z.object({ userID: zIdParam.optional() }),
  response: dataOf(z.array(idNameSchema)),
});

export const siteUpdateBody = z.object({ id: zId, siteName: zName, memo: zMemo });
export type SiteUpdateIn = z.output<typeof siteUpdateBody>;

export const updateSite = route.patch('client.site.update', '/client/site', {
  summary: "Renames a site and sets the operator's memo",
  body: siteUpdateBody,
  response: dataOf(operatorSiteSchema),
});

export const setSitesUser = route.patch('client.sites.user', '/client/site/users', {
  codes: [401002],
  summary: 'Gives sites, with their domains and certificates, to another customer account of the operator',
  body: z.object({ ids, userID: zId }),
  response: okReply,
});

export const changeSitesProduct = route.patch('client.sites.product.change', '/client/site/product/change', {
  codes: [204003, 205006, 401002],
  summary: "Moves sites to another product of the same port type (204003 beyond the product's sites limit)",
  body: z.object({ ids, productID: zId }),
  response: okReply,
});

export const refreshSitesProduct = route.patch('client.sites.product.refresh', '/client/site/product/refresh', {
  summary:
    "Publishes the sites again from their product's current groups and answers the groups that now serve each one",
  body: z.object({ ids }),
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

export const setSitesLimitations = route.patch('client.sites.limitations', '/client/site/limitations', {
  codes: [401002, 401007],
  summary: 'Sets the limitations of sites (401002 / 401007 when a site already has more domains / ports than allowed)',
  // A limitation left out keeps its current value.
  body: z.object({ ids, limitations: siteLimitationsSchema.partial({ maxPorts: true }) }),
  response: okReply,
});

export const setSitesExpiry = route.patch('client.sites.expired', '/client/site/expired', {
  codes: [401002],
  summary: 'Sets when sites expire (null: never); an expired site is served as disabled',
  body: z.object({ ids, expiredAt: z.iso.datetime({ offset: true }).nullable() }),
  response: okReply,
});

export const setSitesForceBackup = route.patch('client.sites.forceBackup', '/client/site/forceBackup', {
  codes: [401002],
  summary: "Forces sites to their product's backup groups (takes effect in DNS when DNS is managed)",
  body: z.object({ ids, forceBackup: z.boolean() }),
  response: okReply,
});

export const siteTags = route.get('client.sites.tags', '/client/site/tags', {
  summary: "Every tag the operator's sites carry, for filters",
  response: tagsReply,
});

export const setSitesTags = route.put('client.sites.tags.set', '/client/site/tags', {
  codes: [401002],
  summary: 'Replaces the tags of sites',
  body: z.object({ ids, tags: z.array(siteTagSchema).max(SITE_TAGS_MAX) }),
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
