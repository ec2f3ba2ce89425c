import type { Site, SiteAccountStatus } from '@rampart/contract';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../components/DateTime';
import type { ListColumns } from '../../components/FitTable';
import { TagList } from '../../components/TagList';
import { SiteStatusTag } from './SiteStatusTag';

/** The columns both site lists (operator's and customer's) show: status, tags, expiry, creation (chosen). */
export function useSiteStateColumns<T extends Site = Site>(): ListColumns<T> {
  const { t } = useTranslation('sites');
  return [
    {
      title: t('status'),
      dataIndex: 'status',
      render: (status: SiteAccountStatus) => <SiteStatusTag status={status} />,
    },
    { title: t('tags'), dataIndex: 'tags', render: (tags: string[]) => <TagList items={tags} /> },
    { title: t('expiredAt'), dataIndex: 'expiredAt', render: (value: string | null) => <DateTime value={value} /> },
    {
      title: t('createdAt'),
      dataIndex: 'createdAt',
      defaultHidden: true,
      render: (value: string) => <DateTime value={value} />,
    },
  ];
}
