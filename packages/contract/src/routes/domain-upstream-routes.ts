import { z } from 'zod';
import { dataOf, defineRoute, okReply, tiers } from '../route.js';
import { zIds } from '../validators/ids.js';
import {
  base,
  DOMAINS_PER_REQUEST_MAX,
  domainUpstreamRequests,
  idList,
  upstreamList,
  upstreamSchema,
  zUpstreamIP,
} from './domain-schemas.js';
import { siteParams } from './sites.js';

// The routes on a domain's upstreams (domains.ts lists every domain route).
export const listUpstreams = defineRoute({
  id: 'user.domain.upstreams.list',
  method: 'GET',
  path: `${base}/domain/{domainId}/upstreams`,
  access: tiers(['user'], 'user.domains.read'),
  codes: [],
  summary: "A domain's upstreams",
  tags: ['domains'],
  request: domainUpstreamRequests.list,
  response: dataOf(z.array(upstreamSchema)),
});

export const addUpstreams = defineRoute({
  id: 'user.domain.upstreams.add',
  method: 'POST',
  path: `${base}/domain/{domainId}/upstreams`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [101029, 401008],
  summary: 'Adds upstreams to a domain',
  tags: ['domains'],
  request: domainUpstreamRequests.add,
  response: dataOf(z.array(upstreamSchema)),
});

export const deleteUpstreams = defineRoute({
  id: 'user.domain.upstreams.delete',
  method: 'DELETE',
  path: `${base}/domain/{domainId}/upstreams`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [101029, 401008],
  summary: 'Deletes upstreams of a domain (401008 when no enabled one would remain)',
  tags: ['domains'],
  request: domainUpstreamRequests.delete,
  response: okReply,
});

export const updateUpstream = defineRoute({
  id: 'user.domain.upstream.update',
  method: 'PUT',
  path: `${base}/domain/{domainId}/upstream`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [101029, 401008],
  summary: 'Changes one upstream of a domain (401008 when no enabled one would remain)',
  tags: ['domains'],
  request: domainUpstreamRequests.update,
  response: dataOf(upstreamSchema),
});

export const modifyUpstreamIPs = defineRoute({
  id: 'user.domains.modifyUpstreamIPs',
  method: 'PUT',
  path: `${base}/domains/modifyUpstreamIPs`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [],
  summary:
    'Batch change of origin: every upstream with IP `oldIP` of the given domains (or all of the site when domainIDs is empty) gets `newIP`; answers how many changed',
  tags: ['domains'],
  request: {
    params: siteParams,
    body: z.object({
      domainIDs: zIds(DOMAINS_PER_REQUEST_MAX, 0).default([]),
      oldIP: zUpstreamIP,
      newIP: zUpstreamIP,
    }),
  },
  response: dataOf(z.object({ domains: z.number().int(), upstreams: z.number().int() })),
});

export const replaceDomainsUpstreams = defineRoute({
  id: 'user.domains.upstreams',
  method: 'PUT',
  path: `${base}/domains/upstreams`,
  access: tiers(['user'], 'user.domains.write'),
  codes: [401008],
  summary: 'Replaces the upstreams of several domains with one list (all or none; 401008 when none is enabled)',
  tags: ['domains'],
  request: { params: siteParams, body: z.object({ domainIDs: idList, upstreams: upstreamList }) },
  response: okReply,
});
