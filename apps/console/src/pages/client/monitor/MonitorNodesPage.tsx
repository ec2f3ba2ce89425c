import { PlusOutlined } from '@ant-design/icons';
import { type MonitorNode, monitoringRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Switch, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { DateTime } from '../../../components/DateTime';
import { ListToolbar } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { actionsColumn, RowActions } from '../../../components/RowActions';
import { pendingFor } from '../../../features/lists/row-pending';
import { useListSearch } from '../../../features/lists/use-list-search';
import { AddMonitorModal } from './AddMonitorModal';

const r = monitoringRoutes;
const invalidates = changes('monitors');

/** `/client/monitorManagement/monitorNodeList`: the nodes that probe; add, pause and remove them. */
export function MonitorNodesPage() {
  const { t } = useTranslation(['monitoring', 'common', 'shell']);
  const search = useListSearch([]);
  const monitors = useQuery(
    routeQuery('client', r.listMonitorNodes, { query: { page: search.page, pageSize: search.pageSize } }),
  );
  const [adding, setAdding] = useState(false);
  const toggle = useRouteMutation('client', r.updateMonitorNode, {
    input: ({ monitor, enabled }: { monitor: MonitorNode; enabled: boolean }) => ({
      body: { id: monitor.id, memo: monitor.memo, enabled },
    }),
    invalidates,
    success: () => toastText('updateSuccess'),
  });
  const remove = useRouteMutation('client', r.deleteMonitorNode, {
    input: (monitor: MonitorNode) => ({ body: { id: monitor.id } }),
    invalidates,
    success: () => toastText('deleteSuccess'),
  });

  const columns: TableColumnsType<MonitorNode> = [
    { title: t('name'), dataIndex: 'name' },
    { title: t('ips'), dataIndex: 'ips', render: (ips: string[]) => ips.join(', ') },
    {
      title: t('kind'),
      dataIndex: 'initialized',
      render: (edge: boolean) => t(edge ? 'kinds.edge' : 'kinds.dedicated'),
    },
    {
      title: t('connection'),
      dataIndex: 'connection',
      render: (value: MonitorNode['connection']) => (
        <Tag color={value === 'online' ? 'green' : 'default'}>{t(value)}</Tag>
      ),
    },
    {
      title: t('enabled'),
      dataIndex: 'enabled',
      render: (enabled: boolean, monitor) => (
        <Switch
          size="small"
          checked={enabled}
          aria-label={`${t('enabled')} ${monitor.name}`}
          loading={toggle.isPending && toggle.variables?.monitor.id === monitor.id}
          onChange={(next) => toggle.mutate({ monitor, enabled: next })}
        />
      ),
    },
    {
      title: t('groups'),
      dataIndex: 'groups',
      render: (groups: MonitorNode['groups']) =>
        groups.length === 0 ? '—' : groups.map((group) => <Tag key={group.id}>{group.name}</Tag>),
    },
    { title: t('memo'), dataIndex: 'memo' },
    { title: t('createdAt'), dataIndex: 'createdAt', render: (value: string) => <DateTime value={value} /> },
    actionsColumn((monitor) => (
      <RowActions
        deleteLabel={t('removeMonitor')}
        deleteConfirm={t('removeConfirm', { name: monitor.name })}
        deleting={pendingFor(remove, monitor.id)}
        onDelete={() => remove.mutate(monitor)}
      />
    )),
  ];

  return (
    <>
      <PageTitle>{t('shell:menu.monitorNodeList')}</PageTitle>
      <ListToolbar justify="flex-end" style={{ marginBottom: 16 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          {t('addMonitor')}
        </Button>
      </ListToolbar>
      <ListTable<MonitorNode>
        rowKey="id"
        columns={columns}
        list={monitors}
        paging={search}
        emptyText={t('emptyMonitors')}
      />
      <AddMonitorModal open={adding} onClose={() => setAdding(false)} />
    </>
  );
}
