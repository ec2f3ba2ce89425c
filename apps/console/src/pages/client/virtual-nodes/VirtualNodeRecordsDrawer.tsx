import { PlusOutlined } from '@ant-design/icons';
import {
  type InitializedNode,
  nodeRoutes,
  type VirtualNode,
  type VirtualNodeRecord,
  virtualNodeRoutes,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { ListTable } from '../../../components/ListTable';
import { SelectionDelete } from '../../../components/RowActions';
import { RowDrawer } from '../../../components/RowDrawer';
import { PickerModal } from '../../../features/lists/PickerModal';
import { useLocalPaging } from '../../../features/lists/use-list-search';
import { useSelectedRows } from '../../../features/lists/use-selected-rows';
import { CnameRecordModal } from './CnameRecordModal';

/** A virtual node's records in a drawer: add a CNAME or node records, delete selected ones. */
export function VirtualNodeRecordsDrawer({
  zoneId,
  node,
  onClose,
}: {
  zoneId: number;
  node: VirtualNode | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('virtualNodes');
  return (
    <RowDrawer row={node} title={(node) => t('recordsOf', { name: node.name })} size={680} onClose={onClose}>
      {(node) => <Records zoneId={zoneId} node={node} />}
    </RowDrawer>
  );
}

function Records({ zoneId, node }: { zoneId: number; node: VirtualNode }) {
  const { t } = useTranslation('virtualNodes');
  const paging = useLocalPaging();
  const params = { zoneID: zoneId, id: node.id };
  const records = useQuery(
    routeQuery('client', virtualNodeRoutes.listVirtualNodeRecords, {
      params,
      query: { page: paging.page, pageSize: paging.pageSize },
    }),
  );
  const { selected, rowSelection, clear } = useSelectedRows<VirtualNodeRecord>();
  const [adding, setAdding] = useState<'cname' | 'nodes' | null>(null);
  const remove = useRouteMutation('client', virtualNodeRoutes.deleteVirtualNodeRecords, {
    input: (ids: number[]) => ({ params, body: { ids } }),
    invalidates: changes('virtualNodeRecords'),
    success: () => toastText('deleteSuccess'),
    onSuccess: clear,
  });
  const addNodes = useRouteMutation('client', virtualNodeRoutes.addVirtualNodeNodeRecords, {
    input: (nodeIDs: number[]) => ({ params, body: { nodeIDs } }),
    invalidates: changes('virtualNodeRecords'),
    success: () => toastText('setSuccess'),
    onSuccess: () => setAdding(null),
  });

  const columns: TableColumnsType<VirtualNodeRecord> = [
    {
      title: t('record.type'),
      dataIndex: 'type',
      render: (type: 'cname' | 'node') => <Tag>{t(`record.types.${type}`)}</Tag>,
    },
    {
      title: t('record.target'),
      key: 'target',
      render: (_, record) => (record.type === 'cname' ? record.value : record.nodeName),
    },
    { title: t('record.ips'), dataIndex: 'ips', render: (ips: string[]) => (ips.length ? ips.join(', ') : '—') },
  ];
  const nodeColumns: TableColumnsType<InitializedNode> = [
    { title: t('name'), dataIndex: 'name' },
    { title: t('record.ips'), dataIndex: 'ips', render: (ips: string[]) => ips.join(', ') },
    { title: t('zone'), dataIndex: 'zoneName' },
  ];
  const ids = selected.map((record) => record.id);

  return (
    <>
      <p style={{ marginTop: 0 }}>{t('record.hint')}</p>
      <Flex gap="small" wrap style={{ marginBottom: 12 }}>
        <Button icon={<PlusOutlined />} onClick={() => setAdding('cname')}>
          {t('record.addCname')}
        </Button>
        <Button icon={<PlusOutlined />} onClick={() => setAdding('nodes')}>
          {t('record.addNodes')}
        </Button>
        <SelectionDelete
          count={ids.length}
          label={t('record.deleteSelected', { count: ids.length })}
          confirm={t('record.deleteConfirm', { count: ids.length })}
          pending={remove.isPending}
          onDelete={() => remove.mutate(ids)}
        />
      </Flex>
      <ListTable<VirtualNodeRecord>
        rowKey="id"
        size="small"
        columns={columns}
        list={records}
        paging={paging}
        emptyText={t('record.empty')}
        rowSelection={rowSelection}
      />
      <CnameRecordModal zoneId={zoneId} node={adding === 'cname' ? node : null} onClose={() => setAdding(null)} />
      <PickerModal<InitializedNode>
        open={adding === 'nodes'}
        title={t('record.nodesTitle', { name: node.name })}
        searchLabel={t('record.searchNodes')}
        emptyText={t('record.noNodes')}
        columns={nodeColumns}
        query={(query) => routeQuery('client', nodeRoutes.listInitializedNodes, { query })}
        pending={addNodes.isPending}
        onPick={(picked) => addNodes.mutate(picked)}
        onClose={() => setAdding(null)}
      />
    </>
  );
}
