import {
  clientDomainTags,
  metaClientDomains,
  metaSites,
  metaUserSites,
  metaZones,
  userDomainsMeta,
  userDomainsTags,
} from '@rampart/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { canAll, useAccount } from '../../app/account-context';
import { routeQuery } from '../../app/route-query';
import type { StatisticsTier } from './statistics-routes';

type Option = { value: number; label: string };

/** The caller's sites (the operator's: of the chosen customer, or all), for the sites filter. */
export function useSiteOptions(tier: StatisticsTier, userID: number | undefined) {
  const self = useAccount();
  const user = useQuery({
    ...routeQuery('user', metaUserSites, {}),
    enabled: tier === 'user' && canAll(self, ['user.sites.read']),
  });
  const client = useQuery({
    ...routeQuery('client', metaSites, { query: { userID } }),
    enabled: tier === 'client' && canAll(self, ['client.sites.read']),
  });
  const sites = tier === 'user' ? user : client;
  const options: Option[] = (sites.data?.data ?? []).map((site) => ({ value: site.id, label: site.name }));
  return { options, loading: sites.isFetching, allowed: canAll(self, [`${tier}.sites.read`]) };
}

/**
 * Domains of the chosen sites (or all) for the domains filter, searched by name on the server;
 * chosen domains keep their label while a later search leaves them out.
 */
export function useDomainOptions(tier: StatisticsTier, siteIDs: readonly number[], chosen: readonly number[]) {
  const self = useAccount();
  const [name, setName] = useState('');
  const labels = useRef(new Map<number, string>()).current;
  const body = { siteIDs: [...siteIDs], name };
  const user = useQuery({
    ...routeQuery('user', userDomainsMeta, { body }),
    enabled: tier === 'user' && canAll(self, ['user.domains.read']),
    placeholderData: keepPreviousData,
  });
  const client = useQuery({
    ...routeQuery('client', metaClientDomains, { body }),
    enabled: tier === 'client' && canAll(self, ['client.domains.read']),
    placeholderData: keepPreviousData,
  });
  const domains = tier === 'user' ? user : client;
  for (const domain of domains.data?.data ?? []) labels.set(domain.id, domain.name);
  const listed = (domains.data?.data ?? []).map((domain) => domain.id);
  const options: Option[] = [...listed, ...chosen.filter((id) => !listed.includes(id))].map((id) => ({
    value: id,
    label: labels.get(id) ?? `#${id}`,
  }));
  return {
    options,
    loading: domains.isFetching,
    onSearch: (text: string) => setName(text.trim()),
    allowed: canAll(self, [`${tier}.domains.read`]),
  };
}

/**
 * The tags the domains of the chosen sites (or all) carry, for the domain-tag filter (asked for
 * only when `shown`).
 */
export function useDomainTagOptions(tier: StatisticsTier, siteIDs: readonly number[], shown: boolean) {
  const self = useAccount();
  const allowed = canAll(self, [`${tier}.domains.read`]);
  const user = useQuery({
    ...routeQuery('user', userDomainsTags, { body: { siteIDs: [...siteIDs] } }),
    enabled: shown && tier === 'user' && allowed,
  });
  const client = useQuery({
    ...routeQuery('client', clientDomainTags, {}),
    enabled: shown && tier === 'client' && allowed,
  });
  const tags = tier === 'user' ? user : client;
  const options = (tags.data?.data ?? []).map((tag) => ({ value: tag, label: tag }));
  return { options, loading: tags.isFetching, allowed };
}

/** The operator's zones, for its zones filter. */
export function useZoneOptions(tier: StatisticsTier) {
  const self = useAccount();
  const allowed = tier === 'client' && canAll(self, ['client.zones.read']);
  const zones = useQuery({ ...routeQuery('client', metaZones, {}), enabled: allowed });
  const options: Option[] = (zones.data?.data ?? []).map((zone) => ({ value: zone.id, label: zone.name }));
  return { options, loading: zones.isFetching, allowed };
}
