import { z } from 'zod';
import { domainStatusSchema } from '../enums.js';
import { dataOf, defineRoute, okReply, tiers } from '../route.js';
import { zId, zIds } from '../validators/ids.js';
import { zDomainName } from '../validators/zod.js';
import { base, DOMAIN_TAGS_MAX, domainNames, domainSchema, idList } from './domain-schemas.js';
import { siteParams, siteTagSchema } from './sites.js';

// Settings, tags, copies and the export over many domains of a site at once (domains.ts lists every domain route).
export const domainSettings = defineRoute({
  id: 'user.domain.settings',
  method: 'GET',
  path: `${base}/domain/settings`,
  access: tiers(['user'], 'user.domains.read'),
  codes: [],
  summary: 'One domain of the site with all its settings, by exact name (101018 when the site has none of that name)',
  tags: ['domains'],
  request: { params: siteParams, query: z.object({ domainName: zDomainName({ wildcard: true }) }) },
  response: dataOf(domainSchema),
});

export const setDomainsTags = defineRoute({
  id: 'user.domains.tags',
  method: 'PUT',
  path: `${base}/domain/setting/tags`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [],
  summary: 'Replaces the tags of domains (all or none)',
  tags: ['domains'],
  request: {
    params: siteParams,
    body: z.object({ domainIDs: idList, tags: z.array(siteTagSchema).max(DOMAIN_TAGS_MAX) }),
  },
  response: okReply,
});

export const copyDomainsToSite = defineRoute({
  id: 'user.domains.copyToSite',
  method: 'POST',
  path: `${base}/domains/copyToSite`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [101009, 101019, 101025, 301001, 401001, 401002, 401003, 401004, 401008],
  summary:
    "Copies domains with their upstreams and settings to another of the customer's sites, disabled (an enabled name is unique); no certificate (it belongs to the source site); 101009 per name taken there",
  tags: ['domains'],
  request: { params: siteParams, body: z.object({ domainIDs: idList, siteID: zId }) },
  response: dataOf(z.array(domainSchema)),
});

export const createDomainsFrom = defineRoute({
  id: 'user.domains.createFrom',
  method: 'POST',
  path: `${base}/domains/createFrom`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [101009, 101019, 101025, 301001, 401001, 401002, 401003, 401004, 401008],
  summary:
    'Adds domains by name to the site with the upstreams and settings of one of its domains (tags included, certificate only where it covers the name); 101009 per name',
  tags: ['domains'],
  request: {
    params: siteParams,
    body: z.object({ domainID: zId, names: domainNames, status: domainStatusSchema.default(1) }),
  },
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

export const exportDomains = defineRoute({
  id: 'user.domains.export',
  method: 'POST',
  path: `${base}/domains/export`,
  access: tiers(['user'], 'user.domains.read'),
  codes: [],
  summary:
    'The given domains (or every domain of the site when ids is empty) as a CSV file; its name is in the Content-Disposition header',
  tags: ['domains'],
  request: { params: siteParams, body: z.object({ ids: zIds(10_000, 0).default([]) }) },
  response: z.string(),
  reply: 'raw',
});
