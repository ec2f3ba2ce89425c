import { z } from 'zod';
import { siteAccountStatusSchema } from '../enums.js';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { idNameSchema, zId, zIdParam, zIds } from '../validators/ids.js';
import { zName } from '../validators/zod.js';
import { portTypeSchema } from './groups.js';

/**
 * Sites: what an operator gives a customer on a product (spec part 1 §3 "site"; part 2 §3
 * "Site (operator view)"). Status: normal serves; pause and limit stop serving.
 */
/** The params of a path under `/user/site/{siteId}`. */
export const siteParams = z.object({ siteId: zIdParam });

export const siteTagSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[^\s,]+$/);

/** The reply of a tags call: every tag the caller's objects carry, for filters. */
export const tagsReply = dataOf(z.array(z.string()));

export const siteSchema = z.object({
  siteID: z.number().int(),
  siteName: z.string(),
  status: siteAccountStatusSchema,
  tags: z.array(z.string()),
  productID: z.number().int(),
  productName: z.string(),
  userID: z.number().int(),
  userAccount: z.string(),
  expiredAt: z.string().nullable(),
  forceBackup: z.boolean(),
  createdAt: z.string(),
});
export type Site = z.infer<typeof siteSchema>;

/**
 * Limitations of a site that the API enforces: `maxDomains` (0 = unlimited) on domain create
 * (401002) and `maxPorts` (0 = unlimited) on layer-4 port create (401007).
 */
export const siteLimitationsSchema = z.object({
  maxDomains: z.number().int().min(0).max(100_000),
  maxPorts: z.number().int().min(0).max(100_000),
});
export type SiteLimitations = z.infer<typeof siteLimitationsSchema>;

/** A site as its operator sees it: the customer's view plus the operator's memo, limits and usage. */
export const operatorSiteSchema = siteSchema.extend({
  memo: z.string(),
  limitations: siteLimitationsSchema,
  domainCount: z.number().int(),
});
export type OperatorSite = z.infer<typeof operatorSiteSchema>;

/** A repeated query parameter (`?tags=a&tags=b`) or a single one, read as a list. */
export function queryList<T extends z.ZodType>(item: T, max = 100) {
  return z
    .union([item, z.array(item).max(max)])
    .transform((v) => (Array.isArray(v) ? v : [v]) as z.output<T>[])
    .optional();
}
const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

const siteFilters = pageQuery.extend({
  siteName: z.string().max(256).optional(),
  // The console omits status when it is -1 (all).
  status: siteAccountStatusSchema.optional(),
  productID: zIdParam.optional(),
  /** Any of these tags. */
  tags: queryList(siteTagSchema, 20),
});

/** Filters of the operator's list: `siteName` is a part of the name, `siteID` an exact id. */
const clientSiteFilters = siteFilters.extend({
  siteID: zIdParam.optional(),
  userID: zIdParam.optional(),
  expired: booleanQuery.optional(),
  forceBackup: booleanQuery.optional(),
});

const route = routeFamily({
  tags: ['sites'],
  read: tiers(['user'], 'user.sites.read'),
  write: tiers(['user'], 'user.sites.write'),
});

export const listClientSites = route.get('client.sites.list', '/client/sites', {
  access: tiers(['client'], 'client.sites.read'),
  summary:
    "The operator's sites, paged; filtered by name or id, status, product, customer, tags (any of), expiry and force-backup",
  query: clientSiteFilters,
  response: pageOf(operatorSiteSchema),
});

export const siteCreateBody = z.object({
  siteName: zName,
  userID: zId,
  productID: zId,
  tags: z.array(siteTagSchema).max(20).default([]),
  expiredAt: z.iso.datetime({ offset: true }).nullable().default(null),
});
export type SiteCreateIn = z.output<typeof siteCreateBody>;

export const createSite = route.post('client.site.create', '/client/site', {
  access: tiers(['client'], 'client.sites.write'),
  codes: [101019, 204003, 205001],
  summary: 'Creates a site for a customer account on a product',
  body: siteCreateBody,
  response: dataOf(operatorSiteSchema),
});

export const deleteSites = route.delete('client.sites.delete', '/client/site', {
  access: tiers(['client'], 'client.sites.write'),
  codes: [205004, 205005],
  summary: 'Deletes sites of the operator (all or none); a site that still has domains is refused (205005)',
  body: z.object({ ids: zIds(500) }),
  response: okReply,
});

export const setSitesStatus = route.patch('client.sites.status', '/client/site/status', {
  access: tiers(['client'], 'client.sites.write'),
  codes: [205002, 205006, 401002],
  summary:
    "Sets the status of sites (all or none); 205002 for 'limit' (traffic quotas set it) and for 'normal' on an expired site; 205006 for 'normal' on a site under a traffic restriction",
  body: z.object({ ids: zIds(500), status: siteAccountStatusSchema }),
  response: okReply,
});

export const listUserSites = route.get('user.sites.list', '/user/sites', {
  summary: "The caller's sites, paged and filtered",
  query: siteFilters,
  response: pageOf(siteSchema),
});

/** One site as its customer sees it, with its product's port type (7: domains, 4: layer-4 ports). */
export const userSiteDetailSchema = siteSchema.extend({ portType: portTypeSchema });
export type UserSiteDetail = z.infer<typeof userSiteDetailSchema>;

export const getUserSite = route.get('user.site.get', '/user/site/{siteId}', {
  summary: "One of the caller's sites, with its product's port type",
  params: siteParams,
  response: dataOf(userSiteDetailSchema),
});

const siteIds = zIds(500);
/** Most tags a site carries (the operator's `client/site/tags` has the same bound). */
const tagList = z.array(siteTagSchema).max(20);

export const metaUserSites = route.get('user.sites.meta', '/user/metaSites', {
  summary: 'Every site the caller holds or was given access to, as id and name, for pickers',
  response: dataOf(z.array(idNameSchema)),
});

export const userSiteTags = route.get('user.sites.tags', '/user/site/tags', {
  summary: "Every tag the caller's sites carry, sorted, for filters",
  response: tagsReply,
});

export const setUserSitesTags = route.put('user.sites.tags.set', '/user/site/tags', {
  summary: 'Replaces the tags of sites the caller holds (all or none; 101018 for a site that is not its own)',
  body: z.object({ ids: siteIds, tags: tagList }),
  response: okReply,
});

export const setUserSiteTags = route.put('user.site.tags.set', '/user/site/{siteId}/tags', {
  summary: 'Replaces the tags of one site the caller holds and answers the site',
  params: siteParams,
  body: z.object({ tags: tagList }),
  response: dataOf(siteSchema),
});

/** A sub-account of the customer and whether it may manage the site. */
export const siteUserSchema = z.object({
  id: z.number().int(),
  account: z.string(),
  name: z.string(),
  email: z.string(),
  granted: z.boolean(),
});
export type SiteUser = z.infer<typeof siteUserSchema>;

export const listSiteUsers = route.get('user.site.users', '/user/site/users/{siteId}', {
  summary:
    "The caller's sub-accounts, each with whether it was given access to the site (only the site's holder may ask)",
  params: siteParams,
  response: dataOf(z.array(siteUserSchema)),
});

const siteUsersBody = z.object({
  siteIDs: siteIds,
  userIDs: zIds(100),
});

export const grantSiteUsers = route.patch('user.site.users.grant', '/user/site/users', {
  summary:
    "Gives sub-accounts of the caller access to sites it holds: they see and manage them (all or none; 101018 for a site or account that is not the caller's)",
  body: siteUsersBody,
  response: okReply,
});

export const revokeSiteUsers = route.delete('user.site.users.revoke', '/user/site/users', {
  summary: 'Takes access to sites the caller holds away from its sub-accounts (all or none)',
  body: siteUsersBody,
  response: okReply,
});

export const siteRoutes = {
  listClientSites,
  createSite,
  deleteSites,
  setSitesStatus,
  listUserSites,
  getUserSite,
  metaUserSites,
  userSiteTags,
  setUserSitesTags,
  setUserSiteTags,
  listSiteUsers,
  grantSiteUsers,
  revokeSiteUsers,
} as const;
