import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, defineRoute, pageOf, tiers } from '../route.js';
import { zName, zText } from '../validators/zod.js';
import { portTypeSchema } from './groups.js';

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
  createdAt: z.string(),
});
export type Product = z.infer<typeof productSchema>;

const client = tiers(['client']);
const groupIds = z.array(z.number().int().positive()).max(100);
const productBody = z.object({
  name: zName,
  portType: portTypeSchema,
  memo: zText(256).default(''),
  mainGroupIDs: groupIds.min(1),
  backupGroupIDs: groupIds.default([]),
});

export const listProducts = defineRoute({
  id: 'client.products.list',
  method: 'GET',
  path: '/client/products',
  access: client,
  summary: "The operator's products, paged",
  tags: ['products'],
  request: { query: pageQuery },
  response: pageOf(productSchema),
});

export const metaProducts = defineRoute({
  id: 'client.products.meta',
  method: 'GET',
  path: '/client/metaProducts',
  access: client,
  summary: 'Every product as id, name and port type, for pickers',
  tags: ['products'],
  request: {},
  response: dataOf(z.array(z.object({ id: z.number().int(), name: z.string(), portType: portTypeSchema }))),
});

export const createProduct = defineRoute({
  id: 'client.product.create',
  method: 'POST',
  path: '/client/product',
  access: client,
  summary: 'Creates a product served by groups of the same port type',
  tags: ['products'],
  request: { body: productBody },
  response: dataOf(productSchema),
});

export const updateProduct = defineRoute({
  id: 'client.product.update',
  method: 'PUT',
  path: '/client/product',
  access: client,
  summary: 'Changes a product (its port type is fixed once sites use it)',
  tags: ['products'],
  request: { body: productBody.extend({ id: z.number().int().positive() }) },
  response: dataOf(productSchema),
});

export const deleteProduct = defineRoute({
  id: 'client.product.delete',
  method: 'DELETE',
  path: '/client/product',
  access: client,
  summary: 'Deletes a product no site uses (204002 otherwise)',
  tags: ['products'],
  request: { body: z.object({ id: z.number().int().positive() }) },
  response: dataOf(z.literal(true)),
});

export const productRoutes = { listProducts, metaProducts, createProduct, updateProduct, deleteProduct } as const;
