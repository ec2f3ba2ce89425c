import {
  formatBytesText,
  type InitializedNode,
  NODE_INFO_REFRESH_MS,
  type NodeCommand,
  nodeOperationRoutes as ops,
} from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Empty, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';
import { DateTime } from '../../../components/DateTime';
import { FitTable, type ListColumns } from '../../../components/FitTable';
import { RowDrawer } from '../../../components/RowDrawer';
import { commandResultsRow } from '../../../features/cache/CacheTasks';
import { NodeSubNodes } from './NodeSubNodes';
import { NodeUpgradeLogs } from './NodeUpgradeLogs';

/** The latest commands shown with a node (the newest page; older ones are kept on the server). */
const RECENT_COMMANDS = 20;
const INFO_QUERY = { refetchInterval: NODE_INFO_REFRESH_MS } as const;
const STATUS_COLORS: Record<NodeCommand['status'], string> = {
  queued: 'default',
  sent: 'processing',
  succeeded: 'green',
  failed: 'red',
  expired: 'orange',
};

/**
 * One node's details: the system information its agent reported last, its recent commands with
 * their results and its upgrade log, reloaded every 2000 ms (spec part 2 §9, "node information"). Closed when
 * `node` is null.
 */
export function NodeDetailDrawer({ node, onClose }: { node: InitializedNode | null; onClose: () => void }) {
  const { t } = useTranslation('nodeOps');
  return (
    <RowDrawer row={node} title={(node) => t('drawer.title', { name: node.name })} size={640} onClose={onClose}>
      {(node) => <NodeDetails node={node} />}
    </RowDrawer>
  );
}

function NodeDetails({ node }: { node: InitializedNode }) {
  const { t } = useTranslation('nodeOps');
  const params = { zoneID: node.zoneId, id: node.id };
  const system = useQuery({ ...routeQuery('client', ops.getNodeSystem, { params }), ...INFO_QUERY });
  const commands = useQuery({
    ...routeQuery('client', ops.listNodeCommands, { params, query: { page: 1, pageSize: RECENT_COMMANDS } }),
    ...INFO_QUERY,
  });
  const info = system.data?.data;
  const uptime = (seconds: number) =>
    t('drawer.uptimeValue', {
      days: Math.floor(seconds / 86_400),
      hours: Math.floor((seconds % 86_400) / 3600),
      minutes: Math.floor((seconds % 3600) / 60),
    });
  const used = (usedBytes: number, total: number) =>
    t('drawer.used', { used: formatBytesText(usedBytes), total: formatBytesText(total) });

  const columns: ListColumns<NodeCommand> = [
    { title: t('drawer.type'), dataIndex: 'type', render: (type: NodeCommand['type']) => t(`commandTypes.${type}`) },
    {
      title: t('drawer.state'),
      dataIndex: 'status',
      render: (status: NodeCommand['status']) => (
        <Tag color={STATUS_COLORS[status]}>{t(`commandStatuses.${status}`)}</Tag>
      ),
    },
    { title: t('drawer.message'), dataIndex: 'message', render: (message: string) => message || '—' },
    { title: t('drawer.createdAt'), dataIndex: 'createdAt', render: (value: string) => <DateTime value={value} /> },
    {
      title: t('drawer.finishedAt'),
      dataIndex: 'finishedAt',
      render: (value: string | null) => <DateTime value={value} />,
    },
  ];

  return (
    <>
      <Typography.Title level={5}>{t('drawer.system')}</Typography.Title>
      {system.isLoading && <Spin />}
      {system.data && !info && <Empty description={t('drawer.noSystem')} />}
      {info && (
        <Descriptions
          column={1}
          bordered
          size="small"
          items={[
            {
              key: 'cpu',
              label: t('drawer.cpu'),
              children: t('drawer.cpuValue', { count: info.cpuCount, usage: info.cpuUsage }),
            },
            { key: 'memory', label: t('drawer.memory'), children: used(info.memoryUsedBytes, info.memoryTotalBytes) },
            { key: 'disk', label: t('drawer.disk'), children: used(info.diskUsedBytes, info.diskTotalBytes) },
            { key: 'load', label: t('drawer.load'), children: info.loadAverage.join(' / ') },
            { key: 'uptime', label: t('drawer.uptime'), children: uptime(info.uptimeSeconds) },
            { key: 'nginx', label: t('drawer.nginxVersion'), children: info.nginxVersion || '—' },
            { key: 'agent', label: t('drawer.agentVersion'), children: info.agentVersion },
            { key: 'at', label: t('drawer.reportedAt'), children: <DateTime value={info.reportedAt} /> },
          ]}
        />
      )}
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('drawer.commands')}
      </Typography.Title>
      <FitTable<NodeCommand>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={commands.data?.data ?? []}
        loading={commands.isLoading}
        pagination={false}
        expandable={{ rowExpandable: (row) => row.results.length > 0, expandedRowRender: commandResultsRow }}
        locale={{ emptyText: t('drawer.noCommands') }}
      />
      <NodeSubNodes node={node} />
      <NodeUpgradeLogs nodeId={node.id} />
    </>
  );
}
