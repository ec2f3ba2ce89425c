import {
  DOMAIN_CNAME_STATUS,
  DOMAIN_PROOF_STATUS,
  DOMAIN_STATUS,
  domainCnameStatusSchema,
  domainRoutes,
  proofIsLive,
  type SiteDomain,
} from '@rampart/contract';
import { type ListSearch, urlQuery } from '../../../../features/lists/use-list-search';
import { ADVANCED_FILTER_KEYS } from './DomainAdvancedFilter';

/** URL keys of the domain list's search, filters and sort. */
export const DOMAIN_LIST_KEYS = [
  'keywords',
  'status',
  'forceSSL',
  'cnameStatus',
  'sortBy',
  'orderBy',
  ...ADVANCED_FILTER_KEYS,
] as const;
export type DomainSearch = ListSearch<(typeof DOMAIN_LIST_KEYS)[number]>;

export const CNAME_TAGS = {
  [DOMAIN_CNAME_STATUS.unchecked]: { color: 'default', key: 'unchecked' },
  [DOMAIN_CNAME_STATUS.verified]: { color: 'green', key: 'verified' },
  [DOMAIN_CNAME_STATUS.notPointing]: { color: 'orange', key: 'notPointing' },
} as const;

/**
 * Where a domain stands for the edge, from what the control plane holds: switched off, waiting for
 * proof of control, claimed by another customer, or served (enabled and proved, or proof waived:
 * it is in the configuration the nodes are sent). The CNAME target plays no part: a placeholder
 * target does not stop the edge serving a domain. Origin health is not measured, so there is no
 * "origin down" state.
 */
export type DomainServing = 'served' | 'waiting' | 'lost' | 'disabled';

export const SERVING_TAGS = {
  served: 'green',
  waiting: 'orange',
  lost: 'red',
  disabled: 'default',
} as const satisfies Record<DomainServing, string>;

export function domainServing(domain: Pick<SiteDomain, 'status' | 'proofStatus'>): DomainServing {
  if (domain.status !== DOMAIN_STATUS.enabled) return 'disabled';
  if (proofIsLive(domain.proofStatus)) return 'served';
  return domain.proofStatus === DOMAIN_PROOF_STATUS.lost ? 'lost' : 'waiting';
}

/** The list call's query from the URL; a value the server would refuse is left out. */
export function domainListQuery(search: DomainSearch) {
  const cnameStatus = domainCnameStatusSchema.safeParse(Number(search.filters.cnameStatus ?? 'x'));
  return {
    page: search.page,
    pageSize: search.pageSize,
    ...urlQuery(domainRoutes.listDomains.request.query, search, [
      'keywords',
      'status',
      'forceSSL',
      'sortBy',
      'orderBy',
      ...ADVANCED_FILTER_KEYS,
    ]),
    // One CNAME state in the URL, a list of them in the query.
    cnameStatuses: cnameStatus.success ? [cnameStatus.data] : undefined,
  };
}

/** The dialog the domain list has open: the form, a batch change on chosen ids, or a by-names dialog. */
export type DomainDialog =
  | { kind: 'edit'; domain: SiteDomain | 'new' }
  | { kind: 'tags' | 'copy' | 'upstreamIP'; ids: number[] }
  | { kind: 'simple' | 'from' | 'delete' }
  | { kind: 'access'; domain: SiteDomain };
