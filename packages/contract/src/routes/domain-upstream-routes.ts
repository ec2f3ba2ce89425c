import { z } from 'zod';
import { dataOf, okReply, tiers } from '../route.js';
import { routeFamily } from '../route-family.js';
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

const route = routeFamily({
  tags: ['domains'],
  read: tiers(['user'], 'user.domains.read'),
  write: tiers(['user'], 'user.domains.write'),
  params: siteParams,
});

// The routes on a domain's upstreams (domains.ts lists every domain route).
export const listUpstreams = route.get('user.domain.upstreams.list', `${base}/domain/{domainId}/upstreams`, {
  summary: "A domain's upstreams",
  ...domainUpstreamRequests.list,
  response: dataOf(z.array(upstreamSchema)),
});

export const addUpstreams = route.post('user.domain.upstreams.add', `${base}/domain/{domainId}/upstreams`, {
  codes: [101029, 401008],
  summary: 'Adds upstreams to a domain',
  ...domainUpstreamRequests.add,
  response: dataOf(z.array(upstreamSchema)),
});

export const deleteUpstreams = route.delete('user.domain.upstreams.delete', `${base}/domain/{domainId}/upstreams`, {
  codes: [101029, 401008],
  summary: 'Deletes upstreams of a domain (401008 when no enabled one would remain)',
  ...domainUpstreamRequests.delete,
  response: okReply,
});

export const updateUpstream = route.put('user.domain.upstream.update', `${base}/domain/{domainId}/upstream`, {
  codes: [101029, 401008],
  summary: 'Changes one upstream of a domain (401008 when no enabled one would remain)',
  ...domainUpstreamRequests.update,
  response: dataOf(upstreamSchema),
});

export const modifyUpstreamIPs = route.put('user.domains.modifyUpstreamIPs', `${base}/domains/modifyUpstreamIPs`, {
  summary:
    'Batch change of origin: every upstream with IP `oldIP` of the given domains (or all of the site when domainIDs is empty) gets `newIP`; answers how many changed',
  body: z.object({
    domainIDs: zIds(DOMAINS_PER_REQUEST_MAX, 0).default([]),
    oldIP: zUpstreamIP,
    newIP: zUpstreamIP,
  }),
  response: dataOf(z.object({ domains: z.number().int(), upstreams: z.number().int() })),
});

export const replaceDomainsUpstreams = route.put('user.domains.upstreams', `${base}/domains/upstreams`, {
  codes: [401008],
  summary: 'Replaces the upstreams of several domains with one list (all or none; 401008 when none is enabled)',
  body: z.object({ domainIDs: idList, upstreams: upstreamList }),
  response: okReply,
});
