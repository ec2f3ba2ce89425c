import { type InitializedNode, nodeRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';
import type { ListColumns } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { useLocalPaging } from '../../../features/lists/use-list-search';
import { LIVE_REFRESH_MS } from '../../account/dashboard/LiveTraffic';
import { NodeConfigTag } from '../nodes/NodeConfigTag';

/**
 * The operator's nodes, a page at a time: up or down, and whether each holds the configuration and
 * data plane the control plane would send it now. Read again with the dashboard's live figures.
 */
export function NodesLive() {
  const { t } = useTranslation(['overview', 'nodes']);
  const paging = useLocalPaging();
  const list = useQuery({
    ...routeQuery('client', nodeRoutes.listInitializedNodes, {
      query: { page: paging.page, pageSize: paging.pageSize },
    }),
    refetchInterval: LIVE_REFRESH_MS,
  });
  const columns: ListColumns<InitializedNode> = [
    { title: t('node'), dataIndex: 'name', maxWidth: 200 },
    {
      title: t('connection'),
      dataIndex: 'connection',
      render: (value: InitializedNode['connection'], node) => (
        <Tag color={value === 'online' ? 'green' : 'red'} aria-label={t('connectionOf', { name: node.name })}>
          {t(`nodes:connection.${value}`)}
        </Tag>
      ),
    },
    {
      title: t('nodes:config.title'),
      key: 'config',
      render: (_, node) => <NodeConfigTag node={node} name={node.name} />,
    },
    { title: t('lastError'), dataIndex: 'lastError', ellipsis: true, render: (value: string) => value || '—' },
  ];
  return (
    <Card title={t('nodesLiveTitle')} data-testid="nodes-live">
      <ListTable<InitializedNode> rowKey="id" columns={columns} list={list} paging={paging} emptyText={t('noNodes')} />
    </Card>
  );
}
