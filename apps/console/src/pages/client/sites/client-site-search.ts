import { SITE_ACCOUNT_STATUSES } from '@rampart/contract';
import { idFilter, type ListSearch, oneOf, useListSearch } from '../../../features/lists/use-list-search';

const KEYS = ['siteName', 'status', 'productID', 'siteID', 'userID', 'tags', 'expired', 'forceBackup'] as const;
export type ClientSiteFilterKey = (typeof KEYS)[number];
const BOOLEANS = ['true', 'false'] as const;

/**
 * Page and filters of the operator's site list from the URL (`?tags=a&tags=b` for several tags),
 * and the `GET client/sites` query they make; "all" choices are left out.
 */
export function useClientSiteSearch() {
  const search: ListSearch<ClientSiteFilterKey> = useListSearch(KEYS);
  const tags = search.all('tags');
  return {
    search,
    query: {
      page: search.page,
      pageSize: search.pageSize,
      siteName: search.filters.siteName,
      status: oneOf(search.filters.status, SITE_ACCOUNT_STATUSES),
      productID: idFilter(search.filters.productID),
      siteID: idFilter(search.filters.siteID),
      userID: idFilter(search.filters.userID),
      tags: tags.length > 0 ? tags : undefined,
      expired: oneOf(search.filters.expired, BOOLEANS),
      forceBackup: oneOf(search.filters.forceBackup, BOOLEANS),
    },
  };
}
