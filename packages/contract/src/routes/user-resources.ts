import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, defineRoute, pageOf, tiers } from '../route.js';
import { zIdParam } from '../validators/ids.js';
import { portTypeSchema } from './groups.js';
import { queryList } from './sites.js';

/**
 * What the customer console shows around its sites (spec part 1 §7 "User console: sites,
 * products, misc"): the resource summary, the products its sites are on, and the geo list.
 */

export const resourceInfoSchema = z.object({
  /** Sites the caller holds or was given access to. */
  siteCount: z.number().int(),
  /** Domains of those sites. */
  domainCount: z.number().int(),
  /**
   * Bytes served for those sites this calendar month and the last (UTC). Always 0 until traffic
   * is recorded (the analytics issue fills them in).
   */
  currentMonthTraffic: z.number().int(),
  lastMonthTraffic: z.number().int(),
});
export type ResourceInfo = z.infer<typeof resourceInfoSchema>;

export const getResourceInfo = defineRoute({
  id: 'user.resourceInfo',
  method: 'GET',
  path: '/user/resourceInfo',
  access: tiers(['user'], 'user.resources.read'),
  codes: [],
  summary: "Counts of the caller's sites and domains, and this and last month's traffic in bytes",
  tags: ['sites'],
  request: {},
  response: dataOf(resourceInfoSchema),
});

export const userProductSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  portType: portTypeSchema,
  /** How many of the caller's sites are on it. */
  siteCount: z.number().int(),
});
export type UserProduct = z.infer<typeof userProductSchema>;

export const listUserProducts = defineRoute({
  id: 'user.products.list',
  method: 'GET',
  path: '/user/products',
  access: tiers(['user'], 'user.resources.read'),
  codes: [],
  summary: "The products the caller's sites are on, paged, optionally only some (productIDs)",
  tags: ['products'],
  request: { query: pageQuery.extend({ productIDs: queryList(zIdParam, 100) }) },
  response: pageOf(userProductSchema),
});

export const geoRegionSchema = z.object({
  alpha2: z.string(),
  names: z.object({ en_US: z.string(), zh_CN: z.string(), zh_TW: z.string() }),
});

export const listGeoIps = defineRoute({
  id: 'user.geoips',
  method: 'GET',
  path: '/user/geoips',
  access: tiers(['user'], 'user.resources.read'),
  codes: [],
  summary: 'Countries and regions (ISO 3166-1 alpha-2) with their names in the three languages, for pickers',
  tags: ['sites'],
  request: {},
  response: dataOf(z.array(geoRegionSchema)),
});

export const userResourceRoutes = { getResourceInfo, listUserProducts, listGeoIps } as const;
