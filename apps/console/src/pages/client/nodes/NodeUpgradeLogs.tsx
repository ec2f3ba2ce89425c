import { NODE_INFO_REFRESH_MS, type NodeUpgradeLog, nodeUpgradeRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';
import { DateTime } from '../../../components/DateTime';
import type { ListColumns } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { useLocalPaging } from '../../../features/lists/use-list-search';

const STAGE_COLORS: Record<NodeUpgradeLog['stage'], string> = {
  queued: 'default',
  downloading: 'processing',
  verified: 'processing',
  switched: 'processing',
  restarting: 'processing',
  reported: 'green',
  failed: 'red',
};

/** A node's upgrade log in its drawer: each stage of each upgrade, newest first, paged, reloaded like the drawer. */
export function NodeUpgradeLogs({ nodeId }: { nodeId: number }) {
  const { t } = useTranslation('nodeUpgrade');
  const paging = useLocalPaging();
  const logs = useQuery({
    ...routeQuery('client', nodeUpgradeRoutes.listNodeUpgradeLogs, {
      params: { id: nodeId },
      query: { page: paging.page, pageSize: paging.pageSize },
    }),
    refetchInterval: NODE_INFO_REFRESH_MS,
  });
  const columns: ListColumns<NodeUpgradeLog> = [
    { title: t('at'), dataIndex: 'createdAt', render: (value: string) => <DateTime value={value} /> },
    {
      title: t('stage'),
      dataIndex: 'stage',
      render: (stage: NodeUpgradeLog['stage']) => <Tag color={STAGE_COLORS[stage]}>{t(`stages.${stage}`)}</Tag>,
    },
    { title: t('version'), dataIndex: 'version' },
    { title: t('message'), dataIndex: 'message', render: (message: string) => message || '—' },
  ];
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('logs')}
      </Typography.Title>
      <ListTable<NodeUpgradeLog>
        rowKey="id"
        size="small"
        columns={columns}
        list={logs}
        paging={paging}
        emptyText={t('noLogs')}
        quietRefresh
      />
    </>
  );
}
