import { SITE_ACCOUNT_STATUS_LABELS, SITE_ACCOUNT_STATUSES } from '@rampart/contract';
import { Flex } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localized } from '../../app/toast';
import { ChoiceFilter } from '../../components/ChoiceFilter';
import { SearchBox } from '../../components/SearchBox';
import type { ListSearch } from '../lists/use-list-search';
import type { SiteFilterKey } from './site-list-search';

/** Name search and status choice of a site list; `children` adds more (the product filter). */
export function SiteFilters({ search, children }: { search: ListSearch<SiteFilterKey>; children?: ReactNode }) {
  const { t } = useTranslation('sites');
  return (
    <Flex gap="small" wrap style={{ marginBottom: 16 }}>
      <SearchBox
        label={t('filters.name')}
        value={search.filters.siteName}
        onSearch={(text) => search.setFilters({ siteName: text })}
      />
      <ChoiceFilter
        label={t('filters.status')}
        value={search.filters.status}
        allLabel={t('filters.allStatuses')}
        options={SITE_ACCOUNT_STATUSES.map((status) => ({
          value: status,
          label: localized(SITE_ACCOUNT_STATUS_LABELS[status]),
        }))}
        onChange={(status) => search.setFilters({ status })}
      />
      {children}
    </Flex>
  );
}
