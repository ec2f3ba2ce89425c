import { SITE_ACCOUNT_STATUSES } from '@rampart/contract';
import { idFilter, type ListSearch, oneOf, useListSearch } from '../lists/use-list-search';

const KEYS = ['siteName', 'status', 'productID'] as const;
export type SiteFilterKey = (typeof KEYS)[number];

/**
 * Page and filters of a site list (`client/sites`, `user/sites`) from the URL, and the query they
 * make: the status is left out when it is "all" (the spec's -1), as is an empty name.
 */
export function useSiteListSearch(): { search: ListSearch<SiteFilterKey>; query: SiteListQuery } {
  const search = useListSearch(KEYS);
  return {
    search,
    query: {
      page: search.page,
      pageSize: search.pageSize,
      siteName: search.filters.siteName,
      status: oneOf(search.filters.status, SITE_ACCOUNT_STATUSES),
      productID: idFilter(search.filters.productID),
    },
  };
}

export interface SiteListQuery {
  page: number;
  pageSize: number;
  siteName?: string | undefined;
  status?: (typeof SITE_ACCOUNT_STATUSES)[number] | undefined;
  productID?: number | undefined;
}
