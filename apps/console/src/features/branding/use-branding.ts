import { type LogoInfo, systemRoutes, type Tier } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';
import { useSelf } from '../../session';

export const OPERATOR_STORAGE_KEY = 'rampart.operator';

/**
 * The operator whose branding the login pages show: `?operator=` of the current address (an
 * operator hands out `/user/login?operator=acme`), remembered in the browser for later visits.
 * `undefined`: none known, the server answers the installation's first operator.
 */
export function brandingOperator(signedInAs?: string | null): string | undefined {
  const named = signedInAs || new URLSearchParams(globalThis.location?.search ?? '').get('operator')?.trim();
  if (named) rememberOperator(named);
  try {
    return named || globalThis.localStorage?.getItem(OPERATOR_STORAGE_KEY) || undefined;
  } catch {
    return named || undefined; // storage refused (private mode): this visit only
  }
}

/** Remembers the operator a link named (a login link, a create-password mail) for this browser. */
export function rememberOperator(name: string): void {
  try {
    globalThis.localStorage?.setItem(OPERATOR_STORAGE_KEY, name);
  } catch {
    // storage refused (private mode): nothing to remember
  }
}

/** A console's branding (`GET {auth}/logo`, no token); images are '' when unset. */
export type Branding = LogoInfo;

/**
 * Signed in, the branding is that of the account's own operator (self information `operator`),
 * whatever login link was used before; it is remembered, so the login page after a logout shows it
 * too. Signed out, the operator named by the address or remembered.
 *
 * The branding of a console with the defaults of spec part 1 §1 filled in: when the operator set
 * none (or it cannot be loaded), the product name is the title, a default copyright is shown and
 * every image is empty.
 */
export function useBranding(tier: Tier): Branding {
  const { t } = useTranslation();
  const self = useSelf(tier);
  const operator = brandingOperator(self?.operator);
  const { data } = useQuery({
    queryKey: ['logo', tier, operator],
    queryFn: async ({ signal }) =>
      (await callApi(systemRoutes.logo, { params: { auth: tier }, query: { operator } }, { signal })).data,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return {
    backgroundImage: data?.backgroundImage ?? '',
    favicon: data?.favicon ?? '',
    logo: data?.logo ?? '',
    sidebarLogo: data?.sidebarLogo ?? '',
    sidebarSimpleLogo: data?.sidebarSimpleLogo ?? '',
    version: data?.version ?? '',
    subTitle: data?.subTitle ?? '',
    description: data?.description ?? '',
    title: data?.title || t('productName'),
    copyright: data?.copyright || t('defaultCopyright'),
  };
}
