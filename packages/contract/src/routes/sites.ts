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

const client = tiers(['client']);
const siteFilters = pageQuery.extend({
  siteName: z.string().max(256).optional(),
  // The console omits status when it is -1 (all).
  status: siteAccountStatusSchema.optional(),
  productID: z.coerce.number().int().positive().optional(),
});

export const listClientSites = defineRoute({
  id: 'client.sites.list',
  method: 'GET',
  path: '/client/sites',
  access: client,
  summary: "The operator's sites, paged and filtered",
  tags: ['sites'],
  request: { query: siteFilters },
  response: pageOf(siteSchema),
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
  response: dataOf(siteSchema),
});

export const deleteSites = defineRoute({
  id: 'client.sites.delete',
  method: 'DELETE',
  path: '/client/site',
  access: client,
  summary: 'Deletes sites of the operator (all or none)',
  tags: ['sites'],
  request: { body: z.object({ ids: z.array(z.number().int().positive()).min(1).max(500) }) },
  response: dataOf(z.literal(true)),
});

export const setSitesStatus = defineRoute({
  id: 'client.sites.status',
  method: 'PATCH',
  path: '/client/site/status',
  access: client,
  summary: 'Sets the status of sites (all or none)',
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
