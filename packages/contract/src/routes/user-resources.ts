import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
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

const route = routeFamily({ tags: ['sites'], read: tiers(['user'], 'user.resources.read') });

export const getResourceInfo = route.get('user.resourceInfo', '/user/resourceInfo', {
  summary: "Counts of the caller's sites and domains, and this and last month's traffic in bytes",
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

export const listUserProducts = route.get('user.products.list', '/user/products', {
  summary: "The products the caller's sites are on, paged, optionally only some (productIDs)",
  tags: ['products'],
  query: pageQuery.extend({ productIDs: queryList(zIdParam, 100) }),
  response: pageOf(userProductSchema),
});

export const geoRegionSchema = z.object({
  alpha2: z.string(),
  names: z.object({ en_US: z.string(), zh_CN: z.string(), zh_TW: z.string() }),
});

/**
 * A node of the region tree (spec part 1 §7 "Region tree node"): a country (`id` = `code` =
 * alpha-2) with its cities as children when the operator's geo database is a City database (`id` =
 * the city's GeoNames id; no children). Names in the caller's language (request-locale.ts); a
 * city's name is the database's, in the caller's language when it has one, else English.
 */
const geoNodeFields = {
  id: z.string(),
  code: z.string(),
  alpha2: z.string(),
  countryName: z.string(),
  cityName: z.string(),
  continentCode: z.string(),
};
export const geoTreeNodeSchema = z.object({
  ...geoNodeFields,
  children: z.array(z.object({ ...geoNodeFields, children: z.array(z.never()).max(0) })),
});
export type GeoTreeNode = z.infer<typeof geoTreeNodeSchema>;

export const listGeoIps = route.get('user.geoips', '/user/geoips', {
  summary:
    "The region tree for geo rules: countries (ISO 3166-1 alpha-2, with continent) and, with the operator's City database, their cities",
  response: dataOf(z.array(geoTreeNodeSchema)),
});

export const userResourceRoutes = { getResourceInfo, listUserProducts, listGeoIps } as const;
