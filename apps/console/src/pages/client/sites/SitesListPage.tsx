import { PlusOutlined } from '@ant-design/icons';
import {
  productRoutes,
  SITE_ACCOUNT_STATUS_LABELS,
  SITE_ACCOUNT_STATUSES,
  type Site,
  type SiteAccountStatus,
  siteRoutes,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Dropdown, Flex, Select, Space, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { localized, toastText } from '../../../app/toast';
import { DeleteButton } from '../../../components/DeleteButton';
import { ListTable } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { SiteFilters } from '../../../features/sites/SiteFilters';
import { useSiteStateColumns } from '../../../features/sites/site-columns';
import { useSiteListSearch } from '../../../features/sites/site-list-search';
import { CreateSiteModal } from './CreateSiteModal';

/**
 * `/client/sitesManagement/sitesList`: the operator's sites, paged and filtered (name, status,
 * product) on the server; create a site for a customer, delete sites, set the status of several.
 */
export function SitesListPage() {
  const { t } = useTranslation(['sites', 'common', 'shell']);
  const { search, query } = useSiteListSearch();
  const sites = useQuery(routeQuery('client', siteRoutes.listClientSites, { query }));
  const products = useQuery(routeQuery('client', productRoutes.metaProducts, {}));
  const [selected, setSelected] = useState<number[]>([]);
  const [creating, setCreating] = useState(false);
  const remove = useRouteMutation('client', siteRoutes.deleteSites, {
    input: (ids: number[]) => ({ body: { ids } }),
    invalidates: [siteRoutes.listClientSites],
    success: () => toastText('deleteSuccess'),
    onSuccess: (_reply, ids) => setSelected((current) => current.filter((id) => !ids.includes(id))),
  });
  const setStatus = useRouteMutation('client', siteRoutes.setSitesStatus, {
    input: (body: { ids: number[]; status: SiteAccountStatus }) => ({ body }),
    invalidates: [siteRoutes.listClientSites],
    success: () => toastText('setSuccess'),
    onSuccess: () => setSelected([]),
  });

  const stateColumns = useSiteStateColumns();
  const columns: TableColumnsType<Site> = [
    { title: t('name'), dataIndex: 'siteName' },
    { title: t('customer'), dataIndex: 'userAccount' },
    { title: t('product'), dataIndex: 'productName' },
    ...stateColumns,
    {
      title: t('common:actions.title'),
      key: 'actions',
      render: (_, site) => (
        <DeleteButton
          confirm={t('deleteConfirm', { name: site.siteName })}
          pending={remove.isPending && remove.variables?.length === 1 && remove.variables[0] === site.siteID}
          onConfirm={() => remove.mutate([site.siteID])}
        />
      ),
    },
  ];

  return (
    <>
      <PageTitle>{t('shell:menu.sitesList')}</PageTitle>
      <SiteFilters search={search}>
        <Select
          allowClear
          style={{ width: 200 }}
          placeholder={t('filters.allProducts')}
          aria-label={t('filters.product')}
          value={query.productID}
          loading={products.isLoading}
          options={products.data?.data.map((product) => ({ value: product.id, label: product.name }))}
          onChange={(id?: number) => search.setFilters({ productID: id === undefined ? undefined : String(id) })}
        />
      </SiteFilters>
      <Flex justify="space-between" style={{ marginBottom: 16 }}>
        <Space>
          <Dropdown
            disabled={selected.length === 0}
            menu={{
              items: SITE_ACCOUNT_STATUSES.map((status) => ({
                key: status,
                label: localized(SITE_ACCOUNT_STATUS_LABELS[status]),
              })),
              onClick: ({ key }) => setStatus.mutate({ ids: selected, status: key as SiteAccountStatus }),
            }}
          >
            <Button loading={setStatus.isPending}>{t('bulk.setStatus', { count: selected.length })}</Button>
          </Dropdown>
          <DeleteButton
            label={t('bulk.delete', { count: selected.length })}
            confirm={t('bulk.deleteConfirm', { count: selected.length })}
            disabled={selected.length === 0}
            pending={remove.isPending && remove.variables === selected}
            onConfirm={() => remove.mutate(selected)}
          />
        </Space>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {t('create.open')}
        </Button>
      </Flex>
      <ListTable<Site>
        rowKey="siteID"
        columns={columns}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        list={sites}
        paging={search}
        emptyText={t('empty')}
      />
      <CreateSiteModal open={creating} onClose={() => setCreating(false)} />
    </>
  );
}
