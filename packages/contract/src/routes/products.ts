import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId, zIdParam, zIds } from '../validators/ids.js';
import { zMemo, zName } from '../validators/zod.js';
import { portTypeSchema } from './groups.js';
import { RATE_MAX_KBPS, RATE_MIN_KBPS } from './site-settings.js';
import { TRAFFIC_PLAN_BYTES_MAX, trafficRestrictionSchema } from './traffic.js';

/**
 * Products: what an operator sells. A product has a port type and the node groups that serve its
 * sites — main groups, and backup groups used when the site is forced to backup (spec part 2 §3).
 */
export const productGroupRefSchema = z.object({ id: z.number().int(), name: z.string(), zoneId: z.number().int() });

export const productSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  portType: portTypeSchema,
  memo: z.string(),
  mainGroups: z.array(productGroupRefSchema),
  backupGroups: z.array(productGroupRefSchema),
  /** Most sites the product may carry; 0 = unlimited (204003 beyond it). */
  siteLimit: z.number().int(),
  siteCount: z.number().int(),
  /** Bytes each site of the product may serve per calendar month (UTC); 0 = unlimited. */
  monthlyTraffic: z.number().int(),
  /** What a site over its allowance gets (docs/decisions.md "Traffic packages"). */
  overTraffic: trafficRestrictionSchema,
  /** The cap of a throttled site's responses, KB/s. */
  throttleKbps: z.number().int(),
  createdAt: z.string(),
});
export type Product = z.infer<typeof productSchema>;

/** A throttled site's cap until the operator chooses one: 1 MB/s. */
export const PRODUCT_THROTTLE_KBPS_DEFAULT = 1024;

/** Largest sites limit a product can be given (beyond it, "unlimited" is the honest choice). */
export const PRODUCT_SITE_LIMIT_MAX = 1_000_000;

const groupIds = zIds(100, 0);
const productBody = z.object({
  name: zName,
  portType: portTypeSchema,
  memo: zMemo,
  mainGroupIDs: groupIds.min(1),
  backupGroupIDs: groupIds.default([]),
  siteLimit: z.number().int().min(0).max(PRODUCT_SITE_LIMIT_MAX).default(0),
  monthlyTraffic: z.number().int().min(0).max(TRAFFIC_PLAN_BYTES_MAX).default(0),
  overTraffic: trafficRestrictionSchema.default('pause'),
  throttleKbps: z.number().int().min(RATE_MIN_KBPS).max(RATE_MAX_KBPS).default(PRODUCT_THROTTLE_KBPS_DEFAULT),
});

export type ProductIn = z.output<typeof productBody>;
const productUpdateBody = productBody.extend({ id: zId });
export type ProductUpdateIn = z.output<typeof productUpdateBody>;

const route = routeFamily({
  tags: ['products'],
  read: tiers(['client'], 'client.products.read'),
  write: tiers(['client'], 'client.products.write'),
});

export const listProducts = route.get('client.products.list', '/client/products', {
  summary: "The operator's products, paged",
  query: pageQuery,
  response: pageOf(productSchema),
});

export const metaProducts = route.get('client.products.meta', '/client/metaProducts', {
  summary: 'Every product as id, name and port type, for pickers',
  response: dataOf(z.array(z.object({ id: z.number().int(), name: z.string(), portType: portTypeSchema }))),
});

/** A group of a product as the product page shows it: with its zone's name. */
export const productGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  zoneID: z.number().int(),
  zoneName: z.string(),
  nodeCount: z.number().int(),
});
export type ProductGroup = z.infer<typeof productGroupSchema>;

export const productGroups = route.get('client.product.groups', '/client/product/{id}/groups', {
  summary: "A product's main groups (isBackup=false, the default) or backup groups, with their zones",
  params: z.object({ id: zIdParam }),
  query: z.object({
    isBackup: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
  }),
  response: dataOf(z.array(productGroupSchema)),
});

export const createProduct = route.post('client.product.create', '/client/product', {
  codes: [101025],
  summary: 'Creates a product served by groups of the same port type',
  body: productBody,
  response: dataOf(productSchema),
});

export const updateProduct = route.put('client.product.update', '/client/product', {
  codes: [101025, 204003, 205004, 205005, 401002],
  summary: 'Changes a product; a sites limit below the sites it carries is refused (204003)',
  body: productUpdateBody,
  response: dataOf(productSchema),
});

export const deleteProduct = route.delete('client.product.delete', '/client/product', {
  codes: [204002],
  summary: 'Deletes a product no site uses (204002 otherwise)',
  body: z.object({ id: zId }),
  response: okReply,
});

export const productRoutes = {
  listProducts,
  metaProducts,
  productGroups,
  createProduct,
  updateProduct,
  deleteProduct,
} as const;
