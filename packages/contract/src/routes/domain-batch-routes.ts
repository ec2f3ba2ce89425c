import { z } from 'zod';
import { domainStatusSchema } from '../enums.js';
import { dataOf, okReply, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
import { zId, zIds } from '../validators/ids.js';
import { zDomainName } from '../validators/zod.js';
import { base, DOMAIN_TAGS_MAX, domainNames, domainSchema, idList } from './domain-schemas.js';
import { siteParams, siteTagSchema } from './sites.js';

const route = routeFamily({
  tags: ['domains'],
  read: tiers(['user'], 'user.domains.read'),
  write: tiers(['user'], 'user.domains.write'),
  params: siteParams,
});

// Settings, tags, copies and the export over many domains of a site at once (domains.ts lists every domain route).
export const domainSettings = route.get('user.domain.settings', `${base}/domain/settings`, {
  summary: 'One domain of the site with all its settings, by exact name (101018 when the site has none of that name)',
  query: z.object({ domainName: zDomainName({ wildcard: true }) }),
  response: dataOf(domainSchema),
});

export const setDomainsTags = route.put('user.domains.tags', `${base}/domain/setting/tags`, {
  summary: 'Replaces the tags of domains (all or none)',
  body: z.object({ domainIDs: idList, tags: z.array(siteTagSchema).max(DOMAIN_TAGS_MAX) }),
  response: okReply,
});

export const copyDomainsToSite = route.post('user.domains.copyToSite', `${base}/domains/copyToSite`, {
  codes: [101009, 101019, 101025, 301001, 401001, 401002, 401003, 401004, 401008],
  summary:
    "Copies domains with their upstreams and settings to another of the customer's sites, disabled (an enabled name is unique); no certificate (it belongs to the source site); 101009 per name taken there",
  body: z.object({ domainIDs: idList, siteID: zId }),
  response: dataOf(z.array(domainSchema)),
});

export const createDomainsFrom = route.post('user.domains.createFrom', `${base}/domains/createFrom`, {
  codes: [101009, 101019, 101025, 301001, 401001, 401002, 401003, 401004, 401008],
  summary:
    'Adds domains by name to the site with the upstreams and settings of one of its domains (tags included, certificate only where it covers the name); 101009 per name',
  body: z.object({ domainID: zId, names: domainNames, status: domainStatusSchema.default(1) }),
  response: dataOf(z.array(domainSchema)),
});

export const EXPORT_DOMAIN_COLUMNS = [
  'name',
  'status',
  'scheme',
  'hashType',
  'hostName',
  'forceSSL',
  'autoSSL',
  'portMap',
  'cname',
  'cnameStatus',
  'certificateName',
  'tags',
  'upstreams',
  'createdAt',
  'updatedAt',
] as const;

export const exportDomains = route.post('user.domains.export', `${base}/domains/export`, {
  access: tiers(['user'], 'user.domains.read'),
  summary:
    'The given domains (or every domain of the site when ids is empty) as a CSV file; its name is in the Content-Disposition header',
  body: z.object({ ids: zIds(10_000, 0).default([]) }),
  response: z.string(),
  reply: 'raw',
});
