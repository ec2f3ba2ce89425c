import { PlusOutlined } from '@ant-design/icons';
import { type VirtualNode, virtualNodeRoutes, zoneRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { DateTime } from '../../../components/DateTime';
import type { ListColumns } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { actionsColumn, RowActions } from '../../../components/RowActions';
import { SearchBox } from '../../../components/SearchBox';
import { pendingFor } from '../../../features/lists/row-pending';
import { urlId, urlQuery, useListSearch } from '../../../features/lists/use-list-search';
import { VirtualNodeFormModal } from './VirtualNodeFormModal';
import { VirtualNodeRecordsDrawer } from './VirtualNodeRecordsDrawer';

/**
 * `/client/nodeManage/vNode`: the virtual nodes of one zone (`zoneID` in the URL, the first zone
 * when absent), paged and searched on the server; create, edit, delete, and a virtual node's
 * records in a drawer (its id kept in the URL as `records`).
 */
export function VirtualNodesPage() {
  const { t } = useTranslation(['virtualNodes', 'common', 'shell']);
  const search = useListSearch(['zoneID', 'value', 'records'] as const);
  const zones = useQuery(routeQuery('client', zoneRoutes.metaZones, {}));
  const zoneId = urlId(search.filters.zoneID) ?? zones.data?.data[0]?.id;
  const params = { zoneID: zoneId ?? 0 };
  const list = useQuery({
    ...routeQuery('client', virtualNodeRoutes.listVirtualNodes, {
      params,
      query: {
        page: search.page,
        pageSize: search.pageSize,
        ...urlQuery(virtualNodeRoutes.listVirtualNodes.request.query, search, ['value']),
      },
    }),
    enabled: zoneId !== undefined,
  });
  const [editing, setEditing] = useState<VirtualNode | 'new' | null>(null);
  const remove = useRouteMutation('client', virtualNodeRoutes.deleteVirtualNodes, {
    input: (node: VirtualNode) => ({ params, body: { ids: [node.id] } }),
    invalidates: changes('virtualNodes'),
    success: () => toastText('deleteSuccess'),
  });
  const recordsId = urlId(search.filters.records);
  const recordsOf = list.data?.data.find((node) => node.id === recordsId) ?? null;

  const columns: ListColumns<VirtualNode> = [
    // Narrower than other names: with the port type's long label the list must fit 1000 px (wide-lists).
    { title: t('name'), dataIndex: 'name', maxWidth: 180 },
    { title: t('portType'), dataIndex: 'portType', render: (v: 7 | 4) => t(`common:portTypes.${v}`) },
    { title: t('recordCount'), dataIndex: 'recordCount' },
    { title: t('lineCount'), dataIndex: 'lineCount' },
    { title: t('memo'), dataIndex: 'memo', ellipsis: true },
    {
      title: t('createdAt'),
      dataIndex: 'createdAt',
      defaultHidden: true,
      render: (value: string) => <DateTime value={value} />,
    },
    actionsColumn((node) => (
      <RowActions
        before={
          <Button size="small" onClick={() => search.setFilters({ records: String(node.id) })}>
            {t('records')}
          </Button>
        }
        onEdit={() => setEditing(node)}
        deleteConfirm={t('deleteConfirm', { name: node.name })}
        deleting={pendingFor(remove, node.id)}
        onDelete={() => remove.mutate(node)}
      />
    )),
  ];

  return (
    <>
      <PageTitle>{t('shell:menu.vNode')}</PageTitle>
      <Flex gap="small" wrap style={{ marginBottom: 16 }}>
        <Select
          style={{ minWidth: 200 }}
          aria-label={t('zone')}
          placeholder={t('zone')}
          value={zoneId}
          loading={zones.isLoading}
          notFoundContent={t('noZones')}
          options={zones.data?.data.map((zone) => ({ value: zone.id, label: zone.name }))}
          onChange={(id: number) => search.setFilters({ zoneID: String(id), value: undefined, records: undefined })}
        />
        <SearchBox
          label={t('search')}
          value={search.filters.value}
          onSearch={(text) => search.setFilters({ value: text })}
        />
        <Button
          type="primary"
          icon={<PlusOutlined />}
          disabled={zoneId === undefined}
          onClick={() => setEditing('new')}
          style={{ marginLeft: 'auto' }}
        >
          {t('create')}
        </Button>
      </Flex>
      <ListTable<VirtualNode>
        rowKey="id"
        columns={columns}
        list={list}
        paging={search}
        emptyText={zoneId === undefined ? t('noZones') : t('empty')}
      />
      {zoneId !== undefined && (
        <>
          <VirtualNodeFormModal zoneId={zoneId} node={editing} onClose={() => setEditing(null)} />
          <VirtualNodeRecordsDrawer
            zoneId={zoneId}
            node={recordsOf}
            onClose={() => search.setFilters({ records: undefined })}
          />
        </>
      )}
    </>
  );
}
