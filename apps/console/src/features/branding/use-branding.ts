import { type LogoInfo, systemRoutes, type Tier } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/client';

/** A console's branding (`GET {auth}/logo`, no token); images are '' when unset. */
export type Branding = LogoInfo;

/**
 * The branding of a console with the defaults of spec part 1 §1 filled in: when the operator set
 * none (or it cannot be loaded), the product name is the title, a default copyright is shown and
 * every image is empty.
 */
export function useBranding(tier: Tier): Branding {
  const { t } = useTranslation();
  const { data } = useQuery({
    queryKey: ['logo', tier],
    queryFn: async ({ signal }) => (await callApi(systemRoutes.logo, { params: { auth: tier } }, { signal })).data,
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
