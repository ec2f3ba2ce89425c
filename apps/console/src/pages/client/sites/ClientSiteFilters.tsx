import { clientSiteRoutes, productRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';
import { ChoiceFilter } from '../../../components/ChoiceFilter';
import { TagsFilter } from '../../../components/TagsFilter';
import type { ListSearch } from '../../../features/lists/use-list-search';
import { SiteFilters } from '../../../features/sites/SiteFilters';
import type { ClientSiteFilterKey } from './client-site-search';

/** The operator's site filters: name and status (shared), product, tags, expiry and force-backup. */
export function ClientSiteFilters({ search }: { search: ListSearch<ClientSiteFilterKey> }) {
  const { t } = useTranslation(['sites', 'siteActions']);
  const products = useQuery(routeQuery('client', productRoutes.metaProducts, {}));
  const tags = useQuery(routeQuery('client', clientSiteRoutes.siteTags, {}));
  const productID = search.filters.productID === undefined ? undefined : Number(search.filters.productID);
  const yesNo = (yes: string, no: string) => [
    { value: 'true', label: yes },
    { value: 'false', label: no },
  ];
  return (
    <SiteFilters search={search}>
      <Select
        allowClear
        style={{ width: 180 }}
        placeholder={t('filters.allProducts')}
        aria-label={t('filters.product')}
        value={productID}
        loading={products.isLoading}
        options={products.data?.data.map((product) => ({ value: product.id, label: product.name }))}
        onChange={(id?: number) => search.setFilters({ productID: id === undefined ? undefined : String(id) })}
      />
      <TagsFilter
        label={t('siteActions:filters.tags')}
        placeholder={t('siteActions:filters.anyTag')}
        value={search.all('tags')}
        tags={tags.data?.data}
        onChange={(chosen) => search.setFilters({ tags: chosen })}
      />
      <ChoiceFilter
        width={170}
        label={t('siteActions:filters.expiry')}
        value={search.filters.expired}
        allLabel={t('siteActions:filters.anyExpiry')}
        options={yesNo(t('siteActions:filters.expired'), t('siteActions:filters.notExpired'))}
        onChange={(expired) => search.setFilters({ expired })}
      />
      <ChoiceFilter
        width={170}
        label={t('siteActions:filters.backup')}
        value={search.filters.forceBackup}
        allLabel={t('siteActions:filters.anyBackup')}
        options={yesNo(t('siteActions:filters.forced'), t('siteActions:filters.notForced'))}
        onChange={(forceBackup) => search.setFilters({ forceBackup })}
      />
    </SiteFilters>
  );
}
