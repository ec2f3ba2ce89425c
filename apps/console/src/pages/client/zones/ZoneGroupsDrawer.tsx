import { PlusOutlined } from '@ant-design/icons';
import { type Group, groupRoutes, type Zone } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { type ListColumns, ListToolbar } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { actionsColumn, RowActions } from '../../../components/RowActions';
import { RowDrawer } from '../../../components/RowDrawer';
import { pendingFor } from '../../../features/lists/row-pending';
import { useLocalPaging } from '../../../features/lists/use-list-search';
import { GroupFormModal } from './GroupFormModal';
import { GroupLines } from './GroupLines';
import type { LineRef } from './LineMembers';
import { LinePanel } from './LinePanel';

/**
 * The groups of one zone, paged, with create, edit and delete; a group's row expands to its DNS
 * lines, and a line opens its nodes and virtual nodes. Closed when `zone` is null.
 */
export function ZoneGroupsDrawer({ zone, onClose }: { zone: Zone | null; onClose: () => void }) {
  const { t } = useTranslation(['zones', 'common']);
  return (
    <RowDrawer row={zone} title={(zone) => t('groupsOf', { name: zone.name })} size={720} onClose={onClose}>
      {(zone) => <ZoneGroups zone={zone} />}
    </RowDrawer>
  );
}

function ZoneGroups({ zone }: { zone: Zone }) {
  const { t } = useTranslation(['zones', 'common']);
  const paging = useLocalPaging();
  const params = { zoneID: zone.id };
  const query = { page: paging.page, pageSize: paging.pageSize };
  const groups = useQuery(routeQuery('client', groupRoutes.listGroups, { params, query }));
  const [editing, setEditing] = useState<Group | 'new' | null>(null);
  const [openLine, setOpenLine] = useState<(LineRef & { groupName: string }) | null>(null);
  const remove = useRouteMutation('client', groupRoutes.deleteGroup, {
    input: (group: Group) => ({ params, body: { id: group.id } }),
    invalidates: changes('groups'),
    success: () => toastText('deleteSuccess'),
  });

  // The drawer is 720 px wide: the name, main or backup, the node count and the actions by default.
  const columns: ListColumns<Group> = [
    { title: t('group.name'), dataIndex: 'name' },
    {
      title: t('group.portType'),
      dataIndex: 'portType',
      defaultHidden: true,
      render: (value: 7 | 4) => t(`common:portTypes.${value}`),
    },
    {
      title: t('group.isBackup'),
      dataIndex: 'isBackup',
      render: (value: boolean) => (value ? <Tag color="orange">{t('group.backup')}</Tag> : t('group.main')),
    },
    { title: t('group.nodeCount'), dataIndex: 'nodeCount' },
    { title: t('group.virtualNodeCount'), dataIndex: 'virtualNodeCount', defaultHidden: true },
    { title: t('memo'), dataIndex: 'memo', ellipsis: true, defaultHidden: true },
    actionsColumn((group) => (
      <RowActions
        onEdit={() => setEditing(group)}
        deleteConfirm={t('group.deleteConfirm', { name: group.name })}
        deleting={pendingFor(remove, group.id)}
        onDelete={() => remove.mutate(group)}
      />
    )),
  ];

  return (
    <>
      <ListToolbar justify="flex-end" style={{ marginBottom: 16 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('group.create')}
        </Button>
      </ListToolbar>
      <ListTable<Group>
        rowKey="id"
        size="small"
        columns={columns}
        list={groups}
        paging={paging}
        emptyText={t('group.empty')}
        expandable={{
          expandedRowRender: (group) => (
            <GroupLines
              zoneId={zone.id}
              group={group}
              onOpen={(line) => setOpenLine({ zoneId: zone.id, groupId: group.id, line, groupName: group.name })}
            />
          ),
        }}
      />
      <LinePanel at={openLine} groupName={openLine?.groupName ?? ''} onClose={() => setOpenLine(null)} />
      <GroupFormModal zoneId={zone.id} group={editing} onClose={() => setEditing(null)} />
    </>
  );
}
