import { siteRoutes } from '@rampart/contract';
import { type ListSearch, urlQuery, useListSearch } from '../../../features/lists/use-list-search';
import { SITE_FILTER_KEYS, siteListQuery } from '../../../features/sites/site-list-search';

const MORE_KEYS = ['siteID', 'userID', 'tags', 'expired', 'forceBackup'] as const;
const KEYS = [...SITE_FILTER_KEYS, ...MORE_KEYS] as const;
export type ClientSiteFilterKey = (typeof KEYS)[number];

/**
 * Page and filters of the operator's site list from the URL (`?tags=a&tags=b` for several tags):
 * the filters every site list has, plus id, customer, tags, expiry and force-backup, each read with
 * the list route's query schema.
 */
export function useClientSiteSearch() {
  const search: ListSearch<ClientSiteFilterKey> = useListSearch(KEYS);
  return {
    search,
    query: { ...siteListQuery(search), ...urlQuery(siteRoutes.listClientSites.request.query, search, MORE_KEYS) },
  };
}
