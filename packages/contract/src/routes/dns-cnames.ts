import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, defineRoute, okReply, pageOf, tiers } from '../route.js';
import { zIds } from '../validators/ids.js';

/**
 * The CNAME records Rampart publishes for the operator (spec part 2 §7 "System settings":
 * `dns/cnames`, `cname/meta`; "CNAME record with disabled flag"; `dns/cname` is the operator's CNAME
 * domain, cname-settings.ts): one per domain of
 * the operator's sites, its CNAME target `<label>.<CNAME domain>`, which the DNS publication answers
 * with the healthy nodes (docs/decisions.md "Publishing DNS records").
 *
 * - `GET dns/cnames`: the records, newest domain first, filtered by a part of the domain or target.
 * - `PUT dns/cnames` with `ids` (domain ids) and `disabled`: a disabled record is not published (its
 *   sets are removed at the next pass); ids that are not the operator's domains are 101003 on `ids`.
 * - `GET cname/meta`: what the records are published with: the CNAME domain, the provider's zone and
 *   type (null without a provider), the TTL and the DNS lines the provider answers on.
 */

export const DNS_CNAME_MAX_IDS = 500;

export const dnsCnameSchema = z.object({
  /** The domain's id. */
  id: z.number().int(),
  domain: z.string(),
  /** The CNAME target the customer points the domain at. */
  target: z.string(),
  siteId: z.number().int(),
  siteName: z.string(),
  /** The domain is enabled by its customer (a disabled domain is not published either). */
  enabled: z.boolean(),
  disabled: z.boolean(),
});
export type DnsCname = z.infer<typeof dnsCnameSchema>;

export const cnameMetaSchema = z.object({
  cnameDomain: z.string(),
  providerType: z.string().nullable(),
  zone: z.string().nullable(),
  ttl: z.number().int().nullable(),
  /** Line ids (`client/dns/lines`) the provider answers on; [] without a provider. */
  lines: z.array(z.string()),
});
export type CnameMeta = z.infer<typeof cnameMetaSchema>;

export const listDnsCnames = defineRoute({
  id: 'client.setting.dns.cnames',
  method: 'GET',
  path: '/client/setting/dns/cnames',
  access: tiers(['client'], 'client.settings.read'),
  codes: [],
  summary: "The CNAME records published for the operator's domains, with their disabled flag",
  tags: ['settings'],
  request: { query: pageQuery.extend({ keyword: z.string().trim().max(253).optional() }) },
  response: pageOf(dnsCnameSchema),
});

export const setDnsCnames = defineRoute({
  id: 'client.setting.dns.cnames.update',
  method: 'PUT',
  path: '/client/setting/dns/cnames',
  access: tiers(['client'], 'client.settings.write'),
  codes: [],
  summary: 'Turns the publication of the CNAME records of domains `ids` off (`disabled`) or on',
  tags: ['settings'],
  request: { body: z.object({ ids: zIds(DNS_CNAME_MAX_IDS), disabled: z.boolean() }) },
  response: okReply,
});

export const getCnameMeta = defineRoute({
  id: 'client.setting.cname.meta',
  method: 'GET',
  path: '/client/setting/cname/meta',
  access: tiers(['client'], 'client.settings.read'),
  codes: [],
  summary: "What the operator's CNAME records are published with (CNAME domain, provider zone, TTL, lines)",
  tags: ['settings'],
  request: {},
  response: dataOf(cnameMetaSchema),
});

export const dnsCnameRoutes = { listDnsCnames, setDnsCnames, getCnameMeta } as const;
