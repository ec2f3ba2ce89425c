import { PlusOutlined } from '@ant-design/icons';
import { type MonitorGroup, monitoringRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { type ListColumns, ListToolbar } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { actionsColumn, RowActions } from '../../../components/RowActions';
import { pendingFor } from '../../../features/lists/row-pending';
import { urlId, useListSearch } from '../../../features/lists/use-list-search';
import { MonitorStateTag } from '../../../features/monitoring/MonitorStateTag';
import { GroupTargetsDrawer } from './GroupTargetsDrawer';
import { MonitorGroupFormModal } from './MonitorGroupFormModal';
import { MONITOR_REFRESH } from './monitor-refresh';

const r = monitoringRoutes;

/** Monitor groups, paged: create, edit, delete, and a drawer with a group's nodes (`?group=` in the URL). */
export function MonitorGroupsTab() {
  const { t } = useTranslation(['monitoring', 'common']);
  const search = useListSearch(['group'] as const);
  const groups = useQuery({
    ...routeQuery('client', r.listMonitorGroups, { query: { page: search.page, pageSize: search.pageSize } }),
    ...MONITOR_REFRESH,
  });
  const [editing, setEditing] = useState<MonitorGroup | 'new' | null>(null);
  const remove = useRouteMutation('client', r.deleteMonitorGroup, {
    input: (group: MonitorGroup) => ({ body: { id: group.id } }),
    invalidates: changes('monitorGroups'),
    success: () => toastText('deleteSuccess'),
  });
  const openId = urlId(search.filters.group);
  const open = groups.data?.data.find((group) => group.id === openId) ?? null;

  const columns: ListColumns<MonitorGroup> = [
    { title: t('name'), dataIndex: 'name' },
    { title: t('intervalSeconds'), dataIndex: 'intervalSeconds' },
    { title: t('timeoutSeconds'), dataIndex: 'timeoutSeconds', defaultHidden: true },
    { title: t('failureThreshold'), dataIndex: 'failureThreshold', defaultHidden: true },
    {
      title: t('monitors'),
      dataIndex: 'monitors',
      ellipsis: true,
      render: (monitors: MonitorGroup['monitors']) => monitors.map((m) => <Tag key={m.id}>{m.name}</Tag>),
    },
    {
      title: t('counts'),
      dataIndex: 'counts',
      render: (counts: MonitorGroup['counts']) => (
        <Space size={0}>
          {(['up', 'down', 'unknown'] as const).map((state) => (
            <span key={state}>
              <MonitorStateTag state={state} /> {counts[state]}{' '}
            </span>
          ))}
        </Space>
      ),
    },
    {
      title: t('enabled'),
      dataIndex: 'enabled',
      render: (enabled: boolean) => (enabled ? t('common:yes') : t('common:no')),
    },
    { title: t('memo'), dataIndex: 'memo', ellipsis: true, defaultHidden: true },
    actionsColumn((group) => (
      <RowActions
        before={
          <Button size="small" onClick={() => search.setFilters({ group: String(group.id) })}>
            {t('showTargets')}
          </Button>
        }
        onEdit={() => setEditing(group)}
        deleteConfirm={t('groupDeleteConfirm', { name: group.name })}
        deleting={pendingFor(remove, group.id)}
        onDelete={() => remove.mutate(group)}
      />
    )),
  ];

  return (
    <>
      <ListToolbar justify="flex-end" style={{ marginBottom: 16 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('groupCreate')}
        </Button>
      </ListToolbar>
      <ListTable<MonitorGroup>
        rowKey="id"
        columns={columns}
        list={groups}
        paging={search}
        emptyText={t('emptyGroups')}
        quietRefresh
      />
      <MonitorGroupFormModal group={editing} onClose={() => setEditing(null)} />
      <GroupTargetsDrawer group={open} onClose={() => search.setFilters({ group: undefined })} />
    </>
  );
}
