import { siteRoutes } from '@rampart/contract';
import { type ListSearch, urlQuery, useListSearch } from '../lists/use-list-search';

export const SITE_FILTER_KEYS = ['siteName', 'status', 'productID'] as const;
export type SiteFilterKey = (typeof SITE_FILTER_KEYS)[number];

/**
 * The query of the filters every site list has (`client/sites`, `user/sites`), read with the list
 * route's query schema: the status is left out when it is "all" (the spec's -1), as is an empty name.
 */
export function siteListQuery(search: ListSearch<SiteFilterKey>) {
  return {
    page: search.page,
    pageSize: search.pageSize,
    ...urlQuery(siteRoutes.listUserSites.request.query, search, SITE_FILTER_KEYS),
  };
}

/** Page and filters of a site list from the URL, and the query they make; `more` are further filter keys. */
export function useSiteListSearch<K extends string = never>(more: readonly K[] = []) {
  const search: ListSearch<SiteFilterKey | K> = useListSearch([...SITE_FILTER_KEYS, ...more] as const);
  return { search, query: siteListQuery(search) };
}
