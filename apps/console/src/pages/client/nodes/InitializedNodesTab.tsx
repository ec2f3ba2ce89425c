import { type InitializedNode, nodeRoutes, zoneRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Select, type TableColumnsType, Tag, Tooltip, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';
import { DateTime } from '../../../components/DateTime';
import { ListTable } from '../../../components/ListTable';
import { SearchBox } from '../../../components/SearchBox';
import { useListSearch } from '../../../features/lists/use-list-search';
import { useSelectedRows } from '../../../features/lists/use-selected-rows';
import { MonitorStateTag } from '../../../features/monitoring/MonitorStateTag';
import { MoveNodesModal } from './MoveNodesModal';
import { NODE_LIST_QUERY } from './node-refresh';

/**
 * Initialised nodes with their zone, groups and what their agents last reported; filtered by zones
 * and a search. Selected nodes can be moved to another zone.
 */
export function InitializedNodesTab() {
  const { t } = useTranslation(['nodes', 'common']);
  const { token } = theme.useToken();
  const search = useListSearch(['zoneIDs', 'value'] as const);
  const zoneIDs = search
    .all('zoneIDs')
    .map(Number)
    .filter((id) => Number.isInteger(id) && id > 0);
  const query = {
    page: search.page,
    pageSize: search.pageSize,
    zoneIDs: zoneIDs.length > 0 ? zoneIDs : undefined,
    value: search.filters.value,
  };
  const nodes = useQuery({ ...routeQuery('client', nodeRoutes.listInitializedNodes, { query }), ...NODE_LIST_QUERY });
  const zones = useQuery(routeQuery('client', zoneRoutes.metaZones, {}));
  const { selected, rowSelection, clear } = useSelectedRows<InitializedNode>();
  const [moving, setMoving] = useState<InitializedNode[] | null>(null);

  const columns: TableColumnsType<InitializedNode> = [
    { title: t('name'), dataIndex: 'name' },
    { title: t('ips'), dataIndex: 'ips', render: (ips: string[]) => ips.join(', ') },
    { title: t('zone'), dataIndex: 'zoneName' },
    {
      title: t('groups'),
      dataIndex: 'groups',
      render: (groups: InitializedNode['groups']) =>
        groups.length === 0
          ? '—'
          : groups.map((group) => <Tag key={`${group.id}-${group.line}`}>{`${group.name} (${group.line})`}</Tag>),
    },
    { title: t('version'), dataIndex: 'version' },
    {
      title: t('config.title'),
      key: 'config',
      render: (_, node) => (
        <Tooltip title={t('config.versions', { applied: node.appliedVersion || '—', current: node.currentVersion })}>
          {node.appliedVersion === node.currentVersion ? (
            <Tag color="green">{t('config.inSync')}</Tag>
          ) : (
            <Tag color="orange">{t('config.pending')}</Tag>
          )}
        </Tooltip>
      ),
    },
    {
      title: t('connection.title'),
      dataIndex: 'connection',
      render: (value: InitializedNode['connection']) => (
        <Tag color={value === 'online' ? 'green' : 'default'}>{t(`connection.${value}`)}</Tag>
      ),
    },
    {
      title: t('monitor'),
      dataIndex: 'monitor',
      render: (value: InitializedNode['monitor']) =>
        value ? <MonitorStateTag state={value.state} since={value.since} /> : '—',
    },
    {
      title: t('lastError'),
      dataIndex: 'lastError',
      ellipsis: true,
      render: (value: string) => (value ? <span style={{ color: token.colorError }}>{value}</span> : '—'),
    },
    { title: t('lastSeen'), dataIndex: 'lastSeenAt', render: (value: string | null) => <DateTime value={value} /> },
  ];

  return (
    <>
      <Flex gap="small" wrap style={{ marginBottom: 16 }}>
        <Select
          mode="multiple"
          allowClear
          style={{ minWidth: 240 }}
          placeholder={t('filters.zones')}
          aria-label={t('filters.zones')}
          value={zoneIDs}
          loading={zones.isLoading}
          options={zones.data?.data.map((zone) => ({ value: zone.id, label: zone.name }))}
          onChange={(ids: number[]) => search.setFilters({ zoneIDs: ids.map(String) })}
        />
        <SearchBox
          label={t('filters.value')}
          value={search.filters.value}
          width={280}
          onSearch={(text) => search.setFilters({ value: text })}
        />
        <Button disabled={selected.length === 0} onClick={() => setMoving(selected)} style={{ marginLeft: 'auto' }}>
          {t('move.selected', { count: selected.length })}
        </Button>
      </Flex>
      <ListTable<InitializedNode>
        rowKey="id"
        columns={columns}
        list={nodes}
        paging={search}
        emptyText={t('emptyInitialized')}
        rowSelection={rowSelection}
        quietRefresh
      />
      <MoveNodesModal
        nodes={moving}
        onClose={() => setMoving(null)}
        onDone={() => {
          setMoving(null);
          clear();
        }}
      />
    </>
  );
}
