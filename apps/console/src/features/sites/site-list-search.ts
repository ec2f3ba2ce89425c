import { SITE_ACCOUNT_STATUSES } from '@rampart/contract';
import { idFilter, type ListSearch, oneOf, useListSearch } from '../lists/use-list-search';

export const SITE_FILTER_KEYS = ['siteName', 'status', 'productID'] as const;
export type SiteFilterKey = (typeof SITE_FILTER_KEYS)[number];

/**
 * The query of the filters every site list has (`client/sites`, `user/sites`): the status is left
 * out when it is "all" (the spec's -1), as is an empty name.
 */
export function siteListQuery(search: ListSearch<SiteFilterKey>): SiteListQuery {
  return {
    page: search.page,
    pageSize: search.pageSize,
    siteName: search.filters.siteName,
    status: oneOf(search.filters.status, SITE_ACCOUNT_STATUSES),
    productID: idFilter(search.filters.productID),
  };
}

/** Page and filters of a site list from the URL, and the query they make; `more` are further filter keys. */
export function useSiteListSearch<K extends string = never>(
  more: readonly K[] = [],
): { search: ListSearch<SiteFilterKey | K>; query: SiteListQuery } {
  const search = useListSearch([...SITE_FILTER_KEYS, ...more] as const);
  return { search, query: siteListQuery(search) };
}

export interface SiteListQuery {
  page: number;
  pageSize: number;
  siteName?: string | undefined;
  status?: (typeof SITE_ACCOUNT_STATUSES)[number] | undefined;
  productID?: number | undefined;
}
