import { PlusOutlined } from '@ant-design/icons';
import { type Product, productRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { DateTime } from '../../../components/DateTime';
import { type ListColumns, ListToolbar } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { actionsColumn, RowActions } from '../../../components/RowActions';
import { pendingFor } from '../../../features/lists/row-pending';
import { useListSearch } from '../../../features/lists/use-list-search';
import { ProductFormModal } from './ProductFormModal';
import { ProductGroupsPanel } from './ProductGroupsPanel';

/** Group names can repeat across zones, so each tag is keyed by the group's id. */
function groupTags(groups: Product['mainGroups']) {
  return groups.length === 0 ? '—' : groups.map((group) => <Tag key={group.id}>{group.name}</Tag>);
}

/**
 * `/client/sitesManagement/productsList`: the operator's products, paged, with how many sites each
 * carries against its limit; a row expands to its groups with their zones; create, edit and delete.
 */
export function ProductsListPage() {
  const { t } = useTranslation(['products', 'common', 'shell']);
  const search = useListSearch([]);
  const products = useQuery(
    routeQuery('client', productRoutes.listProducts, { query: { page: search.page, pageSize: search.pageSize } }),
  );
  const [editing, setEditing] = useState<Product | 'new' | null>(null);
  const remove = useRouteMutation('client', productRoutes.deleteProduct, {
    input: (product: Product) => ({ body: { id: product.id } }),
    invalidates: changes('products'),
    success: () => toastText('deleteSuccess'),
  });

  const columns: ListColumns<Product> = [
    { title: t('name'), dataIndex: 'name' },
    { title: t('portType'), dataIndex: 'portType', render: (value: 7 | 4) => t(`common:portTypes.${value}`) },
    { title: t('mainGroups'), dataIndex: 'mainGroups', ellipsis: true, maxWidth: 200, render: groupTags },
    { title: t('backupGroups'), dataIndex: 'backupGroups', defaultHidden: true, render: groupTags },
    {
      title: t('sites'),
      key: 'sites',
      render: (_, product) =>
        product.siteLimit === 0
          ? t('siteUsageUnlimited', { count: product.siteCount })
          : t('siteUsage', { count: product.siteCount, limit: product.siteLimit }),
    },
    { title: t('memo'), dataIndex: 'memo', ellipsis: true, defaultHidden: true },
    {
      title: t('createdAt'),
      dataIndex: 'createdAt',
      defaultHidden: true,
      render: (value: string) => <DateTime value={value} />,
    },
    actionsColumn((product) => (
      <RowActions
        onEdit={() => setEditing(product)}
        deleteConfirm={t('deleteConfirm', { name: product.name })}
        deleting={pendingFor(remove, product.id)}
        onDelete={() => remove.mutate(product)}
      />
    )),
  ];

  return (
    <>
      <PageTitle>{t('shell:menu.productsList')}</PageTitle>
      <ListToolbar justify="flex-end" style={{ marginBottom: 16 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('create')}
        </Button>
      </ListToolbar>
      <ListTable<Product>
        rowKey="id"
        columns={columns}
        list={products}
        paging={search}
        emptyText={t('empty')}
        expandable={{ expandedRowRender: (product) => <ProductGroupsPanel product={product} /> }}
      />
      <ProductFormModal product={editing} onClose={() => setEditing(null)} />
    </>
  );
}
