import { nodeRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';
import { DateTime } from '../../../components/DateTime';
import { type ListColumns, ListToolbar } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { actionsColumn } from '../../../components/RowActions';
import { useListSearch } from '../../../features/lists/use-list-search';
import { useSelectedRows } from '../../../features/lists/use-selected-rows';
import { InitializeNodesModal, type NodeToPlace } from './InitializeNodesModal';
import { NODE_LIST_QUERY } from './node-refresh';

/** Nodes that registered with the join token and wait to be placed in a zone (and a group). */
export function UninitializedNodesTab() {
  const { t } = useTranslation(['nodes', 'common']);
  const search = useListSearch([]);
  const input = { query: { page: search.page, pageSize: search.pageSize } };
  const nodes = useQuery({ ...routeQuery('client', nodeRoutes.listUninitializedNodes, input), ...NODE_LIST_QUERY });
  const { selected, rowSelection, clear } = useSelectedRows<NodeToPlace>();
  const [placing, setPlacing] = useState<NodeToPlace[] | null>(null);

  const columns: ListColumns<NodeToPlace> = [
    { title: t('name'), dataIndex: 'name' },
    { title: t('ips'), dataIndex: 'ips', render: (ips: string[]) => ips.join(', ') },
    { title: t('version'), dataIndex: 'version' },
    {
      title: t('registeredAt'),
      dataIndex: 'createdAt',
      defaultHidden: true,
      render: (value: string) => <DateTime value={value} />,
    },
    { title: t('lastSeen'), dataIndex: 'lastSeenAt', render: (value: string | null) => <DateTime value={value} /> },
    actionsColumn((node) => (
      <Button size="small" type="primary" onClick={() => setPlacing([node])}>
        {t('initialize.action')}
      </Button>
    )),
  ];

  return (
    <>
      <ListToolbar justify="flex-end" style={{ marginBottom: 16 }}>
        <Button disabled={selected.length === 0} onClick={() => setPlacing(selected)}>
          {t('initialize.selected', { count: selected.length })}
        </Button>
      </ListToolbar>
      <ListTable<NodeToPlace>
        rowKey="id"
        columns={columns}
        rowSelection={rowSelection}
        list={nodes}
        paging={search}
        emptyText={t('emptyUninitialized')}
        quietRefresh
      />
      <InitializeNodesModal
        nodes={placing}
        onClose={() => setPlacing(null)}
        onDone={() => {
          setPlacing(null);
          clear();
        }}
      />
    </>
  );
}
