import { z } from 'zod';
import { pageQuery } from '../http.js';
import { dataOf, okReply, pageOf, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
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

const route = routeFamily({
  tags: ['settings'],
  read: tiers(['client'], 'client.settings.read'),
  write: tiers(['client'], 'client.settings.write'),
});

export const listDnsCnames = route.get('client.setting.dns.cnames', '/client/setting/dns/cnames', {
  summary: "The CNAME records published for the operator's domains, with their disabled flag",
  query: pageQuery.extend({ keyword: z.string().trim().max(253).optional() }),
  response: pageOf(dnsCnameSchema),
});

export const setDnsCnames = route.put('client.setting.dns.cnames.update', '/client/setting/dns/cnames', {
  summary: 'Turns the publication of the CNAME records of domains `ids` off (`disabled`) or on',
  body: z.object({ ids: zIds(DNS_CNAME_MAX_IDS), disabled: z.boolean() }),
  response: okReply,
});

export const getCnameMeta = route.get('client.setting.cname.meta', '/client/setting/cname/meta', {
  summary: "What the operator's CNAME records are published with (CNAME domain, provider zone, TTL, lines)",
  response: dataOf(cnameMetaSchema),
});

export const dnsCnameRoutes = { listDnsCnames, setDnsCnames, getCnameMeta } as const;
