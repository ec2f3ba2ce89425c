import { SITE_PORTS_MAX, sitePortRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { routeQuery } from '../../../../app/route-query';

/** A port as a layer-4 rule names it: its number and protocol ("8080/TCP"). */
export function portLabel(port: number, protocol: string): string {
  return `${port}/${protocol.toUpperCase()}`;
}

/**
 * Every port of the site (at most SITE_PORTS_MAX: one page), for the port a layer-4 rule names and
 * for the firewall tab's "no ports yet".
 */
export function useSitePorts(siteId: number) {
  return useQuery(
    routeQuery('user', sitePortRoutes.listSitePorts, {
      params: { siteId },
      query: { page: 1, pageSize: SITE_PORTS_MAX },
    }),
  );
}
