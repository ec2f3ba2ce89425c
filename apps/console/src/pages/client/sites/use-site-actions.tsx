import {
  clientSiteRoutes,
  type OperatorSite,
  SITE_ACCOUNT_STATUS_LABELS,
  type SiteAccountStatus,
  siteRoutes,
} from '@rampart/contract';
import type { MenuProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { useRouteMutation } from '../../../app/route-query';
import { localized, toast, toastText } from '../../../app/toast';
import { FORM_ACTIONS, type FormAction } from './SiteActionModal';

/** The statuses an operator sets by hand: 'limit' is put on by traffic quotas (205002 otherwise). */
const SETTABLE_STATUSES: readonly SiteAccountStatus[] = ['normal', 'pause'];

/**
 * The actions on chosen sites, as one menu for a row ("More") and for the selection ("Actions"):
 * status and refresh run at once, the others open {@link SiteActionModal} with `open`.
 */
export function useSiteActions() {
  const { t } = useTranslation('siteActions');
  const [open, setOpen] = useState<{ action: FormAction; sites: OperatorSite[] } | null>(null);
  const setStatus = useRouteMutation('client', siteRoutes.setSitesStatus, {
    input: (body: { ids: number[]; status: SiteAccountStatus }) => ({ body }),
    invalidates: changes('sites'),
    success: () => toastText('setSuccess'),
  });
  const refresh = useRouteMutation('client', clientSiteRoutes.refreshSitesProduct, {
    input: (ids: number[]) => ({ body: { ids } }),
    invalidates: changes('sites'),
    onSuccess: (reply) => {
      const names = [...new Set(reply.data.flatMap((site) => site.groups.map((group) => group.name)))];
      toast.success(t('refreshed', { groups: names.length > 0 ? names.join(', ') : t('noGroups') }));
    },
  });

  const menu = (sites: OperatorSite[]): MenuProps => ({
    items: [
      {
        type: 'group' as const,
        key: 'status',
        label: t('status'),
        children: SETTABLE_STATUSES.map((status) => ({
          key: `status:${status}`,
          label: localized(SITE_ACCOUNT_STATUS_LABELS[status]),
        })),
      },
      ...FORM_ACTIONS.map((action) => ({ key: action, label: t(action) })),
      { key: 'refresh', label: t('refresh') },
    ],
    onClick: ({ key }) => {
      const ids = sites.map((site) => site.siteID);
      if (key.startsWith('status:')) setStatus.mutate({ ids, status: key.slice(7) as SiteAccountStatus });
      else if (key === 'refresh') refresh.mutate(ids);
      else setOpen({ action: key as FormAction, sites });
    },
  });

  return { menu, open, close: () => setOpen(null), pending: setStatus.isPending || refresh.isPending };
}
