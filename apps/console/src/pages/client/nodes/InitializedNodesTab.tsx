import { type InitializedNode, NODE_SWITCHES, nodeRoutes, PORT_TYPES, zoneRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Select, Space, Tag, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeQuery } from '../../../app/route-query';
import { DateTime } from '../../../components/DateTime';
import type { ListColumns } from '../../../components/FitTable';
import { ListTable, type ListTableProps } from '../../../components/ListTable';
import { actionsColumn } from '../../../components/RowActions';
import { SearchBox } from '../../../components/SearchBox';
import { urlId, urlQuery, useListSearch } from '../../../features/lists/use-list-search';
import { useSelectedRows } from '../../../features/lists/use-selected-rows';
import { MonitorStateTag } from '../../../features/monitoring/MonitorStateTag';
import { MoveNodesModal } from './MoveNodesModal';
import { useNodeActionDialog } from './NodeActionModal';
import { NodeActionsMenu } from './NodeActionsMenu';
import { NodeConfigTag } from './NodeConfigTag';
import { NodeDetailDrawer } from './NodeDetailDrawer';
import { NODE_LIST_QUERY } from './node-refresh';
import { SubNodeDnsFilters, useSubNodeDnsColumns } from './node-subs-dns-ui';
import { UpgradeFilter, upgradeStatusesOf, useUpgradeStatusColumn } from './node-upgrade-ui';

const PORT_TYPE_VALUES = PORT_TYPES.map((type) => String(type) as '7' | '4');

/**
 * Initialised nodes with their zone, groups, settings and what their agents last reported;
 * filtered by zones, on/off, port type, agent version, upgrade status, sub-nodes, DNS status and a
 * search (all in the URL). A row's menu and the selection's menu send commands (reboot, reset, log rotation,
 * upgrade) and change settings;
 * selected nodes can be moved to another zone; a node's details open in a drawer (`node` in the URL).
 */

export function InitializedNodesTab() {
  const { t } = useTranslation(['nodes', 'nodeOps', 'common']);
  const { token } = theme.useToken();
  const search = useListSearch([
    'zoneIDs',
    'value',
    'status',
    'portType',
    'version',
    'upgradeStatuses',
    'subNodeType',
    'dnsStatus',
    'node',
  ] as const);
  const upgradeColumn = useUpgradeStatusColumn();
  const subNodeDnsColumns = useSubNodeDnsColumns();
  const filters = urlQuery(nodeRoutes.listInitializedNodes.request.query, search, [
    'zoneIDs',
    'value',
    'status',
    'portType',
    'version',
    'upgradeStatuses',
    'subNodeType',
    'dnsStatus',
  ]);
  const zoneIDs = [filters.zoneIDs ?? []].flat().map(Number);
  const upgradeStatuses = upgradeStatusesOf([filters.upgradeStatuses ?? []].flat());
  const query = { page: search.page, pageSize: search.pageSize, ...filters };
  const nodes = useQuery({ ...routeQuery('client', nodeRoutes.listInitializedNodes, { query }), ...NODE_LIST_QUERY });
  const zones = useQuery(routeQuery('client', zoneRoutes.metaZones, {}));
  const { selected, rowSelection, clear } = useSelectedRows<InitializedNode>();
  const [moving, setMoving] = useState<InitializedNode[] | null>(null);
  const actions = useNodeActionDialog(clear);
  const openNodeId = urlId(search.filters.node);
  const openNode = nodes.data?.data.find((node) => node.id === openNodeId) ?? null;

  // By default the name, addresses, zone and connection fit 1280 px; the rest is chosen.
  const columns: ListColumns<InitializedNode> = [
    { title: t('name'), dataIndex: 'name' },
    { title: t('ips'), dataIndex: 'ips', render: (ips: string[]) => ips.join(', ') },
    { title: t('zone'), dataIndex: 'zoneName', ellipsis: true, maxWidth: 140 },
    {
      title: t('groups'),
      dataIndex: 'groups',
      defaultHidden: true,
      render: (groups: InitializedNode['groups']) =>
        groups.length === 0
          ? '—'
          : groups.map((group) => <Tag key={`${group.id}-${group.line}`}>{`${group.name} (${group.line})`}</Tag>),
    },
    ...subNodeDnsColumns.map((column) => ({ ...column, defaultHidden: true })),
    { title: t('version'), dataIndex: 'version', defaultHidden: true },
    { ...upgradeColumn, defaultHidden: true },
    {
      title: t('nodeOps:status.title'),
      defaultHidden: true,
      dataIndex: 'status',
      render: (value: InitializedNode['status']) => (
        <Tag color={value === 'on' ? 'blue' : 'red'}>{t(`nodeOps:status.${value}`)}</Tag>
      ),
    },
    {
      title: t('nodeOps:portType'),
      defaultHidden: true,
      dataIndex: 'portType',
      render: (value: InitializedNode['portType']) => t(`common:portTypes.${value}`),
    },
    {
      title: t('nodeOps:memo'),
      dataIndex: 'memo',
      ellipsis: true,
      defaultHidden: true,
      render: (value: string) => value || '—',
    },
    {
      title: t('nodeOps:logRotateTime'),
      defaultHidden: true,
      dataIndex: 'logRotateTime',
      render: (value: string | null) => value ?? t('nodeOps:never'),
    },
    {
      title: t('config.title'),
      defaultHidden: true,
      key: 'config',
      render: (_, node) => <NodeConfigTag node={node} />,
    },
    {
      title: t('connection.title'),
      dataIndex: 'connection',
      render: (value: InitializedNode['connection']) => (
        <Tag color={value === 'online' ? 'green' : 'default'}>{t(`connection.${value}`)}</Tag>
      ),
    },
    {
      // The switch (PATCH client/node/monitor) and what the monitor groups say: a node switched off
      // is not probed.
      title: t('monitor'),
      defaultHidden: true,
      key: 'monitor',
      render: (_: unknown, node: InitializedNode) =>
        !node.monitor ? (
          <MonitorStateTag state="unmonitored" />
        ) : node.monitorState ? (
          <MonitorStateTag state={node.monitorState.state} since={node.monitorState.since} />
        ) : (
          '—'
        ),
    },
    {
      title: t('lastError'),
      defaultHidden: true,
      dataIndex: 'lastError',
      ellipsis: true,
      // The agent's own failure, the ports it could not listen on, and what the control plane could
      // not put into the node's snapshot.
      render: (value: string, node) => {
        const failed = node.failedPorts.map((p) => `${p.port}/${p.protocol}`).join(', ');
        const agent = [value, failed ? t('failedPorts', { ports: failed }) : ''].filter((v) => v !== '').join('; ');
        return agent || node.snapshotError ? (
          <Space orientation="vertical" size={0}>
            {node.snapshotError && (
              <span style={{ color: token.colorError }}>{t('snapshotError', { error: node.snapshotError })}</span>
            )}
            {agent && <span style={{ color: token.colorError }}>{agent}</span>}
          </Space>
        ) : (
          '—'
        );
      },
    },
    {
      title: t('lastSeen'),
      dataIndex: 'lastSeenAt',
      defaultHidden: true,
      render: (value: string | null) => <DateTime value={value} />,
    },
    actionsColumn((node) => (
      <Space>
        <Button size="small" onClick={() => search.setFilters({ node: String(node.id) })}>
          {t('nodeOps:details')}
        </Button>
        <NodeActionsMenu nodes={[node]} label={t('nodeOps:more')} size="small" onPick={actions.open} />
      </Space>
    )),
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
          showSearch
          optionFilterProp="label"
          options={zones.data?.data.map((zone) => ({ value: zone.id, label: zone.name }))}
          onChange={(ids: number[]) => search.setFilters({ zoneIDs: ids.map(String) })}
        />
        <Select
          allowClear
          style={{ width: 120 }}
          placeholder={t('nodeOps:filters.status')}
          aria-label={t('nodeOps:filters.status')}
          value={query.status}
          options={NODE_SWITCHES.map((value) => ({ value, label: t(`nodeOps:status.${value}`) }))}
          onChange={(value?: string) => search.setFilters({ status: value })}
        />
        <Select
          allowClear
          style={{ width: 200 }}
          placeholder={t('nodeOps:filters.portType')}
          aria-label={t('nodeOps:filters.portType')}
          value={filters.portType === undefined ? undefined : String(filters.portType)}
          options={PORT_TYPE_VALUES.map((value) => ({ value, label: t(`common:portTypes.${value}`) }))}
          onChange={(value?: string) => search.setFilters({ portType: value })}
        />
        <SearchBox
          label={t('nodeOps:filters.version')}
          value={search.filters.version}
          width={160}
          onSearch={(text) => search.setFilters({ version: text })}
        />
        <UpgradeFilter value={upgradeStatuses} onChange={(values) => search.setFilters({ upgradeStatuses: values })} />
        <SubNodeDnsFilters subNodeType={query.subNodeType} dnsStatus={query.dnsStatus} onChange={search.setFilters} />
        <SearchBox
          label={t('filters.value')}
          value={search.filters.value}
          width={240}
          onSearch={(text) => search.setFilters({ value: text })}
        />
        <Space style={{ marginLeft: 'auto' }}>
          <NodeActionsMenu
            nodes={selected}
            label={t('nodeOps:bulk', { count: selected.length })}
            onPick={actions.open}
          />
          <Button disabled={selected.length === 0} onClick={() => setMoving(selected)}>
            {t('move.selected', { count: selected.length })}
          </Button>
        </Space>
      </Flex>
      <InitializedNodesTable
        columns={columns}
        list={nodes}
        paging={search}
        emptyText={t('emptyInitialized')}
        rowSelection={rowSelection}
      />
      <MoveNodesModal
        nodes={moving}
        onClose={() => setMoving(null)}
        onDone={() => {
          setMoving(null);
          clear();
        }}
      />
      {actions.dialog}
      <NodeDetailDrawer node={openNode} onClose={() => search.setFilters({ node: undefined })} />
    </>
  );
}

/** A table of initialised nodes (this tab's, the version upgrade page's): keyed by id, reloaded without a spinner. */
export function InitializedNodesTable(props: Omit<ListTableProps<InitializedNode>, 'rowKey' | 'quietRefresh'>) {
  return <ListTable<InitializedNode> rowKey="id" quietRefresh {...props} />;
}
