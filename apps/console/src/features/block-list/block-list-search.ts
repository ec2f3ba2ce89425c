import { blockedIpSchema, blockListRoutes, type Locale, type ValidationKey } from '@rampart/contract';
import { issueKey, validationText } from '../../forms/validation-text';
import { type ListSearch, urlQuery, useListSearch } from '../lists/use-list-search';

/** The filters (and sort) of a block list in the URL; `zoneID` and `userID` are the operator's. */
export const BLOCK_LIST_KEYS = ['siteID', 'ips', 'causes', 'zoneID', 'userID', 'sortBy', 'orderBy'] as const;
export type BlockListKey = (typeof BLOCK_LIST_KEYS)[number];

const USER_KEYS = ['siteID', 'ips', 'causes', 'sortBy', 'orderBy'] as const satisfies readonly BlockListKey[];

/** Most addresses one filter names (the query's `ips` list bound). */
export const IP_FILTER_MAX = 100;

/**
 * Page, filters and sort of a block list from the URL, and the query they make: each value read
 * with the list route's query schema (an address or cause the server would refuse is left out).
 * The customer's list takes neither a customer nor a zone.
 */
export function useBlockListSearch(tier: 'user' | 'client') {
  const search: ListSearch<BlockListKey> = useListSearch(BLOCK_LIST_KEYS);
  const keys = tier === 'user' ? USER_KEYS : BLOCK_LIST_KEYS;
  const query = {
    page: search.page,
    pageSize: search.pageSize,
    ...urlQuery(blockListRoutes.listClientBlockedIps.request.query, search, keys),
  };
  return { search, query };
}

/** Why the IP filter is not sent: the address refused (none when there are too many) and the contract's reason. */
export interface IpFilterError {
  ip?: string;
  key: ValidationKey;
  message: string;
}

/**
 * The addresses typed into the IP filter (separated by commas or spaces): the list, or the first
 * one the contract's `blockedIpSchema` refuses with the reason, or too many.
 */
export function parseIpFilter(
  text: string,
  locale: Locale,
): { ips: string[]; error?: undefined } | { ips?: undefined; error: IpFilterError } {
  const ips = [...new Set(text.split(/[\s,;]+/).filter((ip) => ip !== ''))];
  for (const ip of ips) {
    const parsed = blockedIpSchema.safeParse(ip);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const { key, params } = issue ? issueKey(issue, ip) : { key: 'wrongFormat' as const, params: undefined };
      return { error: { ip, key, message: validationText(key, locale, params) } };
    }
  }
  if (ips.length > IP_FILTER_MAX) {
    return { error: { key: 'tooMany', message: validationText('tooMany', locale, { max: IP_FILTER_MAX }) } };
  }
  return { ips };
}
