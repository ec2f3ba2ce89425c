import { type Product, type ProductGroup, productRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';
import { FitTable, type ListColumns } from '../../../components/FitTable';

/** One kind of a product's groups (`GET client/product/{id}/groups?isBackup=`), with zone and node count. */
function GroupsTable({ product, isBackup }: { product: Product; isBackup: boolean }) {
  const { t } = useTranslation('products');
  const groups = useQuery(
    routeQuery('client', productRoutes.productGroups, {
      params: { id: product.id },
      query: { isBackup: isBackup ? 'true' : 'false' },
    }),
  );
  const columns: ListColumns<ProductGroup> = [
    { title: t('zone'), dataIndex: 'zoneName' },
    { title: t('group'), dataIndex: 'name' },
    { title: t('nodeCount'), dataIndex: 'nodeCount' },
  ];
  return (
    <div style={{ flex: 1 }}>
      <Typography.Text strong>{isBackup ? t('backupGroups') : t('mainGroups')}</Typography.Text>
      <FitTable<ProductGroup>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={groups.data?.data}
        loading={groups.isLoading}
        pagination={false}
        locale={{ emptyText: t('noGroups') }}
      />
    </div>
  );
}

/** A product's row, expanded: its main and backup groups side by side. */
export function ProductGroupsPanel({ product }: { product: Product }) {
  return (
    <Flex gap="large" aria-label={product.name}>
      <GroupsTable product={product} isBackup={false} />
      <GroupsTable product={product} isBackup />
    </Flex>
  );
}
