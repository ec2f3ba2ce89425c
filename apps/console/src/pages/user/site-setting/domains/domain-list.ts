import {
  DOMAIN_CNAME_STATUS,
  DOMAIN_SORT_FIELDS,
  domainCertStatusSchema,
  domainCnameStatusSchema,
  type SiteDomain,
} from '@rampart/contract';
import { type ListSearch, oneOf } from '../../../../features/lists/use-list-search';
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

/** The list call's query from the URL; a value the server would refuse is left out. */
export function domainListQuery(search: DomainSearch) {
  const { filters } = search;
  const tagFilter = search.all('tags');
  const certStatus = domainCertStatusSchema.safeParse(Number(filters.certStatus ?? 'x'));
  const cnameStatus = domainCnameStatusSchema.safeParse(Number(filters.cnameStatus ?? 'x'));
  return {
    page: search.page,
    pageSize: search.pageSize,
    keywords: filters.keywords,
    status: filters.status === '1' ? 1 : filters.status === '0' ? 0 : undefined,
    forceSSL: oneOf(filters.forceSSL, ['true', 'false'] as const),
    sortBy: oneOf(filters.sortBy, DOMAIN_SORT_FIELDS),
    orderBy: oneOf(filters.orderBy, ['asc', 'desc'] as const),
    tags: tagFilter.length > 0 ? tagFilter : undefined,
    certStatus: certStatus.success ? certStatus.data : undefined,
    cnameStatuses: cnameStatus.success ? [cnameStatus.data] : undefined,
    createdAtStart: filters.createdAtStart,
    createdAtEnd: filters.createdAtEnd,
    updatedAtStart: filters.updatedAtStart,
    updatedAtEnd: filters.updatedAtEnd,
  };
}

/** The dialog the domain list has open: the form, a batch change on chosen ids, or a by-names dialog. */
export type DomainDialog =
  | { kind: 'edit'; domain: SiteDomain | 'new' }
  | { kind: 'tags' | 'copy' | 'upstreamIP'; ids: number[] }
  | { kind: 'simple' | 'from' | 'delete' };
