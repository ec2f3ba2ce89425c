import { idFilter, type ListSearch, oneOf, useListSearch } from '../../../features/lists/use-list-search';
import { SITE_FILTER_KEYS, siteListQuery } from '../../../features/sites/site-list-search';

const KEYS = [...SITE_FILTER_KEYS, 'siteID', 'userID', 'tags', 'expired', 'forceBackup'] as const;
export type ClientSiteFilterKey = (typeof KEYS)[number];
const BOOLEANS = ['true', 'false'] as const;

/**
 * Page and filters of the operator's site list from the URL (`?tags=a&tags=b` for several tags):
 * the filters every site list has, plus id, customer, tags, expiry and force-backup.
 */
export function useClientSiteSearch() {
  const search: ListSearch<ClientSiteFilterKey> = useListSearch(KEYS);
  const tags = search.all('tags');
  return {
    search,
    query: {
      ...siteListQuery(search),
      siteID: idFilter(search.filters.siteID),
      userID: idFilter(search.filters.userID),
      tags: tags.length > 0 ? tags : undefined,
      expired: oneOf(search.filters.expired, BOOLEANS),
      forceBackup: oneOf(search.filters.forceBackup, BOOLEANS),
    },
  };
}
