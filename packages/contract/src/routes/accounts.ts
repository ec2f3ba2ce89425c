import { z } from 'zod';
import { accountStatusSchema } from '../enums.js';
import { pageQuery } from '../http.js';
import { defineRoute, pageOf, tiers } from '../route.js';

/**
 * Account lists (spec part 1 §7 `{auth}/accounts`). This is the read side the operator needs to
 * give a site to a customer; creating and editing accounts comes with the accounts issue.
 */
export const accountListItemSchema = z.object({
  id: z.number().int(),
  account: z.string(),
  name: z.string(),
  email: z.string(),
  status: accountStatusSchema,
  createdAt: z.string(),
});
export type AccountListItem = z.infer<typeof accountListItemSchema>;

export const listClientAccounts = defineRoute({
  id: 'client.accounts.list',
  method: 'GET',
  path: '/client/accounts',
  access: tiers(['client']),
  summary: "The operator's customer accounts (tier user), paged and searched by account or name",
  tags: ['accounts'],
  request: { query: pageQuery.extend({ name: z.string().max(256).optional() }) },
  response: pageOf(accountListItemSchema),
});

export const accountRoutes = { listClientAccounts } as const;
