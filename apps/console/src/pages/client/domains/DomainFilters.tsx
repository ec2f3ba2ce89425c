import { clientDomainRoutes, clientSiteRoutes, DOMAIN_STATUS_LABELS } from '@rampart/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AutoComplete, Flex, Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';
import { localized } from '../../../app/toast';
import { ChoiceFilter } from '../../../components/ChoiceFilter';
import { TagsFilter } from '../../../components/TagsFilter';
import type { ListSearch } from '../../../features/lists/use-list-search';

export const DOMAIN_FILTER_KEYS = ['name', 'siteID', 'tags', 'status'] as const;
export type DomainFilterKey = (typeof DOMAIN_FILTER_KEYS)[number];

/**
 * Filters of the operator's domain list, kept in the URL: a name search that suggests names of the
 * chosen site as it is typed (`POST client/domains/meta`), the site, tags and status.
 */
export function DomainFilters({ search }: { search: ListSearch<DomainFilterKey> }) {
  const { t } = useTranslation('clientDomains');
  const [typed, setTyped] = useState(search.filters.name ?? '');
  const siteID = search.filters.siteID === undefined ? undefined : Number(search.filters.siteID);
  const sites = useQuery(routeQuery('client', clientSiteRoutes.metaSites, { query: {} }));
  const tags = useQuery(routeQuery('client', clientDomainRoutes.clientDomainTags, {}));
  const suggestions = useQuery({
    ...routeQuery('client', clientDomainRoutes.metaClientDomains, {
      body: { siteIDs: siteID ? [siteID] : [], name: typed.trim() },
    }),
    enabled: typed.trim() !== '',
    placeholderData: keepPreviousData,
  });
  const names = [...new Set((suggestions.data?.data ?? []).map((domain) => domain.name))].slice(0, 10);

  return (
    <Flex gap="small" wrap style={{ marginBottom: 16 }}>
      <AutoComplete
        value={typed}
        options={typed.trim() === '' ? [] : names.map((name) => ({ value: name }))}
        onChange={setTyped}
        onSelect={(name: string) => search.setFilters({ name })}
      >
        <Input.Search
          allowClear
          style={{ width: 260 }}
          placeholder={t('filters.name')}
          aria-label={t('filters.name')}
          onSearch={(text) => search.setFilters({ name: text.trim() })}
        />
      </AutoComplete>
      <Select
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        style={{ width: 200 }}
        placeholder={t('filters.allSites')}
        aria-label={t('filters.site')}
        value={siteID}
        options={sites.data?.data.map((site) => ({ value: site.id, label: site.name }))}
        onChange={(id?: number) => search.setFilters({ siteID: id === undefined ? undefined : String(id) })}
      />
      <TagsFilter
        label={t('filters.tags')}
        placeholder={t('filters.anyTag')}
        value={search.all('tags')}
        tags={tags.data?.data}
        onChange={(chosen) => search.setFilters({ tags: chosen })}
      />
      <ChoiceFilter
        label={t('filters.status')}
        value={search.filters.status}
        allLabel={t('filters.allStatuses')}
        options={([1, 0] as const).map((status) => ({
          value: String(status),
          label: localized(DOMAIN_STATUS_LABELS[status]),
        }))}
        onChange={(status) => search.setFilters({ status })}
      />
    </Flex>
  );
}
