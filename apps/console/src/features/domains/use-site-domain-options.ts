import { domainRoutes, PAGE_SIZE_MAX, type RouteReply } from '@rampart/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { routeQuery } from '../../app/route-query';

/** A domain of the site's list, as `user/site/{siteId}/domains` answers it. */
export type SiteDomain = RouteReply<typeof domainRoutes.listDomains>['data'][number];

/**
 * Options of a "pick domains of this site" select: the site's domains searched by name on the
 * server (`onSearch`), each labelled by `label` (e.g. with what it is bound to now). Domains
 * already chosen keep their label while a later search leaves them out of the page.
 */
export function useSiteDomainOptions({
  siteId,
  enabled,
  chosen,
  label,
}: {
  siteId: number;
  enabled: boolean;
  chosen: readonly number[];
  label: (domain: SiteDomain) => string;
}) {
  const [keywords, setKeywords] = useState('');
  const labels = useRef(new Map<number, string>()).current;
  const domains = useQuery({
    ...routeQuery('user', domainRoutes.listDomains, {
      params: { siteId },
      query: {
        page: 1,
        pageSize: PAGE_SIZE_MAX,
        keywords: keywords === '' ? undefined : keywords,
        sortBy: 'name',
        orderBy: 'asc',
      },
    }),
    enabled,
    placeholderData: keepPreviousData,
  });
  for (const domain of domains.data?.data ?? []) labels.set(domain.id, label(domain));
  const listed = new Set((domains.data?.data ?? []).map((domain) => domain.id));
  const options = [...listed, ...chosen.filter((id) => !listed.has(id))].map((id) => ({
    value: id,
    label: labels.get(id) ?? `#${id}`,
  }));
  return { options, loading: domains.isFetching, onSearch: (text: string) => setKeywords(text.trim()) };
}
