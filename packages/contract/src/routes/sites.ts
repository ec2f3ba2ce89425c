import { z } from 'zod';
import { siteAccountStatusSchema } from '../enums.js';
import { pageQuery } from '../http.js';
import { dataOf, defineRoute, pageOf, tiers } from '../route.js';
import { zName } from '../validators/zod.js';

/**
 * Sites: what an operator gives a customer on a product (spec part 1 §3 "site"; part 2 §3
 * "Site (operator view)"). Status: normal serves; pause and limit stop serving.
 */
export const siteTagSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[^\s,]+$/);

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

/** Limitations of a site that the API enforces: `maxDomains` (0 = unlimited) on domain create (401002). */
export const siteLimitationsSchema = z.object({ maxDomains: z.number().int().min(0).max(100_000) });
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

const client = tiers(['client']);
const siteFilters = pageQuery.extend({
  siteName: z.string().max(256).optional(),
  // The console omits status when it is -1 (all).
  status: siteAccountStatusSchema.optional(),
  productID: z.coerce.number().int().positive().optional(),
});

/** Filters of the operator's list: `siteName` is a part of the name, `siteID` an exact id. */
const clientSiteFilters = siteFilters.extend({
  siteID: z.coerce.number().int().positive().optional(),
  userID: z.coerce.number().int().positive().optional(),
  tags: queryList(siteTagSchema, 20),
  expired: booleanQuery.optional(),
  forceBackup: booleanQuery.optional(),
});

export const listClientSites = defineRoute({
  id: 'client.sites.list',
  method: 'GET',
  path: '/client/sites',
  access: client,
  summary:
    "The operator's sites, paged; filtered by name or id, status, product, customer, tags (any of), expiry and force-backup",
  tags: ['sites'],
  request: { query: clientSiteFilters },
  response: pageOf(operatorSiteSchema),
});

export const createSite = defineRoute({
  id: 'client.site.create',
  method: 'POST',
  path: '/client/site',
  access: client,
  summary: 'Creates a site for a customer account on a product',
  tags: ['sites'],
  request: {
    body: z.object({
      siteName: zName,
      userID: z.number().int().positive(),
      productID: z.number().int().positive(),
      tags: z.array(siteTagSchema).max(20).default([]),
      expiredAt: z.iso.datetime({ offset: true }).nullable().default(null),
    }),
  },
  response: dataOf(operatorSiteSchema),
});

export const deleteSites = defineRoute({
  id: 'client.sites.delete',
  method: 'DELETE',
  path: '/client/site',
  access: client,
  summary: 'Deletes sites of the operator (all or none); a site that still has domains is refused (205005)',
  tags: ['sites'],
  request: { body: z.object({ ids: z.array(z.number().int().positive()).min(1).max(500) }) },
  response: dataOf(z.literal(true)),
});

export const setSitesStatus = defineRoute({
  id: 'client.sites.status',
  method: 'PATCH',
  path: '/client/site/status',
  access: client,
  summary:
    "Sets the status of sites (all or none); 205002 for 'limit' (traffic quotas set it) and for 'normal' on an expired site",
  tags: ['sites'],
  request: {
    body: z.object({ ids: z.array(z.number().int().positive()).min(1).max(500), status: siteAccountStatusSchema }),
  },
  response: dataOf(z.literal(true)),
});

export const listUserSites = defineRoute({
  id: 'user.sites.list',
  method: 'GET',
  path: '/user/sites',
  access: tiers(['user']),
  summary: "The caller's sites, paged and filtered",
  tags: ['sites'],
  request: { query: siteFilters },
  response: pageOf(siteSchema),
});

export const getUserSite = defineRoute({
  id: 'user.site.get',
  method: 'GET',
  path: '/user/site/{siteId}',
  access: tiers(['user']),
  summary: "One of the caller's sites",
  tags: ['sites'],
  request: { params: z.object({ siteId: z.coerce.number().int().positive() }) },
  response: dataOf(siteSchema),
});

export const siteRoutes = {
  listClientSites,
  createSite,
  deleteSites,
  setSitesStatus,
  listUserSites,
  getUserSite,
} as const;
