import { dnsLineRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { routeQuery } from '../../../app/route-query';
import { useLocale } from '../../../i18n/use-locale';

/**
 * The DNS line catalogue, named by the server in the interface language (the client sends it as
 * Accept-Language); the language is part of the key so that switching it fetches the names again.
 */
export function useDnsLines() {
  const [locale] = useLocale();
  const base = routeQuery('client', dnsLineRoutes.listDnsLines, {});
  const query = useQuery({ ...base, queryKey: [...base.queryKey, locale], staleTime: Number.POSITIVE_INFINITY });
  const lines = query.data?.data ?? [];
  return { lines, nameOf: (id: string) => lines.find((line) => line.id === id)?.name ?? id };
}
