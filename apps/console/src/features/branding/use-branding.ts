import { type LogoInfo, systemRoutes, type Tier } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';

export const OPERATOR_STORAGE_KEY = 'rampart.operator';

/**
 * The operator whose branding the login pages show: `?operator=` of the current address (an
 * operator hands out `/user/login?operator=acme`), remembered in the browser for later visits.
 * `undefined`: none known, the server answers the installation's first operator.
 */
export function brandingOperator(): string | undefined {
  const named = new URLSearchParams(globalThis.location?.search ?? '').get('operator')?.trim();
  try {
    if (named) globalThis.localStorage?.setItem(OPERATOR_STORAGE_KEY, named);
    return named || globalThis.localStorage?.getItem(OPERATOR_STORAGE_KEY) || undefined;
  } catch {
    return named || undefined; // storage refused (private mode): this visit only
  }
}

/** A console's branding (`GET {auth}/logo`, no token); images are '' when unset. */
export type Branding = LogoInfo;

/**
 * The branding of a console with the defaults of spec part 1 §1 filled in: when the operator set
 * none (or it cannot be loaded), the product name is the title, a default copyright is shown and
 * every image is empty.
 */
export function useBranding(tier: Tier): Branding {
  const { t } = useTranslation();
  const operator = brandingOperator();
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
