import { clientSiteRoutes, productRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';
import type { ListSearch } from '../../../features/lists/use-list-search';
import { SiteFilters } from '../../../features/sites/SiteFilters';
import type { ClientSiteFilterKey } from './client-site-search';

const ALL = 'all';

/** A yes/no filter of the URL with an "all" choice first; `all` is never sent. */
function FlagFilter(props: {
  label: string;
  value: string | undefined;
  options: [all: string, yes: string, no: string];
  onChange: (value: string | undefined) => void;
}) {
  const [all, yes, no] = props.options;
  return (
    <Select
      style={{ width: 170 }}
      aria-label={props.label}
      value={props.value ?? ALL}
      options={[
        { value: ALL, label: all },
        { value: 'true', label: yes },
        { value: 'false', label: no },
      ]}
      onChange={(value: string) => props.onChange(value === ALL ? undefined : value)}
    />
  );
}

/** The operator's site filters: name and status (shared), product, tags, expiry and force-backup. */
export function ClientSiteFilters({ search }: { search: ListSearch<ClientSiteFilterKey> }) {
  const { t } = useTranslation(['sites', 'siteActions']);
  const products = useQuery(routeQuery('client', productRoutes.metaProducts, {}));
  const tags = useQuery(routeQuery('client', clientSiteRoutes.siteTags, {}));
  const productID = search.filters.productID === undefined ? undefined : Number(search.filters.productID);
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
      <Select
        mode="multiple"
        allowClear
        style={{ minWidth: 180 }}
        placeholder={t('siteActions:filters.anyTag')}
        aria-label={t('siteActions:filters.tags')}
        value={search.all('tags')}
        options={tags.data?.data.map((tag) => ({ value: tag, label: tag }))}
        onChange={(chosen: string[]) => search.setFilters({ tags: chosen })}
      />
      <FlagFilter
        label={t('siteActions:filters.expiry')}
        value={search.filters.expired}
        options={[
          t('siteActions:filters.anyExpiry'),
          t('siteActions:filters.expired'),
          t('siteActions:filters.notExpired'),
        ]}
        onChange={(expired) => search.setFilters({ expired })}
      />
      <FlagFilter
        label={t('siteActions:filters.backup')}
        value={search.filters.forceBackup}
        options={[
          t('siteActions:filters.anyBackup'),
          t('siteActions:filters.forced'),
          t('siteActions:filters.notForced'),
        ]}
        onChange={(forceBackup) => search.setFilters({ forceBackup })}
      />
    </SiteFilters>
  );
}
