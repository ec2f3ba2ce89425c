import { Flex, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { SearchBox } from '../../../../components/SearchBox';
import { DomainAdvancedFilter } from './DomainAdvancedFilter';
import { CNAME_TAGS, type DomainSearch } from './domain-list';

const ALL = 'all';

/** The domain list's keyword search, status / HTTPS / CNAME selects and the advanced filter, all kept in the URL. */
export function DomainFilters({ siteId, search }: { siteId: number; search: DomainSearch }) {
  const { t } = useTranslation(['domains', 'common']);
  const { filters } = search;
  return (
    <Flex gap="small" wrap style={{ marginBottom: 16 }}>
      <SearchBox
        label={t('filters.keywords')}
        value={filters.keywords}
        onSearch={(text) => search.setFilters({ keywords: text })}
      />
      <Select
        style={{ width: 160 }}
        aria-label={t('filters.status')}
        value={filters.status ?? ALL}
        options={[
          { value: ALL, label: t('filters.allStatuses') },
          { value: '1', label: t('enabled') },
          { value: '0', label: t('disabled') },
        ]}
        onChange={(value: string) => search.setFilters({ status: value === ALL ? undefined : value })}
      />
      <Select
        style={{ width: 180 }}
        aria-label={t('forceSSL')}
        value={filters.forceSSL ?? ALL}
        options={[
          { value: ALL, label: t('filters.forceSSLAll') },
          { value: 'true', label: t('filters.forceSSLOn') },
          { value: 'false', label: t('filters.forceSSLOff') },
        ]}
        onChange={(value: string) => search.setFilters({ forceSSL: value === ALL ? undefined : value })}
      />
      <Select
        style={{ width: 180 }}
        aria-label={t('cname')}
        value={filters.cnameStatus ?? ALL}
        options={[
          { value: ALL, label: t('filters.cnameAll') },
          ...Object.entries(CNAME_TAGS).map(([value, state]) => ({ value, label: t(`cnameStatuses.${state.key}`) })),
        ]}
        onChange={(value: string) => search.setFilters({ cnameStatus: value === ALL ? undefined : value })}
      />
      <DomainAdvancedFilter siteId={siteId} search={search} />
    </Flex>
  );
}
