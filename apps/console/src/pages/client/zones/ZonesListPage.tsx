import { PlusOutlined } from '@ant-design/icons';
import { type Zone, zoneRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changes } from '../../../app/resource-changes';
import { routeQuery, useRouteMutation } from '../../../app/route-query';
import { toastText } from '../../../app/toast';
import { DateTime } from '../../../components/DateTime';
import { type ListColumns, ListToolbar } from '../../../components/FitTable';
import { ListTable } from '../../../components/ListTable';
import { PageTitle } from '../../../components/PageTitle';
import { actionsColumn, RowActions } from '../../../components/RowActions';
import { pendingFor } from '../../../features/lists/row-pending';
import { urlId, urlQuery, useListSearch } from '../../../features/lists/use-list-search';
import { ZoneFormModal } from './ZoneFormModal';
import { ZoneGroupsDrawer } from './ZoneGroupsDrawer';
import { ZoneNodesDrawer } from './ZoneNodesDrawer';
import { ZoneSettingsDrawer } from './ZoneSettingsDrawer';

/**
 * `/client/nodeManage/zonesList`: the operator's zones, paged and sorted on the server; create,
 * edit and delete a zone, and open a zone's groups, nodes or settings in a drawer (the zone's id kept
 * in the URL as `zone`, `nodes` or `settings`).
 */
export function ZonesListPage() {
  const { t } = useTranslation(['zones', 'common', 'shell', 'nodeOps']);
  const search = useListSearch(['sortBy', 'orderBy', 'zone', 'settings', 'nodes'] as const);
  const sort = urlQuery(zoneRoutes.listZones.request.query, search, ['sortBy', 'orderBy']);
  const input = { query: { page: search.page, pageSize: search.pageSize, ...sort } };
  const zones = useQuery(routeQuery('client', zoneRoutes.listZones, input));
  const [editing, setEditing] = useState<Zone | 'new' | null>(null);
  const remove = useRouteMutation('client', zoneRoutes.deleteZone, {
    input: (zone: Zone) => ({ body: { id: zone.id } }),
    invalidates: changes('zones'),
    success: () => toastText('deleteSuccess'),
  });
  const openZoneId = urlId(search.filters.zone);
  const openZone = zones.data?.data.find((zone) => zone.id === openZoneId) ?? null;
  const settingsZoneId = urlId(search.filters.settings);
  const settingsZone = zones.data?.data.find((zone) => zone.id === settingsZoneId) ?? null;
  const nodesZoneId = urlId(search.filters.nodes);
  const nodesZone = zones.data?.data.find((zone) => zone.id === nodesZoneId) ?? null;

  const columns: ListColumns<Zone> = [
    { title: t('name'), dataIndex: 'name', sorter: true, sortOrder: search.sortOrder('name') },
    { title: t('memo'), dataIndex: 'memo', ellipsis: true },
    { title: t('nodeCount'), dataIndex: 'nodeCount', sorter: true, sortOrder: search.sortOrder('nodeCount') },
    {
      title: t('createdAt'),
      dataIndex: 'createdAt',
      defaultHidden: true,
      sorter: true,
      sortOrder: search.sortOrder('createdAt'),
      render: (value: string) => <DateTime value={value} />,
    },
    actionsColumn((zone) => (
      <RowActions
        before={
          <>
            <Button size="small" onClick={() => search.setFilters({ zone: String(zone.id) })}>
              {t('groups')}
            </Button>
            <Button size="small" onClick={() => search.setFilters({ nodes: String(zone.id) })}>
              {t('nodeOps:zoneNodes.open')}
            </Button>
            <Button size="small" onClick={() => search.setFilters({ settings: String(zone.id) })}>
              {t('settings.open')}
            </Button>
          </>
        }
        onEdit={() => setEditing(zone)}
        deleteConfirm={t('deleteConfirm', { name: zone.name })}
        deleting={pendingFor(remove, zone.id)}
        onDelete={() => remove.mutate(zone)}
      />
    )),
  ];

  return (
    <>
      <PageTitle>{t('shell:menu.zonesList')}</PageTitle>
      <ListToolbar justify="flex-end" style={{ marginBottom: 16 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('create')}
        </Button>
      </ListToolbar>
      <ListTable<Zone> rowKey="id" columns={columns} list={zones} paging={search} emptyText={t('empty')} />
      <ZoneFormModal zone={editing} onClose={() => setEditing(null)} />
      <ZoneGroupsDrawer zone={openZone} onClose={() => search.setFilters({ zone: undefined })} />
      <ZoneSettingsDrawer zone={settingsZone} onClose={() => search.setFilters({ settings: undefined })} />
      <ZoneNodesDrawer zone={nodesZone} onClose={() => search.setFilters({ nodes: undefined })} />
    </>
  );
}
